import { useState, type FormEvent } from 'react';
import { api, ws } from '../api';
import { keys, useWrite } from '../queries';
import { ConfirmDialog, Dialog, DialogActions, DialogDone } from '../components/Dialog';
import { Field } from '../components/Field';
import { Secret } from '../components/Secret';
import { ErrorMessage, FormAlert } from '../components/Status';
import { formFeedback } from '../form-errors';
import type { Webhook, WebhookWithSecret, WorkspaceSummary } from '../types';

const LABELS = { url: 'URL', description: 'Description', eventTypes: 'Event types' };
const STORE =
  'Copy the signing secret now and give it to the receiver: it verifies each delivery with it. You can reveal it again from this list.';

interface Props {
  workspace: WorkspaceSummary;
  onClose(): void;
}
interface EndpointProps extends Props {
  webhook: Webhook;
}

/** Event types as typed: a comma- or space-separated list; empty is every type. */
const parseTypes = (text: string) => {
  const types = text.split(/[\s,]+/).filter(Boolean);
  return types.length === 0 ? null : types;
};

function EndpointForm({
  initial,
  pending,
  error,
  submitLabel,
  onSubmit,
  onClose,
}: {
  initial?: Webhook;
  pending: boolean;
  error: unknown;
  submitLabel: string;
  onSubmit(body: { url: string; description: string; eventTypes: string[] | null }): void;
  onClose(): void;
}) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [types, setTypes] = useState(initial?.eventTypes?.join(', ') ?? '');
  const feedback = formFeedback(error, LABELS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ url: url.trim(), description: description.trim(), eventTypes: parseTypes(types) });
  };
  return (
    <form onSubmit={submit} className="stack">
      <Field
        label="URL"
        type="url"
        required
        hint="Where each event is POSTed: an https URL your site or build service answers."
        error={feedback.fields.url}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        data-autofocus
      />
      <Field
        label="Description (optional)"
        maxLength={500}
        error={feedback.fields.description}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <Field
        label="Event types (optional)"
        hint="Separated by commas, such as “post.published, post.deleted”. Empty sends every event."
        error={feedback.fields.eventTypes}
        value={types}
        onChange={(e) => setTypes(e.target.value)}
      />
      <FormAlert summary={feedback.summary} />
      <DialogActions onCancel={onClose} pending={pending} label={submitLabel} pendingLabel="Saving…" />
    </form>
  );
}

export function CreateWebhookDialog({ workspace, onClose }: Props) {
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const create = useWrite(
    (body: { url: string; description: string; eventTypes: string[] | null }) =>
      api.post<WebhookWithSecret>(ws(workspace.id, '/webhooks'), body),
    [keys.resource(workspace.id, 'webhooks')],
  );
  if (created)
    return (
      <Dialog title="Endpoint added" onClose={onClose}>
        <p>
          Events are sent to <code>{created.url}</code> from now on.
        </p>
        <Secret label="Signing secret" value={created.secret} warning={STORE} />
        <DialogDone onClose={onClose} />
      </Dialog>
    );
  return (
    <Dialog title="Add a webhook endpoint" onClose={onClose}>
      <EndpointForm
        pending={create.pending}
        error={create.error}
        submitLabel="Add endpoint"
        onClose={onClose}
        onSubmit={async (body) => {
          const webhook = await create.execute(body);
          if (webhook) setCreated(webhook);
        }}
      />
    </Dialog>
  );
}

export function EditWebhookDialog({ workspace, webhook, onClose, onSaved }: EndpointProps & { onSaved(): void }) {
  const save = useWrite(
    (body: object) => api.patch<Webhook>(ws(workspace.id, `/webhooks/${webhook.id}`), body),
    [keys.resource(workspace.id, 'webhooks')],
  );
  return (
    <Dialog title="Edit webhook endpoint" onClose={onClose}>
      <EndpointForm
        initial={webhook}
        pending={save.pending}
        error={save.error}
        submitLabel="Save changes"
        onClose={onClose}
        onSubmit={async (body) => {
          if (await save.execute(body)) onSaved();
        }}
      />
    </Dialog>
  );
}

/** Reveal or rotate: one dialog for the question and the secret, so focus returns to the button that opened it. */
export function SecretDialog({ workspace, webhook, rotate, onClose }: EndpointProps & { rotate: boolean }) {
  const [secret, setSecret] = useState<string | null>(null);
  const action = rotate ? 'rotate-secret' : 'reveal-secret';
  const run = useWrite(
    () => api.post<WebhookWithSecret>(ws(workspace.id, `/webhooks/${webhook.id}/${action}`)),
    [keys.resource(workspace.id, 'webhooks')],
  );
  return (
    <Dialog title={rotate ? 'Rotate the signing secret?' : 'Reveal the signing secret?'} onClose={onClose}>
      {secret ? (
        <>
          <Secret
            label="Signing secret"
            value={secret}
            warning={
              rotate
                ? 'Every delivery from now on is signed with this secret: give it to the receiver now.'
                : 'Anyone who has this secret can forge deliveries to your receiver.'
            }
          />
          <DialogDone onClose={onClose} />
        </>
      ) : (
        <>
          <p>
            {rotate
              ? 'A new secret replaces the current one at once; deliveries signed with the old one stop verifying.'
              : 'The secret will be shown on screen. Make sure nobody else can see it.'}
          </p>
          {run.error !== null && <ErrorMessage error={run.error} />}
          <div className="actions">
            <button type="button" data-autofocus onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button-primary"
              disabled={run.pending}
              onClick={async () => {
                const answer = await run.execute();
                if (answer) setSecret(answer.secret);
              }}
            >
              {rotate ? 'Rotate secret' : 'Reveal secret'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

export function DeleteWebhookDialog({ workspace, webhook, onClose, onDeleted }: EndpointProps & { onDeleted(): void }) {
  const remove = useWrite(
    () => api.delete<Webhook>(ws(workspace.id, `/webhooks/${webhook.id}`)),
    [keys.resource(workspace.id, 'webhooks')],
  );
  return (
    <ConfirmDialog
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      danger
      pending={remove.pending}
      error={remove.error !== null && <ErrorMessage error={remove.error} />}
      onCancel={onClose}
      onConfirm={async () => {
        if (await remove.execute()) onDeleted();
      }}
    >
      <p>
        Nothing more is sent to <code>{webhook.url}</code>, including deliveries still waiting to be retried.
      </p>
    </ConfirmDialog>
  );
}
