import { Fragment, useId, useState } from 'react';
import { call, client } from '../../api';
import { useCopy } from '../../components/copy';
import { Pagination } from '../../components/Pagination';
import { Badge, Empty, ErrorMessage, Loading } from '../../components/Status';
import { formatTime } from '../../hooks';
import { keys as queryKeys, useApi } from '../../queries';
import { can } from '../../session';
import type { ContentKey, WorkspaceSummary } from '../../types';
import { CreateContentKeyDialog, EditContentKeyDialog, RevokeContentKeyDialog } from './ContentKeyDialogs';
import './content-keys.css';

type Action = { kind: 'create' } | { kind: 'edit' | 'revoke'; key: ContentKey };

/** The key in a read-only box with its Copy button: a site's developer pastes it into the site's code. */
function KeyCopy({ contentKey }: { contentKey: ContentKey }) {
  const id = useId();
  const { copy, status } = useCopy(contentKey.key, id);
  return (
    <div className="key-copy">
      <div className="key-copy-row">
        <input
          id={id}
          className="mono"
          readOnly
          value={contentKey.key}
          aria-label={`Content key ${contentKey.name}`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          Copy<span className="visually-hidden"> content key {contentKey.name}</span>
        </button>
      </div>
      {status && (
        <p className="hint" role="status">
          {status}
        </p>
      )}
    </div>
  );
}

/** The text with a line-break opportunity before each dot and colon past the scheme: "www.example|.com|:8443". */
function BreakablePlaces({ text }: { text: string }) {
  const [scheme, rest = ''] = text.split('://');
  const parts = rest.split(/(?=[.:])/);
  return (
    <>
      {scheme}://
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** The API keys screen's second section: read-only keys for the content API, which a site's pages may carry. */
export function ContentKeys({ workspace }: { workspace: WorkspaceSummary }) {
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<Action | null>(null);
  const list = useApi(queryKeys.list(workspace.id, 'content-keys', { page }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/content-keys', {
        params: { path: { workspaceId: workspace.id }, query: { page, pageSize: 20 } },
      }),
    ),
  );
  const writable = can(workspace, 'api-keys:write');

  return (
    <section className="content-keys" aria-labelledby="content-keys-title">
      <div className="page-header">
        <h2 id="content-keys-title">Content keys</h2>
        {writable && (
          <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
            Create content key
          </button>
        )}
      </div>
      <p className="lead">
        A content key reads published posts, pages and their parts through the content API, and nothing else: it is safe
        to ship in a site’s pages.
      </p>

      {list.state === 'error' && <ErrorMessage error={list.error} onRetry={list.reload} />}
      {list.state === 'loading' && !list.data && <Loading label="Loading content keys…" />}
      {list.data && list.data.data.length === 0 && <Empty>No content keys yet.</Empty>}
      {list.data && list.data.data.length > 0 && (
        <table className="table" aria-busy={list.state === 'loading'}>
          <caption className="visually-hidden">Content keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Allowed origins</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              {writable && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((key) => (
              <tr key={key.id} data-content-key-id={key.id}>
                <th scope="row" data-label="Name">
                  {key.name}
                </th>
                <td data-label="Key" className="key-cell">
                  <KeyCopy contentKey={key} />
                </td>
                <td data-label="Allowed origins">
                  {key.allowedOrigins.length === 0 ? (
                    'Any origin'
                  ) : (
                    <ul className="origins">
                      {key.allowedOrigins.map((origin) => (
                        <li key={origin}>
                          <code>
                            <BreakablePlaces text={origin} />
                          </code>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td data-label="Status">
                  <Badge tone={key.status === 'Active' ? 'good' : 'bad'}>{key.status}</Badge>
                </td>
                <td data-label="Created">
                  <time dateTime={key.createdAt}>{formatTime(key.createdAt)}</time>
                </td>
                {writable && (
                  <td className="actions-cell">
                    <div className="row-actions">
                      <button type="button" onClick={() => setAction({ kind: 'edit', key })}>
                        Edit<span className="visually-hidden"> content key {key.name}</span>
                      </button>
                      {key.status === 'Active' && (
                        <button
                          type="button"
                          className="button-danger-quiet"
                          onClick={() => setAction({ kind: 'revoke', key })}
                        >
                          Revoke<span className="visually-hidden"> content key {key.name}</span>
                        </button>
                      )}
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && list.data.totalPages > 1 && (
        <Pagination
          label="Content keys"
          page={list.data.page}
          totalPages={list.data.totalPages}
          total={list.data.total}
          onPage={setPage}
        />
      )}

      {action?.kind === 'create' && <CreateContentKeyDialog workspace={workspace} onClose={() => setAction(null)} />}
      {action?.kind === 'edit' && (
        <EditContentKeyDialog workspace={workspace} contentKey={action.key} onClose={() => setAction(null)} />
      )}
      {action?.kind === 'revoke' && (
        <RevokeContentKeyDialog workspace={workspace} contentKey={action.key} onClose={() => setAction(null)} />
      )}
    </section>
  );
}
