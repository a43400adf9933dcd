/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';

/**
 * The embeds of posts are loaded as `workspace_id = ? and id in (…)`. Without statistics SQLite guesses that
 * an index on workspace_id finds about ten rows, and from four ids on it preferred walking the workspace's
 * whole media (or tags, authors, categories) by one of those indexes to looking the ids up: 68 µs for a
 * post's four images among 500 media, growing with the library. An index on both columns matches both
 * conditions, so every list of ids is looked up one by one, in any workspace size. PostgreSQL plans from
 * statistics and uses the primary key either way.
 */
export function workspaceIdIndexes(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ['media', 'tags', 'authors', 'categories']) {
        await db.schema.createIndex(`${table}_workspace_id_idx`).on(table).columns(['workspace_id', 'id']).execute();
      }
    },
  };
}
