import { sql, type Compilable } from 'kysely';
import type { Db } from '../../src/db/database.js';
import type { DialectName } from '../../src/db/dialects/dialect.js';

/**
 * The plan the database chooses for `query`, as text. On PostgreSQL sequential scans and sorts are disabled for
 * it, so a plan that still walks an index proves the index serves the query's filter and order.
 */
export async function queryPlan(db: Db, dialect: DialectName, query: Compilable<unknown>): Promise<string> {
  const compiled = query.compile();
  if (dialect === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `explain query plan ${compiled.sql}`,
    } as never);
    return rows.map((row) => row.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_sort = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>({
      ...compiled,
      sql: `explain ${compiled.sql}`,
    } as never);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
