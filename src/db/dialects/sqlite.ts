import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  sql,
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
  type SearchColumn,
  type UniqueViolation,
} from './dialect.js';

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
    await connection.executeQuery(CompiledQuery.raw('rollback'));
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

/** `UNIQUE constraint failed: posts.workspace_id, posts.slug` names the table and the index's columns. */
function sqliteUniqueViolation(error: unknown): UniqueViolation | undefined {
  const { code, message } = (error ?? {}) as SqliteError;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
  const qualified = (message ?? '').replace(/^UNIQUE constraint failed: /, '').split(', ');
  const table = qualified[0]?.split('.')[0] ?? '';
  return { table, columns: qualified.map((name) => name.split('.').pop() ?? name) };
}

/** A trigram index needs three characters; a shorter needle scans, which is cheap for so short a pattern's rare use. */
const indexable = (needle: string) => [...needle].length >= 3;

/** FTS5 syntax in a query is taken literally: the needle is one quoted phrase. */
const phrase = (needle: string) => `"${needle.replace(/"/g, '""')}"`;

/** The rowids one column's FTS5 index finds for `needle`, at most `limit` of them when given. */
function columnRowids(table: SearchableTable, column: SearchColumn, needle: string, limit?: number) {
  const index = sql.table(searchIndexName(table, column));
  const found = sql<{ rowid: number }>`select rowid from ${index} where ${index} match ${phrase(needle)}`;
  return limit === undefined ? found : sql<{ rowid: number }>`select * from (${found} limit ${limit})`;
}

/** The rowids either index finds, at most `limit` from each (a row found by both is listed twice). */
const indexedRowids = (table: SearchableTable, needle: string, limit: number) =>
  sql<{
    rowid: number;
  }>`${columnRowids(table, 'search_head', needle, limit)} union all ${columnRowids(table, 'search_text', needle, limit)}`;

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

export const sqliteHelpers: DialectHelpers = {
  name: 'sqlite',
  types: { uuid: 'text', timestamp: 'text', json: 'text', bool: 'integer' },
  uniqueViolation: sqliteUniqueViolation,
  unindexed: (column) => sql`+${sql.ref(column)}`,
  containsText: (column, needle) => sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`,
  skippingLocked: (query) => query,
  bodyHasImage: (column, mediaId) =>
    sql<boolean>`instr(${sql.ref(column)}, ${`"mediaId":${JSON.stringify(mediaId)}`}) > 0`,
  // Two IN lists rather than one of their union: SQLite builds each from its index as it is, where the
  // union took another pass.
  searchIndexed: (table, needle) =>
    indexable(needle)
      ? sql<boolean>`(${sql.ref(`${table}.rowid`)} in (${columnRowids(table, 'search_head', needle)}) or ${sql.ref(`${table}.rowid`)} in (${columnRowids(table, 'search_text', needle)}))`
      : sql<boolean>`(instr(${sql.ref(`${table}.search_head`)}, ${needle}) > 0 or instr(${sql.ref(`${table}.search_text`)}, ${needle}) > 0)`,
  // FTS5 stops at the limit: for a common term this reads each index's first matches only.
  async searchFew(db, table, needle, limit) {
    if (!indexable(needle)) return undefined;
    const { rows } = await indexedRowids(table, needle, limit + 1).execute(db);
    const rowids = new Set(rows.map((row) => row.rowid));
    if (rowids.size > limit) return undefined;
    return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select value from json_each(${JSON.stringify([...rowids])}))`;
  },
  textBytes: (bytes) => bytes,
  createSearchIndex: (db, table, column = 'search_text') => createColumnIndex(db, table, column),
  async dropSearchIndex(db, table, column) {
    const index = searchIndexName(table, column);
    for (const trigger of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${index}_${trigger}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  },
};
