import { Kysely, sql } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { sqliteDialect } from './dialects/sqlite/index.js';
import type { Database } from './schema.js';

/**
 * Runs `work` on the database as it was at one instant, while the server goes on writing: what an export,
 * a backup's media list or a move reads, so that every row it sees belongs to one consistent state.
 *
 * PostgreSQL: a read-only repeatable-read transaction. SQLite: a connection of its own in a deferred
 * transaction, which in WAL mode keeps its snapshot without taking the write lock (the handle's own
 * transactions begin IMMEDIATE, and would stop every writer for as long as the export runs).
 */
export async function readSnapshot<T>(
  database: DatabaseHandle,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (database.file === null)
    return database.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
  const db = new Kysely<Database>({ dialect: sqliteDialect(database.file) });
  try {
    await sql`begin`.execute(db);
    // A deferred transaction takes its snapshot at its first read.
    await sql`select count(*) from sqlite_master`.execute(db);
    const result = await work(db);
    await sql`commit`.execute(db);
    return result;
  } finally {
    await db.destroy();
  }
}
