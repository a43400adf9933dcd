import type { Insertable, Kysely } from 'kysely';
import type { DialectName } from '../db/dialects/dialect.js';
import type { Database } from '../db/schema.js';

/** Bound parameters one statement may carry: SQLite's SQLITE_MAX_VARIABLE_NUMBER, PostgreSQL's protocol limit. */
export const MAX_PARAMETERS: Record<DialectName, number> = { sqlite: 32_766, postgres: 65_535 };

/**
 * Multi-row inserts, as many rows per statement as the dialect's parameter limit allows and at most
 * `maxRows` (post rows are large: a statement of a thousand of them is already tens of megabytes).
 */
export async function insertRows<T extends keyof Database & string>(
  db: Kysely<Database>,
  dialect: DialectName,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
  maxRows = 1000,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  const perStatement = Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMETERS[dialect] / columns)));
  for (let start = 0; start < rows.length; start += perStatement) {
    // Kysely cannot follow a table name chosen by a type parameter; the rows were typed by the caller.
    await db
      .insertInto(table)
      .values(rows.slice(start, start + perStatement) as never)
      .execute();
  }
}
