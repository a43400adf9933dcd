import type { DialectHelpers, ForeignKeyViolation, UniqueViolation } from '../dialect.js';

interface SqliteError {
  code?: string;
  message?: string;
}

/**
 * The data dir cannot take a write: the disk is full, the file system or the database file is read-only, or the
 * file cannot be opened or written. Reads go on; writes succeed again once space or write access returns.
 */
function sqliteUnavailable(error: unknown): string | undefined {
  const { code } = (error ?? {}) as SqliteError;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) return 'io_error';
  // Another process (a `quire` command) held the write lock for longer than the busy timeout.
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return 'busy';
  return undefined;
}

/** `UNIQUE constraint failed: posts.workspace_id, posts.slug` names the table and the index's columns. */
function sqliteUniqueViolation(error: unknown): UniqueViolation | undefined {
  const { code, message } = (error ?? {}) as SqliteError;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
  const qualified = (message ?? '').replace(/^UNIQUE constraint failed: /, '').split(', ');
  const table = qualified[0]?.split('.')[0] ?? '';
  return { table, columns: qualified.map((name) => name.split('.').pop() ?? name) };
}

/** SQLite says only `FOREIGN KEY constraint failed`: neither the table, the columns nor which side. */
function sqliteForeignKeyViolation(error: unknown): ForeignKeyViolation | undefined {
  const { code } = (error ?? {}) as SqliteError;
  if (code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') return undefined;
  return { table: '', columns: [], missing: true };
}

export const sqliteErrors: Pick<DialectHelpers, 'uniqueViolation' | 'foreignKeyViolation' | 'unavailable'> = {
  uniqueViolation: sqliteUniqueViolation,
  foreignKeyViolation: sqliteForeignKeyViolation,
  unavailable: sqliteUnavailable,
};
