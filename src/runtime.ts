import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { createDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { waitForDatabase } from './db/outage.js';
import { loadOrCreateMasterKeyFile, masterKeyFrom, type MasterKey } from './security/master-key.js';
import { createServices, type Services } from './services.js';

/** What the server and the CLI share: the data dir, the database, the master key and the services. */
export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  masterKey: MasterKey;
  services: Services;
  /**
   * The migrations this open applied, and how long they took: a first start after an upgrade may rewrite every
   * post.
   */
  migrated: { names: string[]; ms: number };
  close(): Promise<void>;
}

type WaitOptions = Parameters<typeof waitForDatabase>[1];

/**
 * Prepares the data dir (the SQLite database, `media/`, and `master.key` with mode 0600 unless
 * QUIRE_MASTER_KEY is set), opens the database and brings its schema up to date.
 */
export async function openRuntime(
  config: Config,
  {
    migrate = true,
    waitForDatabase: wait,
    bulkWrites = false,
  }: {
    migrate?: boolean;
    waitForDatabase?: WaitOptions;
    /** A command that writes item after item (an import): SQLite checkpoints less often (db/dialects/sqlite). */
    bulkWrites?: boolean;
  } = {},
): Promise<Runtime> {
  fs.mkdirSync(path.join(config.dataDir, 'media'), { recursive: true });
  const masterKey = config.masterKey ? masterKeyFrom(config.masterKey) : loadOrCreateMasterKeyFile(config.dataDir);
  const database = createDatabase(config, { bulkWrites });
  const migrated = { names: [] as string[], ms: 0 };
  try {
    if (wait) await waitForDatabase(database, wait);
    const started = performance.now();
    if (migrate) migrated.names = (await migrateToLatest(database)).map((result) => result.migrationName);
    migrated.ms = Math.round(performance.now() - started);
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    config,
    database,
    masterKey,
    services: createServices(database, masterKey, config),
    migrated,
    close: () => database.close(),
  };
}
