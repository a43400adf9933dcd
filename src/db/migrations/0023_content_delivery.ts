/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Content delivery (docs/content-api.md): read-only content keys a site or a browser holds, each workspace's
 * place in its content events as far as the CDN has been told (purges run from the event log, so a crash
 * between a write and its purge only delays the purge), and where the site previews drafts.
 */
export function contentDelivery({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('content_keys')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_encrypted', 'text', (c) => c.notNull())
        .addColumn('master_key_id', 'text', (c) => c.notNull())
        // A JSON array of origins (scheme://host[:port]); empty: any origin.
        .addColumn('allowed_origins', 'text', (c) => c.notNull())
        // No foreign key: the key belongs to the workspace and outlives its creator's membership.
        .addColumn('created_by_user_id', t.uuid)
        .addColumn('revoked_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('content_keys_workspace_idx')
        .on('content_keys')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('cdn_purge_cursors')
        .addColumn('workspace_id', t.uuid, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        // The seq of the newest content event whose purge the CDN acknowledged.
        .addColumn('seq', 'bigint', (c) => c.notNull())
        // The workspace's content_version when that seq was read: a newer one means events to purge.
        .addColumn('content_version', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema.alterTable('workspaces').addColumn('preview_url_pattern', 'text').execute();
      // A post's body as HTML, kept with its stored render (same labels), so a warm read renders nothing.
      await db.schema.alterTable('post_renders').addColumn('html', 'text').execute();
    },
  };
}
