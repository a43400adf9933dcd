import fs from 'node:fs';
import path from 'node:path';
import { Kysely, type Dialect } from 'kysely';
import type { Config } from '../config.js';
import type { DialectHelpers } from './dialects/dialect.js';
import { postgresDialect, postgresHelpers } from './dialects/postgres/index.js';
import { sqliteDialect, sqliteHelpers } from './dialects/sqlite/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** The database a process works with: the Kysely instance, its dialect's helpers, and a query counter. */
export interface DatabaseHandle {
  db: Db;
  dialect: DialectHelpers;
  /** Statements sent since start; tests read it to hold list routes to a fixed query budget. */
  stats: { queries: number };
  /** Revisions a content write keeps of each post and page it writes (QUIRE_REVISIONS_KEPT, writes/revisions.ts). */
  revisionsKept: number;
  /** Seconds a draft's saves by one writer stay one revision (QUIRE_REVISION_WINDOW_SECONDS, writes/revisions.ts). */
  revisionWindowSeconds: number;
  /** The SQLite database file; null on PostgreSQL. */
  file: string | null;
  /** Connections open, idle, and callers waiting for one (SQLite has one connection). */
  connections(): { open: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'quire.sqlite');
}

/** The revisions' settings when the configuration does not say (a move's target never writes any). */
const REVISIONS_KEPT_DEFAULT = 50;
const REVISION_WINDOW_SECONDS_DEFAULT = 300;

export function createDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'revisionsKept' | 'revisionWindowSeconds'>>,
  { bulkWrites = false }: { bulkWrites?: boolean } = {},
): DatabaseHandle {
  const stats = { queries: 0 };
  let dialect: Dialect;
  let helpers: DialectHelpers;
  let file: string | null = null;
  let connections: DatabaseHandle['connections'];
  if (config.databaseUrl) {
    const { dialect: postgres, pool } = postgresDialect(config.databaseUrl);
    dialect = postgres;
    helpers = postgresHelpers;
    connections = () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  } else {
    fs.mkdirSync(config.dataDir, { recursive: true });
    file = sqliteFile(config.dataDir);
    const use = { busy: false, waiting: 0 };
    dialect = sqliteDialect(file, use, { bulkWrites });
    helpers = sqliteHelpers;
    connections = () => ({ open: 1, idle: use.busy ? 0 : 1, waiting: use.waiting });
  }
  const db = new Kysely<Database>({
    dialect,
    log: () => {
      stats.queries += 1;
    },
  });
  const revisionsKept = config.revisionsKept ?? REVISIONS_KEPT_DEFAULT;
  const revisionWindowSeconds = config.revisionWindowSeconds ?? REVISION_WINDOW_SECONDS_DEFAULT;
  return {
    db,
    dialect: helpers,
    stats,
    revisionsKept,
    revisionWindowSeconds,
    file,
    connections,
    close: () => db.destroy(),
  };
}
