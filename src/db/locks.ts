import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { DialectHelpers } from './dialects/dialect.js';
import type { Database } from './schema.js';

/**
 * PostgreSQL row locks, for writes whose checks must see what concurrent writes did: a delete counts
 * the rows that reference it only once no one can add one, a move of a category checks for a cycle
 * only once no one can move its new parent. SQLite needs none: its write transactions begin IMMEDIATE,
 * so they run one at a time.
 *
 * - `update`: the row will be deleted (blocks every new reference to it);
 * - `noKeyUpdate`: the row will be updated (new references may still be made);
 * - `keyShare`: the row is about to be referenced and must not vanish meanwhile.
 */
export type LockStrength = 'update' | 'noKeyUpdate' | 'keyShare';

export interface RowLock {
  dialect: DialectHelpers;
  strength: LockStrength;
}

export function withRowLock<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  lock: RowLock | undefined,
): SelectQueryBuilder<DB, TB, O> {
  if (!lock || lock.dialect.name !== 'postgres') return query;
  if (lock.strength === 'update') return query.forUpdate();
  if (lock.strength === 'noKeyUpdate') return query.forNoKeyUpdate();
  return query.forKeyShare();
}

/**
 * Locks the workspace's row until the transaction ends (ContentWriteScope.serialize): every other content write
 * of the workspace waits for this one to commit. SQLite's writes need no lock.
 */
export async function lockWorkspace(db: Kysely<Database>, dialect: DialectHelpers, workspaceId: string): Promise<void> {
  if (dialect.name !== 'postgres') return;
  await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forNoKeyUpdate().execute();
}
