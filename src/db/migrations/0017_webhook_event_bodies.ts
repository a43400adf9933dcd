/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * An event's body is kept once, whatever the number of endpoints it goes to: until now each delivery carried its
 * own copy, so a post written in a workspace with three endpoints wrote the serialized post three times in its
 * transaction. Deliveries refer to their event's body by event id (a redelivery shares its original's).
 * Bodies already queued move over, one per event; their deliveries keep their ids, status and attempts.
 *
 * The payload is text, not JSON: the signature covers its exact bytes, which jsonb would reorder.
 */
export function webhookEventBodies({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhook_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      // Deliveries of one event carry the same body: grouping by all of it keeps one row an event on both dialects.
      await sql`
        insert into webhook_events (event_id, workspace_id, event_type, payload, created_at)
        select event_id, workspace_id, event_type, payload, min(created_at)
        from webhook_deliveries
        group by event_id, workspace_id, event_type, payload
      `.execute(db);
      await db.schema.alterTable('webhook_deliveries').dropColumn('payload').execute();
      // Retention finds the finished deliveries by when they ended, and the bodies no delivery refers to.
      await db.schema
        .createIndex('webhook_deliveries_finished_idx')
        .on('webhook_deliveries')
        .column('updated_at')
        .where(sql.ref('status'), '<>', 'pending')
        .execute();
      await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').column('event_id').execute();
      await db.schema.createIndex('webhook_events_created_idx').on('webhook_events').column('created_at').execute();
    },
  };
}
