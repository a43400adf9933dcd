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
import type { DialectHelpers, SearchableTable } from './dialect.js';

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

/** SQLite has one connection; callers queue for it, and a transaction holds it until it ends. */
class SqliteDriver implements Driver {
  #connection!: SqliteConnection;
  #queue: Promise<void> = Promise.resolve();

  constructor(readonly db: BetterSqlite3.Database) {}

  async init(): Promise<void> {
    this.#connection = new SqliteConnection(this.db);
  }

  #release: (() => void) | undefined;

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#queue;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
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

export function sqliteDialect(file: string): Dialect {
  const db = openSqlite(file);
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SqliteDriver(db),
    createIntrospector: (kysely: Kysely<unknown>) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

interface SqliteError {
  code?: string;
}

/** A trigram index needs three characters; a shorter needle scans, which is cheap for so short a pattern's rare use. */
const indexable = (needle: string) => [...needle].length >= 3;

/** The rowids `table`'s FTS5 index finds for `needle` as one phrase, quoted so FTS5 syntax in a query is taken literally. */
const indexedRowids = (table: SearchableTable, needle: string) =>
  sql<{ rowid: number }>`select rowid from ${sql.table(`${table}_search`)} where ${sql.table(`${table}_search`)} match ${`"${needle.replace(/"/g, '""')}"`}`;

export const sqliteHelpers: DialectHelpers = {
  name: 'sqlite',
  types: { uuid: 'text', timestamp: 'text', json: 'text', bool: 'integer' },
  isUniqueViolation: (error) =>
    (error as SqliteError)?.code === 'SQLITE_CONSTRAINT_UNIQUE' || (error as SqliteError)?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  isForeignKeyViolation: (error) => (error as SqliteError)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY',
  containsText: (column, needle) => sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`,
  searchIndexed: (table, needle) =>
    indexable(needle)
      ? sql<boolean>`${sql.ref(`${table}.rowid`)} in (${indexedRowids(table, needle)})`
      : sql<boolean>`instr(${sql.ref(`${table}.search_text`)}, ${needle}) > 0`,
  // FTS5 stops at the limit: for a common term this reads the index's first matches only.
  async searchFew(db, table, needle, limit) {
    if (!indexable(needle)) return undefined;
    const { rows } = await sql<{ rowid: number }>`${indexedRowids(table, needle)} limit ${limit + 1}`.execute(db);
    if (rows.length > limit) return undefined;
    return sql<boolean>`${sql.ref(`${table}.rowid`)} in (select value from json_each(${JSON.stringify(rows.map((row) => row.rowid))}))`;
  },
  textBytes: (bytes) => bytes,
  async createSearchIndex(db, table) {
    const index = `${table}_search`;
    await sql`create virtual table ${sql.table(index)} using fts5(search_text, content=${sql.lit(table)}, content_rowid='rowid', tokenize='trigram')`.execute(db);
    // Triggers keep the external-content index in step with every write of the column.
    await sql
      .raw(
        `create trigger ${index}_ai after insert on ${table} begin insert into ${index}(rowid, search_text) values (new.rowid, new.search_text); end;
         `,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${index}_ad after delete on ${table} begin insert into ${index}(${index}, rowid, search_text) values ('delete', old.rowid, old.search_text); end;`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${index}_au after update of search_text on ${table} begin
           insert into ${index}(${index}, rowid, search_text) values ('delete', old.rowid, old.search_text);
           insert into ${index}(rowid, search_text) values (new.rowid, new.search_text);
         end;`,
      )
      .execute(db);
    await sql.raw(`insert into ${index}(${index}) values ('rebuild')`).execute(db);
  },
};
