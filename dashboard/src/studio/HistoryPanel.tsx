import { useState } from 'react';
import { api, describeError, ws } from '../api';
import { keys, useApi } from '../queries';
import { Dialog } from '../components/Dialog';
import { ErrorMessage, Loading } from '../components/Status';
import { BlockList } from '../content/Blocks';
import { formatTime } from '../hooks';
import type { Block, Paginated } from '../types';
import type { Resource } from './useStudio';

interface Summary {
  n: number;
  action: string;
  title: string;
  slug: string;
  createdAt: string;
}
interface Revision extends Summary {
  fields: { title?: string; bodyJson?: Block[]; excerpt?: string };
}

/** The revisions of a post or page: a list, one beside the current copy, and a restore that writes it back. */
export function HistoryPanel({
  workspaceId,
  kind,
  resource,
  onRestored,
}: {
  workspaceId: string;
  kind: 'post' | 'page';
  resource: Resource;
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
          path={`${base}/${viewing}`}
          current={resource}
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
  path,
  current,
  onClose,
  onRestored,
}: {
  path: string;
  current: Resource;
  onClose(): void;
  onRestored(resource: Resource): void;
}) {
  const revision = useApi(['revision', path], () => api.get<Revision>(path));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
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
  const r = revision.data;
  return (
    <Dialog title={r ? `Revision #${r.n}` : 'Revision'} onClose={onClose}>
      {!r && <Loading label="Loading the revision…" />}
      {r && (
        <>
          <div className="side-by-side">
            <article aria-label={`Revision #${r.n}`}>
              <h3>Revision #{r.n}</h3>
              <p className="hint">
                {r.action}, {formatTime(r.createdAt)}
              </p>
              <p className="preview-title">{r.fields.title ?? r.title}</p>
              <BlockList blocks={r.fields.bodyJson ?? []} />
            </article>
            <article aria-label="Current version">
              <h3>Now</h3>
              <p className="hint">Saved {formatTime(current.updatedAt)}</p>
              <p className="preview-title">{current.title}</p>
              <BlockList blocks={current.bodyJson} />
            </article>
          </div>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="button" onClick={onClose}>
              Close
            </button>
            <button type="button" className="button-primary" disabled={pending} onClick={() => void restore()}>
              Restore revision #{r.n}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
