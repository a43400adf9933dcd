import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Executor = Kysely<Database>;

/** One delivery the outbox owes an endpoint, as written. */
export interface OutboxDelivery {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
}

/** Rows per insert: nine parameters each, well under either driver's limit on one statement's parameters. */
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

  /** Queues deliveries, due at once. */
  async enqueue(db: Executor, deliveries: readonly OutboxDelivery[], now: string): Promise<void> {
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
};
