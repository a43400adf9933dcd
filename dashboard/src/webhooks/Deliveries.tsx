import { api, ws, call, client } from '../api';
import { keys, useApi, useWrite } from '../queries';
import { Badge, Empty, ErrorMessage, Loading } from '../components/Status';
import { Pagination } from '../components/Pagination';
import { formatTime } from '../hooks';
import type { Delivery, Webhook, WorkspaceSummary } from '../types';

const TONE = { pending: 'neutral', succeeded: 'good', failed: 'bad' } as const;

interface Props {
  workspace: WorkspaceSummary;
  webhook: Webhook;
  writable: boolean;
  page: number;
  onPage(page: number): void;
}

/** An endpoint's recent deliveries, newest first: what the receiver answered each attempt, and Redeliver. */
export function Deliveries({ workspace, webhook, writable, page, onPage }: Props) {
  const path = `/webhooks/${webhook.id}`;
  const deliveries = useApi(keys.item(workspace.id, 'webhooks', webhook.id, 'deliveries', page), () =>
    call(
      client.GET('/workspaces/{workspaceId}/webhooks/{id}/deliveries', {
        params: { path: { workspaceId: workspace.id, id: webhook.id }, query: { page, pageSize: 20 } },
      }),
    ),
  );
  const redeliver = useWrite(
    (id: string) => api.post<Delivery>(ws(workspace.id, `${path}/deliveries/${id}/redeliver`)),
    [keys.resource(workspace.id, 'webhooks')],
  );
  const test = useWrite(
    () => api.post<Delivery>(ws(workspace.id, `${path}/test`)),
    [keys.resource(workspace.id, 'webhooks')],
  );
  const after = async (done: Promise<unknown>) => {
    if (await done) deliveries.reload();
  };

  return (
    <section aria-labelledby="deliveries-heading" className="stack">
      <div className="page-header">
        <h2 id="deliveries-heading">
          Deliveries to <code>{webhook.url}</code>
        </h2>
        <div className="row-actions">
          <button type="button" onClick={deliveries.reload}>
            Refresh
          </button>
          {writable && webhook.enabled && (
            <button type="button" disabled={test.pending} onClick={() => void after(test.execute())}>
              Send test
            </button>
          )}
        </div>
      </div>
      {test.error !== null && <ErrorMessage error={test.error} />}
      {redeliver.error !== null && <ErrorMessage error={redeliver.error} />}
      {deliveries.state === 'error' && <ErrorMessage error={deliveries.error} onRetry={deliveries.reload} />}
      {deliveries.state === 'loading' && !deliveries.data && <Loading label="Loading deliveries…" />}
      {deliveries.data && deliveries.data.data.length === 0 && <Empty>No deliveries yet.</Empty>}
      {deliveries.data && deliveries.data.data.length > 0 && (
        <table className="table" aria-busy={deliveries.state === 'loading'}>
          <caption className="visually-hidden">Deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">Queued</th>
              {writable && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {deliveries.data.data.map((delivery) => {
              const last = delivery.attemptLog[delivery.attemptLog.length - 1];
              return (
                <tr key={delivery.id} data-delivery-id={delivery.id}>
                  <th scope="row" data-label="Event">
                    <code>{delivery.eventType}</code>
                  </th>
                  <td data-label="Status">
                    <Badge tone={TONE[delivery.status]}>{delivery.status}</Badge>
                  </td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td data-label="Last answer">
                    {last ? (
                      <details>
                        <summary>
                          {last.statusCode ?? 'no answer'} in {last.durationMs} ms (attempt {last.attempt})
                        </summary>
                        {last.error && <p>{last.error}</p>}
                        {last.responseExcerpt && <pre className="excerpt">{last.responseExcerpt}</pre>}
                      </details>
                    ) : delivery.skippedReason ? (
                      // The server's reason reads as a whole sentence ("not sent: the endpoint's user lacks …").
                      <span>{delivery.skippedReason.charAt(0).toUpperCase() + delivery.skippedReason.slice(1)}</span>
                    ) : (
                      'Not sent yet'
                    )}
                  </td>
                  <td data-label="Queued">
                    <time dateTime={delivery.createdAt}>{formatTime(delivery.createdAt)}</time>
                  </td>
                  {writable && (
                    <td className="actions-cell">
                      <button
                        type="button"
                        disabled={redeliver.pending || !webhook.enabled}
                        onClick={() => void after(redeliver.execute(delivery.id))}
                      >
                        Redeliver<span className="visually-hidden"> {delivery.eventType}</span>
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {deliveries.data && deliveries.data.totalPages > 1 && (
        <Pagination
          label="Deliveries"
          page={deliveries.data.page}
          totalPages={deliveries.data.totalPages}
          total={deliveries.data.total}
          onPage={onPage}
        />
      )}
    </section>
  );
}
