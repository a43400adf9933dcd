/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Publishing as a decision (docs/publishing.md). `pending_changes`: the edits of a live post or page that are not
 * live yet, one set per resource (every writer shares it), with the version of the resource they were made on.
 * `review_links`: links that let someone without an account read a draft or its pending changes until they expire
 * or are withdrawn. Neither table references its post or page, since one table serves both kinds; a deleted
 * resource's rows are refused by every read (its row is gone or soft-deleted) and go with the workspace.
 */
export function pendingChanges({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('pending_changes')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // post or page.
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', t.uuid, (c) => c.notNull())
        // The resource's updated_at when these changes were made on it: Update refuses once it moved.
        .addColumn('base_version', t.timestamp, (c) => c.notNull())
        // That version's writable fields, as a revision keeps them: what a writer merges from once it moved on.
        .addColumn('base_fields', 'text', (c) => c.notNull())
        // The fields that differ from the live version, as a PATCH body (JSON text).
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('updated_by_user_id', t.uuid)
        .addColumn('updated_by_api_key_id', t.uuid)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        // The set's own version, moved strictly forward by every save (If-Match on its writes).
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('pending_changes_pk', ['workspace_id', 'resource_type', 'resource_id'])
        .execute();

      await db.schema
        .createTable('review_links')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', t.uuid, (c) => c.notNull())
        // Who the link is for or why, as the sharer wrote it.
        .addColumn('note', 'text')
        .addColumn('created_by_user_id', t.uuid)
        .addColumn('created_by_api_key_id', t.uuid)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('opened_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_opened_at', t.timestamp)
        .execute();
      await db.schema
        .createIndex('review_links_resource_idx')
        .on('review_links')
        .columns(['workspace_id', 'resource_type', 'resource_id', 'created_at'])
        .execute();
    },
  };
}
