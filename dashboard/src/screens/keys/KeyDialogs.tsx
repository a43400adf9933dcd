import { useState, type FormEvent } from 'react';
import { call, client } from '../../api';
import { keys, useWrite } from '../../queries';
import { ConfirmDialog, Dialog, DialogActions, DialogDone } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { Secret } from '../../components/Secret';
import { ErrorMessage, FormAlert } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import { formatTime, fromLocalInput, toLocalInput } from '../../hooks';
import type { ApiKey, ApiKeyWithSecret, WorkspaceSummary } from '../../types';

const NAME_MAX = 100;
const LABELS = { name: 'Name', expiresAt: 'Expires' };
// True for whoever may reveal it later (its creator, the owner), as long as it is active: no "never again".
const STORE =
  'Copy the key now and store it somewhere safe, such as your deployment’s secret settings. While it is active, you can reveal it again from this list.';

interface Props {
  workspace: WorkspaceSummary;
  onClose(): void;
}

export function CreateKeyDialog({ workspace, onClose }: Props) {
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const create = useWrite(
    (body: { name: string; expiresAt: string | null }) =>
      call(
        client.POST('/workspaces/{workspaceId}/api-keys', { params: { path: { workspaceId: workspace.id } }, body }),
      ),
    [keys.resource(workspace.id, 'api-keys')],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = await create.execute({ name: name.trim(), expiresAt: fromLocalInput(expires) });
    if (key) setCreated(key);
  };
  const feedback = formFeedback(create.error, LABELS);

  if (created) {
    return (
      <Dialog title="Key created" onClose={onClose}>
        <p>
          <strong>{created.name}</strong> is active
          {created.expiresAt ? ` until ${formatTime(created.expiresAt)}` : ' and never expires'}.
        </p>
        <Secret label="Your new API key" value={created.key} warning={STORE} />
        <DialogDone onClose={onClose} />
      </Dialog>
    );
  }

  return (
    <Dialog title="Create an API key" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Name"
          required
          maxLength={NAME_MAX}
          hint="Something that says where it is used, such as “Production site build”."
          error={feedback.fields.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-autofocus
        />
        <Field
          label="Expires (optional)"
          type="datetime-local"
          hint="Leave empty for a key that never expires."
          error={feedback.fields.expiresAt}
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
        />
        <FormAlert summary={feedback.summary} />
        <DialogActions onCancel={onClose} pending={create.pending} label="Create key" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

interface KeyProps extends Props {
  apiKey: ApiKey;
}

export function RevealKeyDialog({ workspace, apiKey, onClose }: KeyProps) {
  const [revealed, setRevealed] = useState<ApiKeyWithSecret | null>(null);
  const reveal = useWrite(
    () =>
      call(
        client.POST('/workspaces/{workspaceId}/api-keys/{id}/reveal', {
          params: { path: { workspaceId: workspace.id, id: apiKey.id } },
        }),
      ),
    [keys.resource(workspace.id, 'api-keys')],
  );

  // One dialog for both steps, so focus returns to the Reveal button however it ends.
  return (
    <Dialog title={revealed ? `Key “${apiKey.name}”` : `Reveal key “${apiKey.name}”?`} onClose={onClose}>
      {revealed ? (
        <>
          <Secret
            label="API key"
            value={revealed.key}
            warning="Treat this key like a password: anyone who has it can act as its creator in this workspace."
          />
          <DialogDone onClose={onClose} />
        </>
      ) : (
        <>
          <p>The full key will be shown on screen. Make sure nobody else can see it.</p>
          {reveal.error !== null && <ErrorMessage error={reveal.error} />}
          <div className="actions">
            <button type="button" data-autofocus onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button-primary"
              disabled={reveal.pending}
              onClick={async () => {
                const key = await reveal.execute();
                if (key) setRevealed(key);
              }}
            >
              {reveal.pending ? 'Revealing…' : 'Reveal key'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

export function EditKeyDialog({ workspace, apiKey, onClose, onSaved }: KeyProps & { onSaved(): void }) {
  const [name, setName] = useState(apiKey.name);
  const [expires, setExpires] = useState(toLocalInput(apiKey.expiresAt));
  const save = useWrite(
    (body: { name?: string; expiresAt?: string | null }) =>
      call(
        client.PATCH('/workspaces/{workspaceId}/api-keys/{id}', {
          params: { path: { workspaceId: workspace.id, id: apiKey.id } },
          body,
        }),
      ),
    [keys.resource(workspace.id, 'api-keys')],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Only what changed: an unchanged expiry must not be rewritten with the minute-precision of the input.
    const body: { name?: string; expiresAt?: string | null } = {};
    if (name.trim() !== apiKey.name) body.name = name.trim();
    if (expires !== toLocalInput(apiKey.expiresAt)) body.expiresAt = fromLocalInput(expires);
    if (Object.keys(body).length === 0) return onClose();
    if (await save.execute(body)) onSaved();
  };
  const feedback = formFeedback(save.error, LABELS);

  return (
    <Dialog title={`Edit key “${apiKey.name}”`} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Name"
          required
          maxLength={NAME_MAX}
          error={feedback.fields.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-autofocus
        />
        <div className="field-row">
          <Field
            label="Expires"
            type="datetime-local"
            hint="Empty means the key never expires."
            error={feedback.fields.expiresAt}
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
          <button type="button" disabled={expires === ''} onClick={() => setExpires('')}>
            Clear expiry
          </button>
        </div>
        {apiKey.status === 'Revoked' && (
          <p className="hint">This key is revoked: a new name or expiry will not bring it back.</p>
        )}
        <FormAlert summary={feedback.summary} />
        <DialogActions onCancel={onClose} pending={save.pending} label="Save changes" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}

export function RevokeKeyDialog({ workspace, apiKey, onClose, onRevoked }: KeyProps & { onRevoked(): void }) {
  const revoke = useWrite(
    () =>
      call(
        client.POST('/workspaces/{workspaceId}/api-keys/{id}/revoke', {
          params: { path: { workspaceId: workspace.id, id: apiKey.id } },
        }),
      ),
    [keys.resource(workspace.id, 'api-keys')],
  );
  return (
    <ConfirmDialog
      title={`Revoke key “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      danger
      pending={revoke.pending}
      error={revoke.error !== null && <ErrorMessage error={revoke.error} />}
      onCancel={onClose}
      onConfirm={async () => {
        if (await revoke.execute()) onRevoked();
      }}
    >
      <p>
        Anything using this key gets 401 Unauthorized from its next request. A revoked key cannot be restored; create a
        new one to replace it.
      </p>
    </ConfirmDialog>
  );
}
