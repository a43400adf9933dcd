import { useMemo, useState } from 'react';
import { api, describeError, ws } from '../api';
import { keys, useApi } from '../queries';
import { ConfirmDialog, Dialog } from '../components/Dialog';
import { ErrorMessage, Loading } from '../components/Status';
import { formatTime } from '../hooks';
import type { Paginated } from '../types';
import { Changes } from './Changes';
import { canonical } from './merge';
import { fieldsFor, fieldsOf, type EditableFields } from './post-fields';
import type { Resource } from './useStudio';

interface Summary {
  n: number;
  action: string;
  title: string;
  slug: string;
  createdAt: string;
}
interface Revision extends Summary {
  /** The writable fields as that write left them (no tags: they are not written by a PATCH). */
  fields: Record<string, unknown>;
}

type Kind = 'post' | 'page';

/** A revision's fields as the editor holds fields: what it lacks (tags) taken from `now`, null as empty. */
function revisionFields(kind: Kind, stored: Record<string, unknown>, now: EditableFields): EditableFields {
  const empty = fieldsOf(kind, null) as unknown as Record<string, unknown>;
  const fields = { ...now } as unknown as Record<string, unknown>;
  for (const field of fieldsFor(kind))
    if (field.name in stored) fields[field.name] = stored[field.name] ?? empty[field.name];
  return fields as unknown as EditableFields;
}

/**
 * The revisions of a post or page: a list, one compared word by word with the copy in the editor, and a restore
 * that writes it back after saying what that does.
 */
export function HistoryPanel({
  workspaceId,
  kind,
  resource,
  current,
  onRestored,
}: {
  workspaceId: string;
  kind: Kind;
  resource: Resource;
  /** The editor's fields, unsaved edits included; without them, the saved copy is compared. */
  current?: EditableFields;
  onRestored(resource: Resource): void;
}) {
  const base = ws(workspaceId, `/${kind}s/${resource.id}/revisions`);
  const list = useApi(keys.item(workspaceId, `${kind}s`, resource.id, 'revisions', resource.updatedAt), () =>
    api.get<Paginated<Summary>>(base, { orderBy: 'n', order: 'desc', pageSize: 20 }),
  );
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <section className="panel" aria-labelledby="panel-history">
      <h2 id="panel-history">History</h2>
      {list.state === 'error' && <ErrorMessage error={list.error} onRetry={list.reload} />}
      {!list.data && list.state === 'loading' && <Loading label="Loading revisions…" />}
      {list.data && (
        <ol className="revisions" aria-label="Revisions, newest first">
          {list.data.data.map((revision) => (
            <li key={revision.n}>
              <button type="button" className="button-quiet" onClick={() => setViewing(revision.n)}>
                #{revision.n} {revision.action}
                <span className="hint"> · {formatTime(revision.createdAt)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {viewing !== null && (
        <RevisionDialog
          kind={kind}
          path={`${base}/${viewing}`}
          saved={resource}
          current={current}
          newest={list.data?.data[0]?.n ?? null}
          onClose={() => setViewing(null)}
          onRestored={(restored) => {
            setViewing(null);
            onRestored(restored);
          }}
        />
      )}
    </section>
  );
}

function RevisionDialog({
  kind,
  path,
  saved,
  current,
  newest,
  onClose,
  onRestored,
}: {
  kind: Kind;
  path: string;
  saved: Resource;
  current: EditableFields | undefined;
  /** The newest revision's number: the copy saved now, which a restore keeps in the history. */
  newest: number | null;
  onClose(): void;
  onRestored(resource: Resource): void;
}) {
  const revision = useApi(['revision', path], () => api.get<Revision>(path));
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const savedFields = useMemo(() => fieldsOf(kind, saved), [kind, saved]);
  const now = current ?? savedFields;
  const r = revision.data;
  const then = useMemo(() => (r ? revisionFields(kind, r.fields, now) : null), [kind, r, now]);
  // Edits not saved yet are in no revision: a restore replaces them for good.
  const unsaved = current !== undefined && canonical({ ...current, slugEdited: true }) !== canonical(savedFields);
  // A live one's restore is a write of the live version: it goes out at once, and its pending changes go.
  const live = saved.status === 'published';
  const restore = async () => {
    setPending(true);
    setError(null);
    try {
      onRestored(await api.post<Resource>(`${path}/restore`));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Dialog
        title={r ? `Revision #${r.n}` : 'Revision'}
        onClose={onClose}
        description={
          r && (
            <p className="hint">
              {r.action.charAt(0).toUpperCase() + r.action.slice(1)}, {formatTime(r.createdAt)}, compared with the copy
              in the editor now: struck text is only in revision #{r.n}, underlined text only now.
            </p>
          )
        }
      >
        {!r && <Loading label="Loading the revision…" />}
        {r && then && (
          <>
            <Changes kind={kind} before={then} after={now} />
            <div className="actions">
              <button type="button" onClick={onClose}>
                Close
              </button>
              <button type="button" className="button-primary" onClick={() => setConfirming(true)}>
                Restore revision #{r.n}
              </button>
            </div>
          </>
        )}
      </Dialog>
      {r && confirming && (
        <ConfirmDialog
          title={`Restore revision #${r.n}?`}
          confirmLabel="Restore"
          pending={pending}
          error={
            error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )
          }
          onConfirm={() => void restore()}
          onCancel={() => {
            setConfirming(false);
            setError(null);
          }}
        >
          <p>
            Its title, body and other fields replace the current copy, saved as a new revision
            {live ? `: the live ${kind} shows it at once, without Update` : ''}. The copy saved now stays in the history
            {newest !== null ? ` as revision #${newest}` : ''}, so nothing saved is lost. Whether the {kind} is
            published does not change.
          </p>
          {unsaved && live && (
            <p>
              <strong>Your changes that are not live yet are in no revision</strong> and are dropped: Update first to
              keep them.
            </p>
          )}
          {unsaved && !live && (
            <p>
              <strong>Your edits since the last save are in no revision</strong> and are replaced too: save them first
              to keep them.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
