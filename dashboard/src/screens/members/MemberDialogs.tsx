import { useState, type FormEvent } from 'react';
import { call, client } from '../../api';
import { keys, useWrite } from '../../queries';
import { Dialog, DialogActions, DialogDone } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { Secret } from '../../components/Secret';
import { ErrorMessage, FormAlert } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import type { AddedMember, Member, Permission, WorkspaceSummary } from '../../types';
import { PermissionsGrid } from './PermissionsGrid';

const ADD_LABELS = { email: 'Email', permissions: 'Permissions' };
// The server answers 404 for an email without an account: say what to do about it, on the field.
const NO_ACCOUNT = {
  field: 'email',
  message:
    'No Quire account uses this email. Tick “Create an account for this email” below to create one, or check the address.',
};

export function AddMemberDialog({ workspace, onClose }: { workspace: WorkspaceSummary; onClose(): void }) {
  const [email, setEmail] = useState('');
  const [createUser, setCreateUser] = useState(false);
  const [permissions, setPermissions] = useState<string[]>(['posts:read']);
  const [added, setAdded] = useState<AddedMember | null>(null);
  const add = useWrite(
    (body: { email: string; permissions: string[]; createUser: boolean }) =>
      call(
        client.POST('/workspaces/{workspaceId}/members', {
          params: { path: { workspaceId: workspace.id } },
          // The grid offers only the permission names.
          body: { ...body, permissions: body.permissions as Permission[] },
        }),
      ),
    [keys.resource(workspace.id, 'members')],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const member = await add.execute({ email: email.trim(), permissions, createUser });
    if (member) setAdded(member);
  };
  const feedback = formFeedback(add.error, ADD_LABELS, NO_ACCOUNT);

  if (added) {
    return (
      <Dialog title="Member added" onClose={onClose}>
        <p>
          <strong>{added.email}</strong> is now a member of {workspace.name}.
        </p>
        {added.oneTimePassword && (
          <Secret
            label={`One-time password for ${added.email}`}
            value={added.oneTimePassword}
            warning="You will not see this password again. Give it to them privately; they should change it after signing in."
          />
        )}
        <DialogDone onClose={onClose} />
      </Dialog>
    );
  }

  return (
    <Dialog title="Add a member" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Email"
          type="email"
          required
          error={feedback.fields.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          data-autofocus
        />
        <div className="check">
          <input
            id="add-member-create"
            type="checkbox"
            checked={createUser}
            onChange={(e) => setCreateUser(e.target.checked)}
          />
          <label htmlFor="add-member-create">
            Create an account for this email (a one-time password is shown once)
          </label>
        </div>
        <p className="hint">Without it, the email must already belong to someone with a Quire account.</p>
        <PermissionsGrid caption="Permissions" value={permissions} onChange={setPermissions} />
        <FormAlert summary={feedback.summary} />
        <DialogActions onCancel={onClose} pending={add.pending} label="Add member" pendingLabel="Adding…" />
      </form>
    </Dialog>
  );
}

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
          body: { permissions: value as Permission[] },
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
        <PermissionsGrid caption={`Permissions of ${member.email}`} value={permissions} onChange={setPermissions} />
        {save.error !== null && <ErrorMessage error={save.error} />}
        <DialogActions onCancel={onClose} pending={save.pending} label="Save permissions" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}
