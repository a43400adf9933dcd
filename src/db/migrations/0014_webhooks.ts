/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Webhooks (src/modules/webhooks, src/writes/webhook-outbox.ts): each workspace's endpoints, the outbox of
 * deliveries written by contentWrite in the transaction of the events they announce, and every attempt made.
 *
 * A delivery is due when it is `pending` and its `next_attempt_at` has passed. A dispatcher claims it by moving
 * `next_attempt_at` a lease ahead, so the claim and the lease are one column: a process that dies holding a
 * delivery lets it fall due again when the lease runs out (at least once). The partial index holds only the
 * pending rows, so the claim's scan stays as small as the backlog, whatever the history kept.
 *
 * The payload is text, not JSON: the signature covers its exact bytes, which jsonb would reorder.
 */
export function webhooks({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        // A JSON array of event types; null subscribes to every type, those added later included.
        .addColumn('event_types', t.json)
        .addColumn('enabled', t.bool, (c) => c.notNull())
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('master_key_id', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_at', t.timestamp)
        // When the run of failed attempts that has not been broken by a success began.
        .addColumn('failing_since', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_workspace_idx')
        .on('webhook_endpoints')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // Deleting an endpoint deletes its deliveries: the pending ones stop, and none is sent anywhere else.
        .addColumn('endpoint_id', t.uuid, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .column('next_attempt_at')
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint_idx')
        .on('webhook_deliveries')
        .columns(['workspace_id', 'endpoint_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('delivery_id', t.uuid, (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('response_excerpt', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
        .execute();
    },
  };
}
