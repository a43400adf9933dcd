import { useEffect, useState, type FormEvent } from 'react';
import type { ApiError } from '../api';
import { keys, useWrite } from '../queries';
import { api, ws } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { DescribedFields } from '../forms/DescribedFields';
import { labelsOf } from '../forms/describe';
import { FormAlert } from '../components/Status';
import type { Redirect, WorkspaceSummary } from '../types';
import { changedFields, libraryFeedback, type Explained } from './feedback';
import { REDIRECT_FIELDS } from '../forms/descriptions';

const LABELS = labelsOf(REDIRECT_FIELDS);

/** The server's refusals of a redirect, in words a writer understands. */
function explain(error: ApiError): Explained | null {
  if (error.status === 409 && error.details?.field === 'fromPath') {
    const from = typeof error.details.fromPath === 'string' ? error.details.fromPath : 'this path';
    return {
      field: 'fromPath',
      message: `Another redirect already starts from ${from}. Edit that one instead, or choose another path.`,
    };
  }
  const issues = Array.isArray(error.details?.issues)
    ? (error.details.issues as Array<{ path?: string; message?: string }>)
    : [];
  const field = issues[0]?.path === '/fromPath' ? 'fromPath' : 'toPath';
  if (Array.isArray(error.details?.chain)) {
    const chain = (error.details.chain as string[]).join(' → ');
    return {
      field,
      message: `Visitors would go round in a circle and never arrive: ${chain}. Send this redirect somewhere outside that circle.`,
    };
  }
  if (issues[0]?.message === 'toPath must lead somewhere other than fromPath')
    return { field, message: 'A redirect must lead somewhere other than the path it starts from.' };
  return null;
}

interface Props {
  workspace: WorkspaceSummary;
  /** Null to create one; `fromPath` fills the new one's From (a broken link being fixed). */
  redirect: Redirect | null;
  fromPath?: string;
  onClose(): void;
  onSaved(redirect: Redirect): void;
}

export function RedirectForm({ workspace, redirect, fromPath = '', onClose, onSaved }: Props) {
  const [values, setValues] = useState({
    fromPath: redirect?.fromPath ?? fromPath,
    toPath: redirect?.toPath ?? '',
    statusCode: String(redirect?.statusCode ?? 301),
  });
  const chain = useOnwardChain(workspace, values.toPath, redirect?.id ?? null);
  const save = useWrite(
    (body: Record<string, unknown>) =>
      redirect
        ? api.patch<Redirect>(ws(workspace.id, `/redirects/${redirect.id}`), body)
        : api.post<Redirect>(ws(workspace.id, '/redirects'), body),
    [keys.resource(workspace.id, 'redirects')],
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields = {
      fromPath: values.fromPath.trim(),
      toPath: values.toPath.trim(),
      statusCode: Number(values.statusCode),
    };
    const body = redirect ? changedFields(fields, redirect) : fields;
    if (Object.keys(body).length === 0) return onClose();
    const saved = await save.execute(body);
    if (saved) onSaved(saved);
  };
  const feedback = libraryFeedback(save.error, LABELS, explain);

  return (
    <Dialog title={redirect ? `Edit redirect from ${redirect.fromPath}` : 'Create a redirect'} onClose={onClose}>
      <form onSubmit={submit} className="stack" noValidate>
        <DescribedFields
          fields={REDIRECT_FIELDS}
          values={values}
          errors={feedback.fields}
          onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
          hints={
            chain
              ? {
                  toPath: `${chain.next} is itself redirected, so visitors would follow ${chain.hops + 1} redirects in a row to reach ${chain.finalPath}. Send this one straight to ${chain.finalPath} to save them the extra steps.`,
                }
              : {}
          }
          autofocus={fromPath ? 'toPath' : 'fromPath'}
        />
        <FormAlert summary={feedback.summary} />
        <DialogActions
          onCancel={onClose}
          pending={save.pending}
          label={redirect ? 'Save redirect' : 'Create redirect'}
          pendingLabel="Saving…"
        />
      </form>
    </Dialog>
  );
}

interface Onward {
  next: string;
  finalPath: string;
  hops: number;
}

/**
 * Whether the target is itself redirected (a chain: allowed, but every hop costs the visitor a round trip), asked
 * of the server's resolver a moment after the typing stops. The redirect being edited does not count.
 */
function useOnwardChain(workspace: WorkspaceSummary, target: string, editing: string | null): Onward | null {
  const [onward, setOnward] = useState<Onward | null>(null);
  useEffect(() => {
    const path = target.trim();
    setOnward(null);
    if (!path.startsWith('/')) return;
    let live = true;
    const timer = window.setTimeout(() => {
      api.get<Redirect & { finalPath: string; hops: number }>(ws(workspace.id, '/redirects/resolve'), { path }).then(
        (found) =>
          live && found.id !== editing && setOnward({ next: path, finalPath: found.finalPath, hops: found.hops }),
        () => undefined,
      );
    }, 300);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [workspace.id, target, editing]);
  return onward;
}
