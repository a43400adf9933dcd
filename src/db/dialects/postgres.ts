import { PostgresDialect, sql, type Dialect, type Kysely } from 'kysely';
import pg from 'pg';
import {
  searchIndexName,
  type DialectHelpers,
  type SearchableTable,
  type SearchColumn,
  scopeWords,
  type ForeignKeyViolation,
  type UniqueViolation,
  type WordScope,
} from './dialect.js';
import type { WordQuery } from '../../shared/search-words.js';
import { livePostCount } from '../counts.js';

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
  // A client checked out of the pool has no listener of the pool's: one whose connection ends mid-transaction
  // (a restart, a failover) emits 'error' on itself too. Its query or transaction already fails with that error,
  // which the caller answers (a 503), and the pool discards the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export function postgresDialect(connectionString: string): { dialect: Dialect; pool: pg.Pool } {
  const pool = createPgPool(connectionString);
  return { dialect: new PostgresDialect({ pool }), pool };
}

/** Node's socket errors: the server's address refuses, resets or does not answer. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * The server is away: shutting down or starting up (57P01–57P03), out of resources (class 53: disk full, too many
 * connections), the connection lost (class 08, or pg's own "Connection terminated" and "not queryable" errors),
 * or no connection to be had within the pool's connect timeout.
 */
function postgresUnavailable(error: unknown): string | undefined {
  // A name that resolves to several addresses fails with one error for each, gathered.
  if (error instanceof AggregateError && error.errors.length > 0) return postgresUnavailable(error.errors[0]);
  const { code, message } = (error ?? {}) as PgError & { message?: unknown };
  if (typeof code === 'string') {
    if (code === '57P01' || code === '57P02') return 'shutting_down';
    if (code === '57P03') return 'starting_up';
    if (code === '53100') return 'disk_full';
    if (code.startsWith('53')) return 'out_of_resources';
    if (code.startsWith('08')) return 'connection_lost';
    if (SOCKET_ERRORS.has(code)) return 'unreachable';
  }
  if (typeof message !== 'string') return undefined;
  if (/^Connection terminated|not queryable|Connection ended/i.test(message)) return 'connection_lost';
  if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message))
    return 'connect_timeout';
  return undefined;
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
 * `Key (author_id)=(…) is not present in table "authors".` names the referencing columns, and the error the
 * referencing table; `Key (id)=(…) is still referenced from table "posts".` is a delete of a referenced row.
 */
function postgresForeignKeyViolation(error: unknown): ForeignKeyViolation | undefined {
  const { code, table, detail } = (error ?? {}) as PgError;
  if (code !== '23503') return undefined;
  const missing = /^Key \(([^)]*)\)=\(.*\) is not present in table/.exec(detail ?? '');
  if (!missing) return { table: '', columns: [], missing: false };
  const columns = missing[1]!.split(', ').map((column) => column.replace(/^"|"$/g, ''));
  return { table: table ?? '', columns, missing: true };
}

/**
 * A row's words and scope words as a tsvector (`row` is `new` in the trigger, the table in a fill), built from
 * the words as stored (search-words.ts) without PostgreSQL's parser, so both dialects find exactly the same
 * words.
 */
const rowWords = (row: string) => {
  const workspace = `'§' || replace(${row}.workspace_id::text, '-', '')`;
  return `array_to_tsvector(array_remove(string_to_array(${row}.search_head || ' ' || ${row}.search_text
    || ' ' || ${workspace} || ' ' || ${workspace} || '§' || ${row}.status, ' '), ''))`;
};

const wordTable = (table: SearchableTable) => `${table}_words`;

/**
 * The word index: a narrow table of the live rows' words beside the table, kept by a trigger, with a GIN index.
 * A count of a common word then visits the narrow table's rows, never the wide ones, which hold the bodies and
 * everything else of a post (docs/performance.md, "Figures behind the code").
 */
async function createWordIndex(db: Kysely<unknown>, table: SearchableTable): Promise<void> {
  const words = wordTable(table);
  const statements = [
    `create table ${words} (row_id uuid primary key references ${table} (id) on delete cascade, words tsvector not null)`,
    `create index ${words}_gin on ${words} using gin (words)`,
    `create function ${words}_sync() returns trigger language plpgsql as $$
     begin
       if tg_op = 'DELETE' then
         delete from ${words} where row_id = old.id;
       elsif new.deleted_at is not null then
         delete from ${words} where row_id = new.id;
       else
         insert into ${words} (row_id, words) values (new.id, ${rowWords('new')})
           on conflict (row_id) do update set words = excluded.words;
       end if;
       return null;
     end $$`,
    // A write that sets none of these columns (a render stamp, a score) leaves the index alone.
    `create trigger ${words}_sync after insert or delete or update of search_head, search_text, status, deleted_at,
       workspace_id on ${table} for each row execute function ${words}_sync()`,
    `insert into ${words} (row_id, words) select id, ${rowWords(table)} from ${table} where deleted_at is null`,
    `analyze ${words}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** tsquery syntax: each word a quoted lexeme, taken as it is; the prefix one with `:*`. */
function tsQuery(scope: WordScope, query: WordQuery): string {
  const quoted = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const terms = [scopeWords(scope.workspaceId, scope.status), ...query.whole].map(quoted);
  if (query.prefix !== undefined) terms.push(`${quoted(query.prefix)}:*`);
  return terms.join(' & ');
}

const wordsMatch = (table: SearchableTable, scope: WordScope, query: WordQuery) =>
  sql<boolean>`${sql.ref(`${table}.id`)} in (select row_id from ${sql.table(wordTable(table))}
    where words @@ ${tsQuery(scope, query)}::tsquery)`;

export const postgresHelpers: DialectHelpers = {
  name: 'postgres',
  types: { uuid: 'uuid', timestamp: 'timestamptz', json: 'jsonb', bool: 'boolean' },
  uniqueViolation: postgresUniqueViolation,
  foreignKeyViolation: postgresForeignKeyViolation,
  unavailable: postgresUnavailable,
  textBytes: (bytes) => bytes.toString('utf8'),
  unindexed: (column) => sql.ref(column),
  skippingLocked: (query) => query.forUpdate().skipLocked(),
  // The callers name their tables in the code; no input reaches this statement.
  analyze: async (db, tables) => void (await sql`analyze ${sql.raw(tables.join(', '))}`.execute(db)),
  containsText: (column, needle) => sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`,
  bodyHasImage: (column, mediaId) =>
    sql<boolean>`${sql.ref(column)} @> ${JSON.stringify([{ type: 'image', mediaId }])}::jsonb`,
  wordsMatch: (table, scope, query) => wordsMatch(table, scope, query),
  // Counted in the word table alone, which holds only live rows and the scope's words (counted through the
  // table itself, each match would be looked up among the wide rows). A count of at most `few` is followed by
  // their ids: the planner prices a GIN lookup of a word's beginning above a walk of the whole word table, and
  // would walk it for a rare word. A common word is not named: a GIN index collects every match
  // before it returns one, so a limited lookup first would collect them twice.
  async wordsFound(db, table, scope, query, few) {
    const words = sql.table(wordTable(table));
    const match = sql<boolean>`words @@ ${tsQuery(scope, query)}::tsquery`;
    const inRow = wordsMatch(table, scope, query);
    const { rows } = await sql<{ total: number; live: number }>`select count(*) as total,
        ${livePostCount(scope.workspaceId)} as live
      from ${words} where ${match}`.execute(db);
    const { total, live } = rows[0]!;
    if (total > few) return { counted: { total, live }, few: undefined, inRow };
    const named = await sql<{ row_id: string }>`select row_id from ${words} where ${match}`.execute(db);
    const ids = named.rows.map((row) => row.row_id);
    return { few: sql<boolean>`${sql.ref(`${table}.id`)} = any(${ids}::uuid[])`, inRow };
  },

  searching: (db, work) =>
    db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return work(trx);
    }),
  async createStatusCountTriggers(db) {
    const counted = (row: 'new' | 'old', delta: 1 | -1) =>
      `if ${row}.deleted_at is null then
         insert into post_status_counts (workspace_id, status, live_count) values (${row}.workspace_id, ${row}.status, ${delta})
           on conflict (workspace_id, status) do update set live_count = post_status_counts.live_count + ${delta};
       end if;`;
    const statements = [
      `create function post_status_counts_sync() returns trigger language plpgsql as $$
       begin
         if tg_op <> 'INSERT' then ${counted('old', -1)} end if;
         if tg_op <> 'DELETE' then ${counted('new', 1)} end if;
         return null;
       end $$`,
      `create trigger post_status_counts_sync after insert or delete or update of status, deleted_at, workspace_id
         on posts for each row execute function post_status_counts_sync()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async createTagCountTriggers(db) {
    const statements = [
      `create function post_tag_counts_tags() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
           insert into post_tag_counts (workspace_id, tag_id, live_count)
             select posts.workspace_id, new.tag_id, 1 from posts where posts.id = new.post_id and posts.deleted_at is null
             on conflict (tag_id) do update set live_count = post_tag_counts.live_count + 1;
         elsif exists (select 1 from posts where posts.id = old.post_id and posts.deleted_at is null) then
           update post_tag_counts set live_count = live_count - 1 where tag_id = old.tag_id;
         end if;
         return null;
       end $$`,
      `create trigger post_tag_counts_tags after insert or delete on post_tags
         for each row execute function post_tag_counts_tags()`,
      // A post deleted outright loses its tags by the foreign key's cascade, after its row is gone (so the trigger
      // above counts nothing): they are counted out here, while they are still there.
      `create function post_tag_counts_gone() returns trigger language plpgsql as $$
       begin
         if old.deleted_at is null then
           update post_tag_counts set live_count = live_count - 1
             where tag_id in (select tag_id from post_tags where post_id = old.id);
         end if;
         return old;
       end $$`,
      `create trigger post_tag_counts_gone before delete on posts for each row execute function post_tag_counts_gone()`,
      `create function post_tag_counts_posts() returns trigger language plpgsql as $$
       declare delta integer := case when new.deleted_at is null then 1 else -1 end;
       begin
         if (old.deleted_at is null) <> (new.deleted_at is null) then
           insert into post_tag_counts (workspace_id, tag_id, live_count)
             select new.workspace_id, tag_id, delta from post_tags where post_id = new.id
             on conflict (tag_id) do update set live_count = post_tag_counts.live_count + delta;
         end if;
         return null;
       end $$`,
      `create trigger post_tag_counts_posts after update of deleted_at on posts
         for each row execute function post_tag_counts_posts()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  createWordIndex,
  async dropWordIndex(db, table) {
    await sql.raw(`drop table if exists ${wordTable(table)}`).execute(db);
    await sql.raw(`drop function if exists ${wordTable(table)}_sync() cascade`).execute(db);
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
