import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { png } from '../helpers/media.js';
import { services } from '../helpers/services.js';
import {
  cli,
  cliJson,
  EXTERNAL,
  oneLineFailure,
  startServer,
  tempDir,
  type Env,
  type ServerProcess,
} from './helpers.js';

/*
 * quire backup of a running installation under concurrent writes, and quire restore of it into an empty
 * data dir (issue 25): the restored database passes integrity_check, every post acknowledged before the
 * backup began is in it, the media file is served with its bytes, and the old key works and reveals.
 */

const WRITERS = 4;
const run = promisify(execFile);

interface Installation {
  env: Env;
  key: string;
  keyId: string;
}

async function install(env: Env): Promise<Installation> {
  await cliJson(['migrate'], env);
  await cliJson(['user', 'create', '--email', 'ops@example.com', '--password-stdin'], env, 'long password 1\n');
  await cliJson(['workspace', 'create', '--name', 'Ops', '--owner', 'ops@example.com'], env);
  const key = await cliJson<{ key: string; id: string }>(
    ['key', 'create', '--workspace', 'ops', '--email', 'ops@example.com', '--name', 'Writer'],
    env,
  );
  return { env, key: key.key, keyId: key.id };
}

async function uploadPicture(server: ServerProcess, key: string): Promise<{ url: string; bytes: Buffer }> {
  const bytes = png(8, 5);
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'picture.png');
  const response = await server.fetch(`${EXTERNAL}/media`, {
    method: 'POST',
    headers: { 'X-API-Key': key },
    body: form,
  });
  expect(response.status).toBe(201);
  return { url: ((await response.json()) as { url: string }).url, bytes };
}

describe('quire backup under write load and quire restore [sqlite]', () => {
  const dir = tempDir('quire-backup-');
  const file = path.join(dir.root, 'quire.backup.tgz');
  const restoredDir = path.join(dir.root, 'restored');
  let installation: Installation;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    installation = await install({ QUIRE_DATA_DIR: dir.dataDir, QUIRE_RATE_LIMIT_MAX: '1000000000' });
  });
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it(
    'keeps every write acknowledged before it began, and a restored copy passes integrity_check',
    { timeout: 120_000 },
    async () => {
      const { env, key, keyId } = installation;
      server = await startServer(env);
      const running = server;
      const picture = await uploadPicture(running, key);
      const acknowledged: Array<{ id: string; at: number }> = [];
      let stop = false;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i += 1) {
          const response = await running.fetch(`${EXTERNAL}/posts`, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              title: `Load ${n}-${i} ${crypto.randomBytes(3).toString('hex')}`,
              excerpt: 'x'.repeat(500),
            }),
          });
          const body = (await response.json()) as { id: string };
          expect(response.status).toBe(201);
          acknowledged.push({ id: body.id, at: Date.now() });
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
      // Some writes acknowledged before the backup begins, however loaded the machine (a fixed wait was not).
      for (const deadline = Date.now() + 30_000; acknowledged.length < WRITERS * 5 && Date.now() < deadline;)
        await sleep(50);
      const began = Date.now();
      const backup = await cli(['backup', '--out', file, '--json'], env);
      const writtenDuringBackup = acknowledged.filter((write) => write.at > began).length;
      stop = true;
      await Promise.all(writers);
      await running.stop();
      server = undefined;

      expect(backup.code, backup.stderr).toBe(0);
      const summary = JSON.parse(backup.stdout) as {
        databaseBytes: number;
        mediaFiles: number;
        masterKeyIncluded: boolean;
      };
      expect(summary).toMatchObject({ mediaFiles: 1, masterKeyIncluded: true });
      expect(summary.databaseBytes).toBeGreaterThan(0);
      // The server kept acknowledging writes while the backup ran.
      expect(writtenDuringBackup).toBeGreaterThan(0);

      const restored = await cli(['restore', file, '--json'], { QUIRE_DATA_DIR: restoredDir });
      expect(restored.code, restored.stderr).toBe(0);
      const sqlite = new BetterSqlite3(path.join(restoredDir, 'quire.sqlite'), { fileMustExist: true });
      const integrity = String(sqlite.pragma('integrity_check', { simple: true }));
      sqlite.close();
      expect(integrity).toBe('ok');

      server = await startServer({ ...env, QUIRE_DATA_DIR: restoredDir });
      const before = acknowledged.filter((write) => write.at <= began);
      expect(before.length).toBeGreaterThan(0);
      for (const { id } of before) {
        const response = await server.fetch(`${EXTERNAL}/posts/${id}`, { headers: { 'X-API-Key': key } });
        expect(response.status, `post ${id}, acknowledged before the backup began`).toBe(200);
        await response.arrayBuffer();
      }
      const media = await server.fetch(new URL(picture.url).pathname);
      expect(media.status).toBe(200);
      expect(Buffer.from(await media.arrayBuffer()).equals(picture.bytes)).toBe(true);
      const reveal = await server.fetch(`${EXTERNAL}/api-keys/${keyId}/reveal`, {
        method: 'POST',
        headers: { 'X-API-Key': key },
      });
      expect(reveal.status).toBe(200);
      expect(((await reveal.json()) as { key: string }).key).toBe(key);
      process.stdout.write(
        `backup [sqlite]: ${before.length} posts acknowledged before it began all restored; ${writtenDuringBackup} acknowledged while it ran\n`,
      );
    },
  );

  it('refuses with one line to restore into a data dir that is not empty, or a damaged backup, changing nothing', async () => {
    const busy = await cli(['restore', file], { QUIRE_DATA_DIR: restoredDir });
    expect(oneLineFailure(busy), JSON.stringify(busy)).toBe(true);
    expect(busy.stderr).toMatch(/is not empty: restore into an empty or new data dir/);

    const damaged = path.join(dir.root, 'damaged.tgz');
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(damaged, bytes.subarray(0, bytes.length - 4096));
    const fresh = path.join(dir.root, 'never');
    const refused = await cli(['restore', damaged], { QUIRE_DATA_DIR: fresh });
    expect(oneLineFailure(refused), JSON.stringify(refused)).toBe(true);
    expect(refused.stderr).toMatch(/is damaged: /);
    expect(fs.existsSync(fresh)).toBe(false);
    expect(fs.readdirSync(dir.root).filter((name) => name.includes('restoring'))).toEqual([]);
  });
});

(services.postgresUrl ? describe : describe.skip)(
  `quire backup and restore on PostgreSQL${services.postgresUrl ? '' : ' [skipped: QUIRE_TEST_DATABASE_URL is not set]'}`,
  () => {
    const dir = tempDir('quire-backup-pg-');
    let database: TestDatabase;
    let installation: Installation;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      installation = await install({ QUIRE_DATA_DIR: dir.dataDir, DATABASE_URL: database.databaseUrl! });
    });
    afterAll(async () => {
      await database?.drop();
      dir.remove();
    });

    it('backs up the media files and master.key, says to pg_dump the database, and restores them', async () => {
      const { env, key, keyId } = installation;
      const server = await startServer(env);
      const picture = await uploadPicture(server, key);
      await server.stop();
      const file = path.join(dir.root, 'pg.backup.tgz');
      const backup = await cli(['backup', '--out', file], env);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(
        /1 media files, master\.key\.\nThe PostgreSQL database is not in it: back it up with pg_dump/,
      );

      const restoredDir = path.join(dir.root, 'restored');
      const restored = await cli(['restore', file], { ...env, QUIRE_DATA_DIR: restoredDir });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/Restore the PostgreSQL database from its pg_dump with pg_restore/);
      expect(fs.readFileSync(path.join(restoredDir, 'master.key'))).toEqual(
        fs.readFileSync(path.join(dir.dataDir, 'master.key')),
      );
      const [, workspace, media, name] = new URL(picture.url).pathname.split('/').slice(1);
      expect(fs.readFileSync(path.join(restoredDir, 'media', workspace!, media!, name!))).toEqual(picture.bytes);

      // The database the way docs/operate.md says: pg_dump, then pg_restore into an empty database.
      if (!fs.existsSync('/usr/bin/pg_dump')) return;
      const dump = path.join(dir.root, 'quire.pgdump');
      await run('/usr/bin/pg_dump', ['--format=custom', `--file=${dump}`, database.databaseUrl!]);
      const copy = await createTestDatabase('postgres');
      try {
        await run('/usr/bin/pg_restore', ['--no-owner', `--dbname=${copy.databaseUrl!}`, dump]);
        const server = await startServer({ ...env, QUIRE_DATA_DIR: restoredDir, DATABASE_URL: copy.databaseUrl! });
        try {
          const file = await server.fetch(new URL(picture.url).pathname);
          expect(Buffer.from(await file.arrayBuffer()).equals(picture.bytes)).toBe(true);
          const reveal = await server.fetch(`${EXTERNAL}/api-keys/${keyId}/reveal`, {
            method: 'POST',
            headers: { 'X-API-Key': key },
          });
          expect(((await reveal.json()) as { key: string }).key).toBe(key);
          const tag = await server.fetch(`${EXTERNAL}/tags`, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: 'After the restore' }),
          });
          expect(tag.status).toBe(201);
        } finally {
          await server.stop();
        }
      } finally {
        await copy.drop();
      }
    });
  },
);
