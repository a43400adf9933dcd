import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  sql,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import {
  searchIndexName,
  type DialectHelpers,
  type SearchableTable,
  scopeWords,
  type SearchColumn,
  type ForeignKeyViolation,
  type UniqueViolation,
  type WordScope,
} from './dialect.js';
import type { WordQuery } from '../../shared/search-words.js';
import { livePostCount } from '../counts.js';

const STATEMENT_CACHE_SIZE = 500;

/** better-sqlite3 binds neither booleans nor Dates; the application writes both. */
function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * One connection over better-sqlite3 that keeps its prepared statements: Kysely's own SQLite
 * driver prepares every statement anew, which costs more than running most of our queries.
 */
class SqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly db: BetterSqlite3.Database) {}

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (statement) return statement;
    statement = this.db.prepare(sql);
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiled.sql);
    const parameters = compiled.parameters.map(bindable);
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    const { changes } = statement.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), rows: [] });
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used by Quire');
  }
}

/** How the one connection is used: whether it is held, and how many callers wait for it (the metrics read it). */
export interface ConnectionUse {
  busy: boolean;
  waiting: number;
}

/** SQLite has one connection; callers queue for it, and a transaction holds it until it ends. */
class SqliteDriver implements Driver {
  #connection!: SqliteConnection;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    readonly db: BetterSqlite3.Database,
    readonly use: ConnectionUse,
  ) {}

  async init(): Promise<void> {
    this.#connection = new SqliteConnection(this.db);
  }

  #release: (() => void) | undefined;

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#queue;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    this.use.waiting += 1;
    await previous;
    this.use.waiting -= 1;
    this.use.busy = true;
    this.#release = release;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    this.use.busy = false;
    release?.();
  }

  // Write transactions take the write lock up front, so a concurrent writer in another process
  // waits for the busy timeout instead of failing when it upgrades a read lock.
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back itself on some errors (a full disk, an I/O error); a second rollback would
    // fail and hide the error that caused the first.
    if (this.db.inTransaction) await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.db.close();
  }
}

export function openSqlite(file: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}

/**
 * SQLite's schema changes are transactional, though Kysely's adapter does not say so: saying it makes the
 * migrator run each migration in a transaction, so one that fails half-way (a rewrite of every post, say)
 * leaves nothing behind, and its many writes commit once.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export function sqliteDialect(file: string, use: ConnectionUse = { busy: false, waiting: 0 }): Dialect {
  const db = openSqlite(file);
  return {
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    createDriver: () => new SqliteDriver(db, use),
    createIntrospector: (kysely: Kysely<unknown>) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

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

/**
 * The external-content FTS5 index of one column, and the triggers that keep it in step with every write of the
 * column.
 */
async function createColumnIndex(db: Kysely<unknown>, table: SearchableTable, column: SearchColumn): Promise<void> {
  const index = searchIndexName(table, column);
  await sql`create virtual table ${sql.table(index)} using fts5(${sql.raw(column)}, content=${sql.lit(table)}, content_rowid='rowid', tokenize='trigram')`.execute(
    db,
  );
  await sql
    .raw(
      `create trigger ${index}_ai after insert on ${table} begin insert into ${index}(rowid, ${column}) values (new.rowid, new.${column}); end;`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${index}_ad after delete on ${table} begin insert into ${index}(${index}, rowid, ${column}) values ('delete', old.rowid, old.${column}); end;`,
    )
    .execute(db);
  // "update of" the column: a write that sets other columns only (the title, for the body's index) re-indexes nothing.
  await sql
    .raw(
      `create trigger ${index}_au after update of ${column} on ${table} begin
         insert into ${index}(${index}, rowid, ${column}) values ('delete', old.rowid, old.${column});
         insert into ${index}(rowid, ${column}) values (new.rowid, new.${column});
       end;`,
    )
    .execute(db);
  await sql.raw(`insert into ${index}(${index}) values ('rebuild')`).execute(db);
}

const wordIndex = (table: SearchableTable) => `${table}_words`;

/**
 * FTS5 syntax: each word a quoted string (so nothing in it is an operator), all of them required, and the scope's
 * word when given.
 */
function ftsQuery(scope: WordScope | undefined, query: WordQuery): string {
  const quoted = (word: string) => `"${word.replace(/"/g, '""')}"`;
  const scoped = scope === undefined ? [] : [scopeWords(scope.workspaceId, scope.status)];
  const terms = [...scoped, ...query.whole].map(quoted);
  if (query.prefix !== undefined) terms.push(`${quoted(query.prefix)}*`);
  return terms.join(' AND ');
}

/** The scope words of a row (dialect.ts scopeWords) as SQL over the trigger's `new` or `old`. */
const rowScope = (row: 'new' | 'old' | '') => {
  const ref = (column: string) => (row ? `${row}.${column}` : column);
  const workspace = `'§' || replace(${ref('workspace_id')}, '-', '')`;
  return `${workspace} || ' ' || ${workspace} || '§' || ${ref('status')}`;
};

/**
 * A contentless FTS5 index of the live rows' words and scope words. The words are stored already split
 * (search-words.ts), so the `ascii` tokenizer splits them only at the spaces between them: every character of
 * a stored word is a letter, digit or mark, which it takes as part of a word. `detail=none` keeps no positions:
 * a search asks which rows hold words, never where. A row leaves the index when it is deleted (soft or hard),
 * so the index counts a scope's matches without reading a row. The prefix indexes answer a word's beginning of
 * 2 to 6 characters from one list, as a whole word is, rather than merging the lists of every word it begins.
 */
async function createWordIndex(db: Kysely<unknown>, table: SearchableTable): Promise<void> {
  const index = wordIndex(table);
  const columns = 'rowid, head, body, scope';
  const values = (row: 'new' | '') =>
    `${row ? `${row}.` : ''}rowid, ${row ? `${row}.` : ''}search_head, ${row ? `${row}.` : ''}search_text, ${rowScope(row)}`;
  const statements = [
    `create virtual table ${index} using fts5(head, body, scope, content='', contentless_delete=1,
       tokenize='ascii', detail='none', prefix='2 3 4 5 6')`,
    `create trigger ${index}_ai after insert on ${table} when new.deleted_at is null begin
       insert into ${index}(${columns}) values (${values('new')});
     end`,
    `create trigger ${index}_ad after delete on ${table} when old.deleted_at is null begin
       delete from ${index} where rowid = old.rowid;
     end`,
    // A write that sets none of these columns (a render stamp, a score) leaves the index alone.
    `create trigger ${index}_au after update of search_head, search_text, status, deleted_at, workspace_id on ${table}
     begin
       delete from ${index} where rowid = old.rowid and old.deleted_at is null;
       insert into ${index}(${columns}) select ${values('new')} where new.deleted_at is null;
     end`,
    `insert into ${index}(${columns}) select ${values('')} from ${table} where deleted_at is null`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * The match of `query` on a row's own stored words, which are separated by single spaces: a whole word is
 * ` word ` within the spaced columns, a beginning ` word`.
 */
function storedWordsHold(table: SearchableTable, query: WordQuery): RawBuilder<boolean> {
  const spaced = sql`(' ' || ${sql.ref(`${table}.search_head`)} || ' ' || ${sql.ref(`${table}.search_text`)} || ' ')`;
  const needles = [
    ...query.whole.map((word) => ` ${word} `),
    ...(query.prefix === undefined ? [] : [` ${query.prefix}`]),
  ];
  if (needles.length === 0) return sql<boolean>`0`;
  return sql<boolean>`(${sql.join(
    needles.map((needle) => sql`instr(${spaced}, ${needle}) > 0`),
    sql` and `,
  )})`;
}

export const sqliteHelpers: DialectHelpers = {
  name: 'sqlite',
  types: { uuid: 'text', timestamp: 'text', json: 'text', bool: 'integer' },
  uniqueViolation: sqliteUniqueViolation,
  foreignKeyViolation: sqliteForeignKeyViolation,
  unavailable: sqliteUnavailable,
  unindexed: (column) => sql`+${sql.ref(column)}`,
  containsText: (column, needle) => sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`,
  skippingLocked: (query) => query,
  analyze: async () => {},
  bodyHasImage: (column, mediaId) =>
    sql<boolean>`instr(${sql.ref(column)}, ${`"mediaId":${JSON.stringify(mediaId)}`}) > 0`,
  wordsMatch: (table, scope, query) =>
    sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from ${sql.table(wordIndex(table))} where ${sql.table(wordIndex(table))} match ${ftsQuery(scope, query)})`,
  // Rare words are looked up without the scope's word, whose list is as long as the workspace: the few rows
  // found in every workspace are named, and the list statement checks each (and counts them). Common ones
  // are counted in the scope.
  async wordsFound(db, table, scope, query, few) {
    const index = sql.table(wordIndex(table));
    const inRow = storedWordsHold(table, query);
    const { rows } = await sql<{ rowid: number }>`select rowid from ${index}
      where ${index} match ${ftsQuery(undefined, query)} limit ${few + 1}`.execute(db);
    if (rows.length <= few) {
      const rowids = JSON.stringify(rows.map((row) => row.rowid));
      const named = sql<boolean>`${sql.ref(`${table}.rowid`)} in (select value from json_each(${rowids}))`;
      return { few: named, inRow };
    }
    const counted = await sql<{ total: number; live: number }>`select count(*) as total,
        ${livePostCount(scope.workspaceId)} as live
      from ${index} where ${index} match ${ftsQuery(scope, query)}`.execute(db);
    const { total, live } = counted.rows[0]!;
    return { counted: { total, live }, few: undefined, inRow };
  },
  searching: (db, work) => work(db),
  async createStatusCountTriggers(db) {
    const counted = (row: 'new' | 'old', delta: 1 | -1) =>
      `insert into post_status_counts (workspace_id, status, live_count)
         select ${row}.workspace_id, ${row}.status, ${delta} where ${row}.deleted_at is null
         on conflict (workspace_id, status) do update set live_count = live_count + ${delta};`;
    const statements = [
      `create trigger post_status_counts_ai after insert on posts begin ${counted('new', 1)} end`,
      `create trigger post_status_counts_ad after delete on posts begin ${counted('old', -1)} end`,
      `create trigger post_status_counts_au after update of status, deleted_at, workspace_id on posts
       begin ${counted('old', -1)} ${counted('new', 1)} end`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async createTagCountTriggers(db) {
    const upsert = (delta: 1 | -1) => `on conflict (tag_id) do update set live_count = live_count + ${delta};`;
    const statements = [
      `create trigger post_tag_counts_ai after insert on post_tags begin
         insert into post_tag_counts (workspace_id, tag_id, live_count)
           select posts.workspace_id, new.tag_id, 1 from posts where posts.id = new.post_id and posts.deleted_at is null
           ${upsert(1)}
       end`,
      // A detach from a live post. When the post itself is deleted outright, its tags go by the foreign key's
      // cascade after the post's row: the post is no longer there, and the trigger below has counted them out.
      `create trigger post_tag_counts_ad after delete on post_tags begin
         update post_tag_counts set live_count = live_count - 1 where tag_id = old.tag_id
           and exists (select 1 from posts where posts.id = old.post_id and posts.deleted_at is null);
       end`,
      `create trigger post_tag_counts_bd before delete on posts when old.deleted_at is null begin
         update post_tag_counts set live_count = live_count - 1
           where tag_id in (select tag_id from post_tags where post_id = old.id);
       end`,
      `create trigger post_tag_counts_au after update of deleted_at on posts
       when (old.deleted_at is null) <> (new.deleted_at is null) begin
         insert into post_tag_counts (workspace_id, tag_id, live_count)
           select new.workspace_id, tag_id, case when new.deleted_at is null then 1 else -1 end
           from post_tags where post_id = new.id
           on conflict (tag_id) do update
             set live_count = live_count + case when new.deleted_at is null then 1 else -1 end;
       end`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  createWordIndex,
  async dropWordIndex(db, table) {
    const index = wordIndex(table);
    for (const trigger of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${index}_${trigger}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  },
  textBytes: (bytes) => bytes,
  createSearchIndex: (db, table, column = 'search_text') => createColumnIndex(db, table, column),
  async dropSearchIndex(db, table, column) {
    const index = searchIndexName(table, column);
    for (const trigger of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${index}_${trigger}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  },
};
