import { useState } from 'react';
import { call, client } from '../../api';
import { keys as queryKeys, useApi } from '../../queries';
import { Badge, Empty, ErrorMessage, Loading } from '../../components/Status';
import { Email } from '../../components/Email';
import { Pagination } from '../../components/Pagination';
import { formatTime } from '../../hooks';
import { useSearchState } from '../../router';
import { can, useSession } from '../../session';
import type { ApiKey, ApiKeyStatus, WorkspaceSummary } from '../../types';
import { ContentKeys } from './ContentKeys';
import { CreateKeyDialog, EditKeyDialog, RevealKeyDialog, RevokeKeyDialog } from './KeyDialogs';

type Filter = 'all' | 'active' | 'inactive';
type Action = { kind: 'create' } | { kind: 'reveal' | 'edit' | 'revoke'; key: ApiKey };

const FILTERS: Array<{ value: Filter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

const TONE: Record<ApiKeyStatus, 'good' | 'warn' | 'bad'> = { Active: 'good', Expired: 'warn', Revoked: 'bad' };

export function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  return <Badge tone={TONE[status]}>{status}</Badge>;
}

export function KeysScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { session } = useSession();
  const [search, updateSearch] = useSearchState(['filter', 'page'] as const);
  const filter: Filter = search.filter === 'active' || search.filter === 'inactive' ? search.filter : 'all';
  const page = Math.max(1, Number(search.page) || 1);
  const [action, setAction] = useState<Action | null>(null);
  const keys = useApi(queryKeys.list(workspace.id, 'api-keys', { filter, page }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/api-keys', {
        params: {
          path: { workspaceId: workspace.id },
          query: { page, pageSize: 20, isActive: filter === 'all' ? undefined : filter === 'active' },
        },
      }),
    ),
  );

  const writable = can(workspace, 'api-keys:write');
  // A member may reveal or edit only what they created; revealing someone else's key would let them act as that person.
  const ownsOrOwner = (key: ApiKey) => workspace.isOwner || key.createdBy.userId === session.user.id;
  const done = () => {
    setAction(null);
    keys.reload();
  };

  return (
    <>
      <div className="page-header">
        <h1>API keys</h1>
        {writable && (
          <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
            Create key
          </button>
        )}
      </div>
      <p className="lead">
        A key lets a server read and write this workspace through the external API. It acts with the permissions of the
        member who created it.
      </p>

      <fieldset className="segmented">
        <legend>Show</legend>
        {FILTERS.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name="key-filter"
              value={option.value}
              checked={filter === option.value}
              onChange={() => updateSearch({ filter: option.value === 'all' ? '' : option.value, page: '' })}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>

      {keys.state === 'error' && <ErrorMessage error={keys.error} onRetry={keys.reload} />}
      {keys.state === 'loading' && !keys.data && <Loading label="Loading keys…" />}
      {keys.data && keys.data.data.length === 0 && (
        <Empty>
          {filter === 'all' ? 'No keys yet.' : filter === 'active' ? 'No active keys.' : 'No expired or revoked keys.'}
        </Empty>
      )}
      {keys.data && keys.data.data.length > 0 && (
        <table className="table" aria-busy={keys.state === 'loading'}>
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">Created</th>
              {writable && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {keys.data.data.map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <th scope="row" data-label="Name">
                  {key.name}
                </th>
                <td data-label="Prefix">
                  <code className="nowrap">{key.keyPrefix}…</code>
                </td>
                <td data-label="Status">
                  <KeyStatusBadge status={key.status} />
                </td>
                <td data-label="Expires">
                  {key.expiresAt ? <time dateTime={key.expiresAt}>{formatTime(key.expiresAt)}</time> : 'Never'}
                </td>
                {/* Who and when in one column: the names need the width more than a column of emails. */}
                <td data-label="Created">
                  <div>
                    <time dateTime={key.createdAt}>{formatTime(key.createdAt)}</time>
                    <span className="by">
                      by <Email address={key.createdBy.email} />
                    </span>
                  </div>
                </td>
                {writable && (
                  <td className="actions-cell">
                    <div className="row-actions">
                      {key.status === 'Active' && ownsOrOwner(key) && (
                        <button type="button" onClick={() => setAction({ kind: 'reveal', key })}>
                          Reveal<span className="visually-hidden"> {key.name}</span>
                        </button>
                      )}
                      {ownsOrOwner(key) && (
                        <button type="button" onClick={() => setAction({ kind: 'edit', key })}>
                          Edit<span className="visually-hidden"> {key.name}</span>
                        </button>
                      )}
                      {key.status !== 'Revoked' && (
                        <button
                          type="button"
                          className="button-danger-quiet"
                          onClick={() => setAction({ kind: 'revoke', key })}
                        >
                          Revoke<span className="visually-hidden"> {key.name}</span>
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
      {keys.data && keys.data.totalPages > 1 && (
        <Pagination
          label="API keys"
          page={keys.data.page}
          totalPages={keys.data.totalPages}
          total={keys.data.total}
          onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        />
      )}

      {action?.kind === 'create' && <CreateKeyDialog workspace={workspace} onClose={done} />}
      {action?.kind === 'reveal' && (
        <RevealKeyDialog workspace={workspace} apiKey={action.key} onClose={() => setAction(null)} />
      )}
      {action?.kind === 'edit' && (
        <EditKeyDialog workspace={workspace} apiKey={action.key} onClose={() => setAction(null)} onSaved={done} />
      )}
      {action?.kind === 'revoke' && (
        <RevokeKeyDialog workspace={workspace} apiKey={action.key} onClose={() => setAction(null)} onRevoked={done} />
      )}

      <ContentKeys workspace={workspace} />
    </>
  );
}
