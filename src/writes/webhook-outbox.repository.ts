import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Executor = Kysely<Database>;

/** An event's body as sent and signed: written once, whatever the number of endpoints it goes to. */
export interface OutboxEvent {
  event_id: string;
  workspace_id: string;
  event_type: string;
  payload: string;
}

/** One delivery the outbox owes an endpoint, as written: its body is its event's. */
export interface OutboxDelivery {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
}

/** Rows per insert: at most eleven parameters each, well under either driver's limit on one statement's. */
const ROWS_PER_STATEMENT = 1000;

/**
 * All SQL that writes webhook deliveries: rows enter the outbox here alone (an eslint rule keeps it so), from
 * contentWrite for content events and from the webhooks module for redeliveries and test events.
 */
export const webhookOutboxRepository = {
  /** The workspace's enabled endpoints and what each subscribes to (a JSON array, or null for every type). */
  enabledEndpoints(db: Executor, workspaceId: string) {
    return db
      .selectFrom('webhook_endpoints')
      .select(['id', 'event_types'])
      .where('workspace_id', '=', workspaceId)
      .where('enabled', '=', true)
      .execute();
  },

  /**
   * Queues deliveries, due at once, with the bodies of the events among them that are new (a redelivery's
   * event is already kept).
   */
  async enqueue(
    db: Executor,
    events: readonly OutboxEvent[],
    deliveries: readonly OutboxDelivery[],
    now: string,
  ): Promise<void> {
    for (let start = 0; start < events.length; start += ROWS_PER_STATEMENT) {
      await db
        .insertInto('webhook_events')
        .values(events.slice(start, start + ROWS_PER_STATEMENT).map((event) => ({ ...event, created_at: now })))
        .execute();
    }
    for (let start = 0; start < deliveries.length; start += ROWS_PER_STATEMENT) {
      await db
        .insertInto('webhook_deliveries')
        .values(
          deliveries.slice(start, start + ROWS_PER_STATEMENT).map((delivery) => ({
            ...delivery,
            status: 'pending' as const,
            attempts: 0,
            next_attempt_at: now,
            last_status_code: null,
            last_error: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  },

  /**
   * Deletes up to `limit` deliveries that ended (succeeded or failed) before `before`, their attempts with
   * them; answers how many went. Pending ones stay whatever their age: they are still owed.
   */
  async pruneFinished(db: Executor, before: string, limit: number): Promise<number> {
    const deleted = await db
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '<>', sql.lit('pending'))
          .where('updated_at', '<', before)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  },

  /** Deletes up to `limit` bodies made before `before` that no delivery refers to; answers how many went. */
  async pruneBodies(db: Executor, before: string, limit: number): Promise<number> {
    const deleted = await db
      .deleteFrom('webhook_events')
      .where('event_id', 'in', (eb) =>
        eb
          .selectFrom('webhook_events as body')
          .select('body.event_id')
          .where('body.created_at', '<', before)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_deliveries as delivery')
                  .select('delivery.id')
                  .whereRef('delivery.event_id', '=', 'body.event_id'),
              ),
            ),
          )
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  },
};
