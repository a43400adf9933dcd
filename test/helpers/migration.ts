import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateTo } from '../../src/db/migrate.js';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/** Rows of a schema the application's types no longer describe: tables and columns by name. */
export type UntypedDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * For a test of the migrations after `migration`: a database of the file's own, migrated that far, with one
 * user owning one workspace. Rows go in through `raw()`, as the code of that time wrote them.
 */
export function databaseAtMigration(dialect: DialectName, migration: string) {
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  const now = new Date().toISOString();
  const userId = crypto.randomUUID();
  const workspaceId = crypto.randomUUID();
  const raw = () => handle!.db as unknown as UntypedDb;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = createDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    await migrateTo(handle, migration);
    await raw()
      .insertInto('users')
      .values({ id: userId, email: 'owner@example.com', password_hash: null, created_at: now, updated_at: now })
      .execute();
    await raw()
      .insertInto('workspaces')
      .values({ id: workspaceId, name: 'W', slug: 'w', owner_user_id: userId, created_at: now, updated_at: now })
      .execute();
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  return { now, userId, workspaceId, raw, handle: () => handle! };
}
