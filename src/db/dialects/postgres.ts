import { PostgresDialect, sql, type Dialect } from 'kysely';
import pg from 'pg';
import {
  searchIndexName,
  type DialectHelpers,
  type SearchableTable,
  type SearchColumn,
  scopeWords,
  type UniqueViolation,
  type WordScope,
} from './dialect.js';
import type { WordQuery } from '../../shared/search-words.js';

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

/**
 * A row's words and scope words as a tsvector, built from the words as stored (search-words.ts) without
 * PostgreSQL's parser, so both dialects find exactly the same words. The word index of migration 0018 is this
 * expression, and a search must spell it the same way for the planner to use it.
 */
const rowWords = (table: SearchableTable, qualified: boolean) => {
  const ref = (column: string) => (qualified ? sql.ref(`${table}.${column}`) : sql.ref(column));
  const workspace = sql`'§' || replace(${ref('workspace_id')}::text, '-', '')`;
  return sql`array_to_tsvector(array_remove(string_to_array(${ref('search_head')} || ' ' || ${ref('search_text')}
    || ' ' || ${workspace} || ' ' || ${workspace} || '§' || ${ref('status')}, ' '), ''))`;
};

/** tsquery syntax: each word a quoted lexeme, taken as it is; the prefix one with `:*`. */
function tsQuery(scope: WordScope, query: WordQuery): string {
  const quoted = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const terms = [scopeWords(scope.workspaceId, scope.status), ...query.whole].map(quoted);
  if (query.prefix !== undefined) terms.push(`${quoted(query.prefix)}:*`);
  return terms.join(' & ');
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
  wordsMatch: (table, scope, query) => sql<boolean>`${rowWords(table, true)} @@ ${tsQuery(scope, query)}::tsquery`,
  wordsFound: () => Promise.resolve(undefined),
  async dropWordIndex(db, table) {
    await sql`drop index if exists ${sql.id(`${table}_words`)}`.execute(db);
  },
  async createWordIndex(db, table) {
    await sql`create index ${sql.id(`${table}_words`)} on ${sql.table(table)} using gin (${rowWords(table, false)})
      where deleted_at is null`.execute(db);
  },
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
