/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * The revisions of posts and pages (src/writes/revisions.ts): one row per write of one of them, numbered
 * 1, 2, 3 … per post or page, recorded by contentWrite in the write's transaction. The two tables have the
 * same columns, so one repository serves both; each references its own table, so an archive's import can
 * check a revision's post like any other reference.
 *
 * The primary key (workspace, resource, n) is the list's index: a post's revisions newest first are a
 * backward walk of it on both databases, and the next number is its last entry.
 */
export function revisions({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const [table, resource] of [
        ['post_revisions', 'posts'],
        ['page_revisions', 'pages'],
      ] as const) {
        await db.schema
          .createTable(table)
          .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
          .addColumn('resource_id', t.uuid, (c) => c.notNull().references(`${resource}.id`).onDelete('cascade'))
          .addColumn('n', 'integer', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('slug', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('fields', t.json, (c) => c.notNull())
          // No foreign keys: a revision outlives the key or the membership that wrote it, as an event does.
          .addColumn('actor_user_id', t.uuid)
          .addColumn('actor_api_key_id', t.uuid)
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['workspace_id', 'resource_id', 'n'])
          .execute();
      }
    },
  };
}
