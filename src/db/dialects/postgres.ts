import { PostgresDialect, sql, type Dialect } from 'kysely';
import pg from 'pg';
import {
  searchIndexName,
  type DialectHelpers,
  type SearchableTable,
  type SearchColumn,
  type UniqueViolation,
} from './dialect.js';

/** posts_search_trgm for the body, as 0005 named it, and posts_head_search_trgm for the head. */
const trigramIndex = (table: SearchableTable, column: SearchColumn) => `${searchIndexName(table, column)}_trgm`;

const OID = { int8: 20, json: 114, timestamp: 1114, timestamptz: 1184, jsonb: 3802 } as const;

/**
 * Type parsers for this pool only (never pg's global table): timestamps come back as the same ISO
 * strings SQLite stores, JSON as text (parsed where the presenter needs it), counts as numbers.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case OID.timestamptz:
      case OID.timestamp:
        return (value: string) => new Date(oid === OID.timestamp ? `${value}Z` : value).toISOString();
      case OID.json:
      case OID.jsonb:
        return (value: string) => value;
      case OID.int8:
        return (value: string) => Number(value);
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
};

export function createPgPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  // An idle connection the server drops (restart, failover, pg_terminate_backend) makes the pool emit
  // 'error'; unheard, that is an uncaught exception that kills the process. The pool has already
  // discarded the client, and the next query opens a new one, so there is nothing more to do.
  pool.on('error', () => undefined);
  return pool;
}

export function postgresDialect(connectionString: string): { dialect: Dialect; pool: pg.Pool } {
  const pool = createPgPool(connectionString);
  return { dialect: new PostgresDialect({ pool }), pool };
}

interface PgError {
  code?: string;
  table?: string;
  detail?: string;
}

/** `Key (workspace_id, slug)=(…) already exists.` names the index's columns; the error names the table. */
function postgresUniqueViolation(error: unknown): UniqueViolation | undefined {
  const { code, table, detail } = (error ?? {}) as PgError;
  if (code !== '23505') return undefined;
  const columns = /^Key \(([^)]*)\)=/.exec(detail ?? '')?.[1]?.split(', ') ?? [];
  return { table: table ?? '', columns: columns.map((column) => column.replace(/^"|"$/g, '')) };
}

export const postgresHelpers: DialectHelpers = {
  name: 'postgres',
  types: { uuid: 'uuid', timestamp: 'timestamptz', json: 'jsonb', bool: 'boolean' },
  uniqueViolation: postgresUniqueViolation,
  textBytes: (bytes) => bytes.toString('utf8'),
  unindexed: (column) => sql.ref(column),
  skippingLocked: (query) => query.forUpdate().skipLocked(),
  containsText: (column, needle) => sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`,
  bodyHasImage: (column, mediaId) =>
    sql<boolean>`${sql.ref(column)} @> ${JSON.stringify([{ type: 'image', mediaId }])}::jsonb`,
  // LIKE is what a pg_trgm index serves (one index a column, combined by a BitmapOr); the needle's own
  // wildcards and escapes are escaped first.
  searchIndexed(table, needle) {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<boolean>`(${sql.ref(`${table}.search_head`)} like ${pattern} or ${sql.ref(`${table}.search_text`)} like ${pattern})`;
  },
  searchFew: () => Promise.resolve(undefined),
  async createSearchIndex(db, table, column = 'search_text') {
    // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index ${sql.id(trigramIndex(table, column))} on ${sql.table(table)} using gin (${sql.ref(column)} gin_trgm_ops)`.execute(
      db,
    );
  },
  async dropSearchIndex(db, table, column) {
    await sql`drop index if exists ${sql.id(trigramIndex(table, column))}`.execute(db);
  },
};
