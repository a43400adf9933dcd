import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { services } from '../helpers/services.js';

/*
 * A connection that PostgreSQL ends while the application holds it (a restart, a failover, an operator's
 * pg_terminate_backend): the connection's 'error' event must be heard (unheard, it ends the process, and Vitest
 * reports it as an unhandled error of this file), the work on it must fail with an error the API answers 503,
 * and the next query must get a fresh connection. Only this test's own connections are ended.
 */

const title = 'a PostgreSQL connection ended under the application';
(services.postgresUrl ? describe : describe.skip)(
  services.postgresUrl ? `${title} [postgres]` : `${title} [postgres: skipped, QUIRE_TEST_DATABASE_URL is not set]`,
  () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let admin: pg.Client;
    const unheard: unknown[] = [];
    const hear = (error: unknown) => unheard.push(error);

    beforeAll(async () => {
      process.on('uncaughtException', hear);
      database = await createTestDatabase('postgres');
      handle = createDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      admin = new pg.Client({ connectionString: database.databaseUrl! });
      await admin.connect();
    });
    afterAll(async () => {
      process.off('uncaughtException', hear);
      await admin?.end();
      await handle?.close();
      await database?.drop();
    });

    const backendPid = async (executor: DatabaseHandle['db']) =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(executor)).rows[0]!.pid;

    it('in the middle of a transaction: the transaction fails as unavailable, and the next query succeeds', async () => {
      const failure = await handle.db
        .transaction()
        .execute(async (trx) => {
          await admin.query('select pg_terminate_backend($1)', [await backendPid(trx)]);
          // Between two statements the connection is checked out of the pool, and only its own listener hears it.
          await sleep(200);
          await sql`select 1`.execute(trx);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(unheard).toEqual([]);
      expect(failure).not.toBeNull();
      expect(handle.dialect.unavailable(failure)).toMatch(/^(shutting_down|connection_lost)$/);
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
    });

    it('while idle in the pool: the next query gets a fresh connection', async () => {
      const pid = await backendPid(handle.db);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      await sleep(200);
      expect(await backendPid(handle.db)).not.toBe(pid);
      expect(unheard).toEqual([]);
    });
  },
);
