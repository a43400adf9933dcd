import { sql } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { sqliteCounts } from './counts.js';
import { sqliteErrors } from './errors.js';
import { sqliteSearch } from './search.js';

export { openSqlite, sqliteDialect, type ConnectionUse, type SqliteOptions } from './driver.js';

/** SQLite's side of every difference between the dialects (dialect.ts), one file per concern. */
export const sqliteHelpers: DialectHelpers = {
  name: 'sqlite',
  types: { uuid: 'text', timestamp: 'text', json: 'text', bool: 'integer', bytes: 'blob' },
  ...sqliteErrors,
  unindexed: (column) => sql`+${sql.ref(column)}`,
  containsText: (column, needle) => sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`,
  skippingLocked: (query) => query,
  analyze: async () => {},
  bodyHasImage: (column, mediaId) =>
    sql<boolean>`instr(${sql.ref(column)}, ${`"mediaId":${JSON.stringify(mediaId)}`}) > 0`,
  textBytes: (bytes) => bytes,
  ...sqliteSearch,
  ...sqliteCounts,
};
