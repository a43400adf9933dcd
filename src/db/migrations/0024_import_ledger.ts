/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * What the importers (docs/imports.md) brought in from another system: each source item's Quire id and the hash
 * of what it was, so a second run updates what changed and never makes a duplicate. Media are keyed twice: by
 * their source URL or path, and by the sha256 of their bytes (two URLs of one file upload it once).
 */
export function importLedger({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('import_ledger')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // The source system and site: `wordpress https://example.com`, `ghost https://blog.example`.
        .addColumn('source', 'text', (c) => c.notNull())
        // author, category, tag, post, page, redirect, media, media-sha256.
        .addColumn('item_type', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('quire_id', t.uuid, (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('import_ledger_pk', ['workspace_id', 'source', 'item_type', 'source_id'])
        .execute();
    },
  };
}
