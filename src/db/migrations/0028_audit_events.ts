/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * The audit log (docs/team.md, "Audit log"): who did what to a workspace's team, keys, webhooks and settings, when
 * and from where. Rows are never updated; retention deletes the old ones. Each list the screen offers walks one
 * index in time order: all of a workspace's, one category's, one person's.
 */
export function auditEvents({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_events')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('at', t.timestamp, (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        // The action's first part (`api_key` of `api_key.revealed`), kept so a category lists in time order.
        .addColumn('category', 'text', (c) => c.notNull())
        // Null for the command line. Not a foreign key: the record outlives the user and the key.
        .addColumn('actor_user_id', t.uuid)
        .addColumn('actor_key_id', t.uuid)
        // Snapshotted, so the log still says who when the account is gone.
        .addColumn('actor_email', 'text')
        .addColumn('address', 'text')
        .addColumn('target_type', 'text')
        .addColumn('target_id', 'text')
        .addColumn('target_label', 'text')
        // A JSON object of what changed; never a secret (tested).
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      for (const [name, columns] of [
        ['audit_events_workspace_at_idx', ['workspace_id', 'at', 'id']],
        ['audit_events_workspace_category_idx', ['workspace_id', 'category', 'at', 'id']],
        ['audit_events_workspace_actor_idx', ['workspace_id', 'actor_user_id', 'at', 'id']],
        ['audit_events_at_idx', ['at']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('audit_events')
          .columns([...columns])
          .execute();
      }
    },
  };
}
