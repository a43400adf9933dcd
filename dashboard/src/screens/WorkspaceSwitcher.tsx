import { useId, useState, type FormEvent } from 'react';
import { call, client } from '../api';
import { useWrite } from '../queries';
import { Dialog } from '../components/Dialog';
import { Field } from '../components/Field';
import { FormAlert } from '../components/Status';
import { formFeedback } from '../form-errors';
import { useRouter } from '../router';
import { landingSection } from '../sections';
import { useSession } from '../session';
import type { WorkspaceSummary } from '../types';

interface Props {
  workspace: WorkspaceSummary | null;
  /** Switching keeps the person on the same screen of the other workspace. */
  section: string;
}

export function WorkspaceSwitcher({ workspace, section }: Props) {
  const { session, refresh } = useSession();
  const { navigate } = useRouter();
  const selectId = useId();
  const [dialog, setDialog] = useState<'create' | 'rename' | null>(null);

  return (
    <div className="switcher">
      {workspace && (
        <>
          <label htmlFor={selectId} className="visually-hidden">
            Workspace
          </label>
          <select
            id={selectId}
            value={workspace.id}
            onChange={(event) => {
              const target = session.workspaces.find((w) => w.id === event.target.value);
              if (target) navigate(`/w/${target.id}/${landingSection(target, section)}`);
            }}
          >
            {session.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
          {workspace.isOwner && (
            <button type="button" className="button-quiet" onClick={() => setDialog('rename')}>
              Rename<span className="visually-hidden"> workspace</span>
            </button>
          )}
        </>
      )}
      <button type="button" className="button-quiet" onClick={() => setDialog('create')}>
        New workspace
      </button>
      {dialog && (
        <WorkspaceNameDialog
          mode={dialog}
          workspace={workspace}
          onClose={() => setDialog(null)}
          onSaved={async (saved) => {
            await refresh();
            setDialog(null);
            if (dialog === 'create') navigate(`/w/${saved.id}/${landingSection(saved)}`);
          }}
        />
      )}
    </div>
  );
}

interface DialogProps {
  mode: 'create' | 'rename';
  workspace: WorkspaceSummary | null;
  onClose(): void;
  onSaved(workspace: WorkspaceSummary): Promise<void>;
}

function WorkspaceNameDialog({ mode, workspace, onClose, onSaved }: DialogProps) {
  const [name, setName] = useState(mode === 'rename' ? (workspace?.name ?? '') : '');
  const save = useWrite((value: string) =>
    mode === 'create' || !workspace
      ? call(client.POST('/workspaces', { body: { name: value } }))
      : call(
          client.PATCH('/workspaces/{workspaceId}', {
            params: { path: { workspaceId: workspace.id } },
            body: { name: value },
          }),
        ),
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await save.execute(name.trim());
    if (saved) await onSaved(saved);
  };
  const feedback = formFeedback(save.error, { name: 'Workspace name' });
  return (
    <Dialog title={mode === 'create' ? 'New workspace' : 'Rename workspace'} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Workspace name"
          required
          maxLength={100}
          error={feedback.fields.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-autofocus
        />
        <FormAlert summary={feedback.summary} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={save.pending}>
            {mode === 'create' ? 'Create workspace' : 'Save name'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
