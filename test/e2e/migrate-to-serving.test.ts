import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { services } from '../helpers/services.js';
import { cli, cliJson, startServer, tempDir, type ServerProcess } from './helpers.js';

/*
 * quire migrate-to against a SQLite installation a server is still serving (issue 35): refused in one line
 * naming the server's pid, before the target is touched, since what the server wrote after the copy's snapshot
 * would be lost. Once the server has stopped, or was killed with SIGKILL and cleaned up nothing, the move runs.
 */

async function tableCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema = 'public'",
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

const skipped = !services.postgresUrl;
(skipped ? describe.skip : describe)(
  `quire migrate-to while a server serves the installation${skipped ? ' [skipped: QUIRE_TEST_DATABASE_URL is not set]' : ''}`,
  () => {
    const dir = tempDir('quire-move-serving-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    const targets: TestDatabase[] = [];
    let server: ServerProcess | undefined;

    afterAll(async () => {
      await server?.stop().catch(() => undefined);
      for (const target of targets) await target.drop();
      dir.remove();
    });

    async function target(): Promise<string> {
      const created = await createTestDatabase('postgres');
      targets.push(created);
      return created.databaseUrl!;
    }

    async function refusedWhileServing(running: ServerProcess, databaseUrl: string): Promise<void> {
      const refused = await cli(['migrate-to', '--database-url', databaseUrl], env);
      expect(refused.code, refused.stdout).not.toBe(0);
      expect(refused.stderr.trim().split('\n'), refused.stderr).toHaveLength(1);
      expect(refused.stderr).toContain(`A Quire server (pid ${running.child.pid}) is serving`);
      expect(refused.stderr).toMatch(/stop it, then run quire migrate-to again/);
      expect(await tableCount(databaseUrl)).toBe(0);
    }

    it('is refused while the server runs, and moves once it has stopped', { timeout: 60_000 }, async () => {
      await cliJson(['migrate'], env);
      server = await startServer(env);
      const databaseUrl = await target();
      await refusedWhileServing(server, databaseUrl);

      await server.stop();
      const moved = await cli(['migrate-to', '--database-url', databaseUrl], env);
      expect(moved.code, moved.stderr).toBe(0);
      expect(await tableCount(databaseUrl)).toBeGreaterThan(0);
    });

    it('is refused while a server runs, and moves once it was killed with SIGKILL', { timeout: 60_000 }, async () => {
      server = await startServer(env);
      const databaseUrl = await target();
      await refusedWhileServing(server, databaseUrl);

      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      const moved = await cli(['migrate-to', '--database-url', databaseUrl], env);
      expect(moved.code, moved.stderr).toBe(0);
      expect(await tableCount(databaseUrl)).toBeGreaterThan(0);
    });
  },
);
