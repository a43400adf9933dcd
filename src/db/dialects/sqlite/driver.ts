import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

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

/**
 * WAL pages a connection of a long run of writes (an import) lets the WAL grow to before it checkpoints, where
 * SQLite's default is 1,000: each checkpoint copies the pages the writes since the last one touched, and a
 * bulk writer's consecutive writes touch many of the same pages (docs/performance.md, "Imports").
 */
const BULK_WAL_AUTOCHECKPOINT = 100_000;

export interface SqliteOptions {
  /** The connection of a command that writes item after item, each its own transaction: fewer checkpoints. */
  bulkWrites?: boolean;
}

export function openSqlite(file: string, { bulkWrites = false }: SqliteOptions = {}): BetterSqlite3.Database {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  if (bulkWrites) db.pragma(`wal_autocheckpoint = ${BULK_WAL_AUTOCHECKPOINT}`);
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

export function sqliteDialect(
  file: string,
  use: ConnectionUse = { busy: false, waiting: 0 },
  options: SqliteOptions = {},
): Dialect {
  const db = openSqlite(file, options);
  return {
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    createDriver: () => new SqliteDriver(db, use),
    createIntrospector: (kysely: Kysely<unknown>) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
