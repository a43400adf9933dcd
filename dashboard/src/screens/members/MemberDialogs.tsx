import { useState, type FormEvent } from 'react';
import { call, client } from '../../api';
import { keys, useWrite } from '../../queries';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorMessage } from '../../components/Status';
import type { components } from '../../api/schema';
import type { Member, WorkspaceSummary } from '../../types';
import { PermissionsEditor } from './RoleChoice';

interface PermissionsProps {
  workspace: WorkspaceSummary;
  member: Member;
  onClose(): void;
  onSaved(): void;
}

export function PermissionsDialog({ workspace, member, onClose, onSaved }: PermissionsProps) {
  const [permissions, setPermissions] = useState<string[]>(member.permissions);
  const save = useWrite(
    (value: string[]) =>
      call(
        client.PATCH('/workspaces/{workspaceId}/members/{userId}', {
          params: { path: { workspaceId: workspace.id, userId: member.userId } },
          // The grid offers only the names the API takes.
          body: { permissions: value as components['schemas']['MemberPermissionsBody']['permissions'] },
        }),
      ),
    [keys.resource(workspace.id, 'members')],
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await save.execute(permissions)) onSaved();
  };
  return (
    <Dialog title={`Permissions of ${member.email}`} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <p className="hint">Changes apply at once, to the dashboard and to every API key this member created.</p>
        <PermissionsEditor workspace={workspace} caption="Permissions" value={permissions} onChange={setPermissions} />
        {save.error !== null && <ErrorMessage error={save.error} />}
        <DialogActions onCancel={onClose} pending={save.pending} label="Save permissions" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}
