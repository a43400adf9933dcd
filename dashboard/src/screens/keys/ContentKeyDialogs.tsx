import { useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../../api';
import { keys, useWrite } from '../../queries';
import { ConfirmDialog, Dialog, DialogActions } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { ErrorMessage, FormAlert } from '../../components/Status';
import { formFeedback, type FormFeedback } from '../../form-errors';
import { TextArea } from '../../library/inputs';
import { inWords } from '../../validation-words';
import type { ContentKey, WorkspaceSummary } from '../../types';

const NAME_MAX = 100;
const LABELS = { name: 'Name', allowedOrigins: 'Allowed origins' };
const ORIGINS_HINT =
  'One a line, such as https://www.example.com. A browser on any other site is refused. Leave empty for any origin.';

interface Body {
  name?: string;
  allowedOrigins?: string[];
}

/** The lines of the origins box that say something, each once: the server refuses a list that repeats itself. */
function originLines(text: string): string[] {
  return [...new Set(text.split('\n').map((line) => line.trim()))].filter(Boolean);
}

/**
 * The form's feedback, with a refused origin named by what was typed: the server's pointer (/allowedOrigins/2)
 * counts the lines that were sent, which are not the box's line numbers once blank ones are left out.
 */
function feedbackOf(error: unknown, sent: string[]): FormFeedback {
  const feedback = formFeedback(error, LABELS);
  if (!(error instanceof ApiError) || !Array.isArray(error.details?.issues)) return feedback;
  const named = (error.details.issues as Array<{ path?: string; message?: string }>).flatMap((issue) => {
    const index = /^\/allowedOrigins\/(\d+)$/.exec(issue.path ?? '')?.[1];
    const value = index === undefined ? undefined : sent[Number(index)];
    const words = inWords(issue.message ?? 'is not valid', 'allowedOrigins');
    return value === undefined || words === null ? [] : [`“${value}”: ${words}`];
  });
  return named.length > 0 ? { ...feedback, fields: { ...feedback.fields, allowedOrigins: named.join(' ') } } : feedback;
}

interface FormProps {
  title: string;
  submitLabel: string;
  pendingLabel: string;
  initial: { name: string; origins: string };
  pending: boolean;
  error: unknown;
  sent: string[];
  onSubmit(name: string, origins: string[]): void;
  onClose(): void;
}

function ContentKeyForm({
  title,
  submitLabel,
  pendingLabel,
  initial,
  pending,
  error,
  sent,
  onSubmit,
  onClose,
}: FormProps) {
  const [name, setName] = useState(initial.name);
  const [origins, setOrigins] = useState(initial.origins);
  const feedback = feedbackOf(error, sent);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(name.trim(), originLines(origins));
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Name"
          required
          maxLength={NAME_MAX}
          hint="The site that uses it, such as “Marketing site”."
          error={feedback.fields.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-autofocus
        />
        <TextArea
          label="Allowed origins"
          rows={4}
          spellCheck={false}
          autoCapitalize="off"
          className="mono"
          hint={ORIGINS_HINT}
          error={feedback.fields.allowedOrigins}
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
        />
        <FormAlert summary={feedback.summary} />
        <DialogActions onCancel={onClose} pending={pending} label={submitLabel} pendingLabel={pendingLabel} />
      </form>
    </Dialog>
  );
}

interface Props {
  workspace: WorkspaceSummary;
  onClose(): void;
}

function useContentKeyWrite(workspace: WorkspaceSummary, send: (body: Body) => Promise<ContentKey>) {
  const [sent, setSent] = useState<string[]>([]);
  const write = useWrite(send, [keys.resource(workspace.id, 'content-keys')]);
  const execute = (body: Body) => {
    setSent(body.allowedOrigins ?? []);
    return write.execute(body);
  };
  return { ...write, execute, sent };
}

export function CreateContentKeyDialog({ workspace, onClose }: Props) {
  const create = useContentKeyWrite(workspace, (body) =>
    call(
      client.POST('/workspaces/{workspaceId}/content-keys', {
        params: { path: { workspaceId: workspace.id } },
        body: { name: body.name ?? '', allowedOrigins: body.allowedOrigins ?? [] },
      }),
    ),
  );
  return (
    <ContentKeyForm
      title="Create a content key"
      submitLabel="Create content key"
      pendingLabel="Creating…"
      initial={{ name: '', origins: '' }}
      pending={create.pending}
      error={create.error}
      sent={create.sent}
      onClose={onClose}
      onSubmit={async (name, allowedOrigins) => {
        // The key is no secret: the list shows it with its Copy button, so nothing more to say here.
        if (await create.execute({ name, allowedOrigins })) onClose();
      }}
    />
  );
}

export function EditContentKeyDialog({ workspace, contentKey, onClose }: Props & { contentKey: ContentKey }) {
  const save = useContentKeyWrite(workspace, (body) =>
    call(
      client.PATCH('/workspaces/{workspaceId}/content-keys/{id}', {
        params: { path: { workspaceId: workspace.id, id: contentKey.id } },
        body,
      }),
    ),
  );
  return (
    <ContentKeyForm
      title={`Edit content key “${contentKey.name}”`}
      submitLabel="Save changes"
      pendingLabel="Saving…"
      initial={{ name: contentKey.name, origins: contentKey.allowedOrigins.join('\n') }}
      pending={save.pending}
      error={save.error}
      sent={save.sent}
      onClose={onClose}
      onSubmit={async (name, allowedOrigins) => {
        const body: Body = {};
        if (name !== contentKey.name) body.name = name;
        if (allowedOrigins.join('\n') !== contentKey.allowedOrigins.join('\n')) body.allowedOrigins = allowedOrigins;
        if (Object.keys(body).length === 0) return onClose();
        if (await save.execute(body)) onClose();
      }}
    />
  );
}

export function RevokeContentKeyDialog({ workspace, contentKey, onClose }: Props & { contentKey: ContentKey }) {
  const revoke = useWrite(
    () =>
      call(
        client.POST('/workspaces/{workspaceId}/content-keys/{id}/revoke', {
          params: { path: { workspaceId: workspace.id, id: contentKey.id } },
        }),
      ),
    [keys.resource(workspace.id, 'content-keys')],
  );
  return (
    <ConfirmDialog
      title={`Revoke content key “${contentKey.name}”?`}
      confirmLabel="Revoke content key"
      danger
      pending={revoke.pending}
      error={revoke.error !== null && <ErrorMessage error={revoke.error} />}
      onCancel={onClose}
      onConfirm={async () => {
        if (await revoke.execute()) onClose();
      }}
    >
      <p>
        A site that reads with this key gets 401 Unauthorized from its next request. A revoked key cannot be restored;
        create a new one and put it in the site instead.
      </p>
    </ConfirmDialog>
  );
}
