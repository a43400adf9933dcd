import { useState } from 'react';
import { api, ws, call, client } from '../api';
import { keys, useApi, useWrite } from '../queries';
import { Badge, Empty, ErrorMessage, Loading } from '../components/Status';
import { formatTime } from '../hooks';
import { useSearchState } from '../router';
import { can } from '../session';
import type { Webhook, WorkspaceSummary } from '../types';
import { Deliveries } from './Deliveries';
import { CreateWebhookDialog, DeleteWebhookDialog, EditWebhookDialog, SecretDialog } from './WebhookDialogs';

type Action = { kind: 'create' } | { kind: 'edit' | 'reveal' | 'rotate' | 'delete'; webhook: Webhook };

/** The workspace's webhook endpoints; the one chosen shows its deliveries below. */
export function WebhooksScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const [search, updateSearch] = useSearchState(['endpoint', 'page'] as const);
  const [action, setAction] = useState<Action | null>(null);
  const webhooks = useApi(keys.list(workspace.id, 'webhooks', { pageSize: 100 }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/webhooks', {
        params: { path: { workspaceId: workspace.id }, query: { pageSize: 100 } },
      }),
    ),
  );
  const toggle = useWrite(
    (webhook: Webhook) =>
      api.patch<Webhook>(ws(workspace.id, `/webhooks/${webhook.id}`), { enabled: !webhook.enabled }),
    [keys.resource(workspace.id, 'webhooks')],
  );
  const writable = can(workspace, 'webhooks:write');
  const done = () => {
    setAction(null);
    webhooks.reload();
  };
  const chosen = webhooks.data?.data.find((webhook) => webhook.id === search.endpoint);

  return (
    <>
      <div className="page-header">
        <h1>Webhooks</h1>
        {writable && (
          <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
            Add endpoint
          </button>
        )}
      </div>
      <p className="lead">
        Each change to this workspace’s content is sent, signed, to the endpoints that want it. A receiver verifies each
        delivery with the endpoint’s signing secret (Standard Webhooks).
      </p>
      {toggle.error !== null && <ErrorMessage error={toggle.error} />}
      {webhooks.state === 'error' && <ErrorMessage error={webhooks.error} onRetry={webhooks.reload} />}
      {webhooks.state === 'loading' && !webhooks.data && <Loading label="Loading endpoints…" />}
      {webhooks.data && webhooks.data.data.length === 0 && <Empty>No endpoints yet.</Empty>}
      {webhooks.data && webhooks.data.data.length > 0 && (
        <table className="table" aria-busy={webhooks.state === 'loading'}>
          <caption className="visually-hidden">Webhook endpoints</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {webhooks.data.data.map((webhook) => (
              <tr key={webhook.id} data-webhook-id={webhook.id}>
                <th scope="row" data-label="URL">
                  <code>{webhook.url}</code>
                  {webhook.description && <span className="by">{webhook.description}</span>}
                </th>
                <td data-label="Events">{webhook.eventTypes ? webhook.eventTypes.join(', ') : 'All events'}</td>
                <td data-label="Status">
                  {webhook.enabled ? (
                    <Badge tone={webhook.failingSince ? 'warn' : 'good'}>
                      {webhook.failingSince ? 'Failing' : 'Enabled'}
                    </Badge>
                  ) : (
                    <Badge tone="bad">Disabled</Badge>
                  )}
                  {!webhook.enabled && webhook.disabledReason && (
                    <span className="by">
                      {webhook.disabledReason}
                      {webhook.disabledAt && ` (${formatTime(webhook.disabledAt)})`}
                    </span>
                  )}
                  {webhook.enabled && webhook.failingSince && (
                    <span className="by">Failing since {formatTime(webhook.failingSince)}</span>
                  )}
                </td>
                <td data-label="Created">
                  <time dateTime={webhook.createdAt}>{formatTime(webhook.createdAt)}</time>
                </td>
                <td className="actions-cell">
                  <div className="row-actions">
                    <button
                      type="button"
                      aria-pressed={chosen?.id === webhook.id}
                      onClick={() => updateSearch({ endpoint: webhook.id, page: '' })}
                    >
                      Deliveries<span className="visually-hidden"> to {webhook.url}</span>
                    </button>
                    {writable && (
                      <>
                        <button type="button" onClick={() => setAction({ kind: 'edit', webhook })}>
                          Edit<span className="visually-hidden"> {webhook.url}</span>
                        </button>
                        <button
                          type="button"
                          disabled={toggle.pending}
                          onClick={async () => {
                            if (await toggle.execute(webhook)) webhooks.reload();
                          }}
                        >
                          {webhook.enabled ? 'Disable' : 'Enable'}
                          <span className="visually-hidden"> {webhook.url}</span>
                        </button>
                        <button type="button" onClick={() => setAction({ kind: 'reveal', webhook })}>
                          Reveal secret<span className="visually-hidden"> of {webhook.url}</span>
                        </button>
                        <button type="button" onClick={() => setAction({ kind: 'rotate', webhook })}>
                          Rotate secret<span className="visually-hidden"> of {webhook.url}</span>
                        </button>
                        <button
                          type="button"
                          className="button-danger-quiet"
                          onClick={() => setAction({ kind: 'delete', webhook })}
                        >
                          Delete<span className="visually-hidden"> {webhook.url}</span>
                        </button>
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {chosen && (
        <Deliveries
          key={chosen.id}
          workspace={workspace}
          webhook={chosen}
          writable={writable}
          page={Math.max(1, Number(search.page) || 1)}
          onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        />
      )}

      {action?.kind === 'create' && <CreateWebhookDialog workspace={workspace} onClose={done} />}
      {action?.kind === 'edit' && (
        <EditWebhookDialog
          workspace={workspace}
          webhook={action.webhook}
          onClose={() => setAction(null)}
          onSaved={done}
        />
      )}
      {(action?.kind === 'reveal' || action?.kind === 'rotate') && (
        <SecretDialog
          workspace={workspace}
          webhook={action.webhook}
          rotate={action.kind === 'rotate'}
          onClose={() => setAction(null)}
        />
      )}
      {action?.kind === 'delete' && (
        <DeleteWebhookDialog
          workspace={workspace}
          webhook={action.webhook}
          onClose={() => setAction(null)}
          onDeleted={() => {
            if (chosen?.id === action.webhook.id) updateSearch({ endpoint: '', page: '' });
            done();
          }}
        />
      )}
    </>
  );
}
