import { sql } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { postgresCounts } from './counts.js';
import { postgresErrors } from './errors.js';
import { postgresSearch } from './search.js';

export { createPgPool, postgresDialect } from './driver.js';

/** PostgreSQL's side of every difference between the dialects (dialect.ts), one file per concern. */
export const postgresHelpers: DialectHelpers = {
  name: 'postgres',
  types: { uuid: 'uuid', timestamp: 'timestamptz', json: 'jsonb', bool: 'boolean', bytes: 'bytea' },
  ...postgresErrors,
  textBytes: (bytes) => bytes.toString('utf8'),
  unindexed: (column) => sql.ref(column),
  skippingLocked: (query) => query.forUpdate().skipLocked(),
  // The callers name their tables in the code; no input reaches this statement.
  analyze: async (db, tables) => void (await sql`analyze ${sql.raw(tables.join(', '))}`.execute(db)),
  containsText: (column, needle) => sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`,
  bodyHasImage: (column, mediaId) =>
    sql<boolean>`${sql.ref(column)} @> ${JSON.stringify([{ type: 'image', mediaId }])}::jsonb`,
  ...postgresSearch,
  ...postgresCounts,
};
