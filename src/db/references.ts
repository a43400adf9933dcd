import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Referenceable = 'media' | 'authors' | 'categories' | 'tags' | 'posts' | 'pages';

/**
 * Which of `ids` are rows of `table` in the workspace (live rows, for tables with soft delete): the
 * one query behind every "a referenced id must belong to the bound workspace" check.
 */
export async function existingIds(
  db: Kysely<Database>,
  table: Referenceable,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  let query = db
    .selectFrom(table)
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids)]);
  if (table === 'posts' || table === 'pages') query = query.where('deleted_at', 'is', null);
  const rows = await query.execute();
  return new Set(rows.map((row) => row.id));
}
