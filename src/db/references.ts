import type { Kysely } from 'kysely';
import type { DialectHelpers } from './dialects/dialect.js';
import { withRowLock } from './locks.js';
import type { Database } from './schema.js';

type Referenceable = 'media' | 'authors' | 'categories' | 'tags' | 'posts' | 'pages';

/**
 * Which of `ids` are rows of `table` in the workspace (live rows, for tables with soft delete): the
 * one query behind every "a referenced id must belong to the bound workspace" check.
 *
 * Called inside the write that will store the references, it holds the rows it finds (KEY SHARE on
 * PostgreSQL) until that write ends: a concurrent delete of one of them either waits for the write to
 * commit (and then counts or clears the reference, as it would any other) or has committed first, and
 * the check does not find the row (the 400 it gives any id that names nothing). Without the lock the
 * row could go between the check and the insert, and the foreign key would refuse the write. SQLite
 * needs none: its writes run one at a time.
 */
export async function existingIds(
  db: Kysely<Database>,
  dialect: DialectHelpers,
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
  const rows = await withRowLock(query, { dialect, strength: 'keyShare' }).execute();
  return new Set(rows.map((row) => row.id));
}
