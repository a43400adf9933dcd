import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { services } from '../helpers/services.js';
import { cliJson, EXTERNAL, startServer, type Env, type ServerProcess } from './helpers.js';

// Other suites use Redis too; this one owns a logical database of its own, so its FLUSHDB and its
// rate-limit bucket (keyed by client address, 127.0.0.1 for everyone here) touch nobody else's.
const REDIS_DB = 4;
const RATE_LIMIT_MAX = 10;

const missing = [
  !services.postgresUrl && 'QUIRE_TEST_DATABASE_URL',
  !services.redisUrl && 'QUIRE_TEST_REDIS_URL',
].filter((name): name is string => typeof name === 'string');
const TITLE = 'two server processes on one PostgreSQL and one Redis';
const suite = missing.length === 0 ? describe : describe.skip;

suite(
  missing.length === 0
    ? TITLE
    : `${TITLE} [skipped: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set]`,
  () => {
    let database: TestDatabase;
    let redis: Redis;
    let env: Env;
    let a: ServerProcess;
    let b: ServerProcess;
    let ownerKey: string;
    let editorKey: string;
    let workspace: string;

    beforeAll(async () => {
      const redisUrl = new URL(services.redisUrl!);
      redisUrl.pathname = `/${REDIS_DB}`;
      redis = new Redis(redisUrl.toString(), { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
      await redis.connect();
      await redis.flushdb();

      database = await createTestDatabase('postgres');
      env = {
        DATABASE_URL: database.databaseUrl!,
        // Both instances share the data dir, as they would share media storage behind a load balancer.
        QUIRE_DATA_DIR: database.dataDir,
        QUIRE_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
        REDIS_URL: redisUrl.toString(),
        QUIRE_RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      };

      // Migrating first is the deploy step; the instances then start together on an up-to-date schema.
      await cliJson(['migrate'], env);
      await cliJson(
        ['user', 'create', '--email', 'owner@example.com', '--password-stdin'],
        env,
        'correct horse battery staple\n',
      );
      await cliJson(
        ['user', 'create', '--email', 'editor@example.com', '--password-stdin'],
        env,
        'correct horse battery staple\n',
      );
      workspace = (
        await cliJson<{ slug: string }>(
          ['workspace', 'create', '--name', 'Scale Out', '--owner', 'owner@example.com'],
          env,
        )
      ).slug;
      await cliJson(
        [
          'member',
          'add',
          '--workspace',
          workspace,
          '--email',
          'editor@example.com',
          '--permissions',
          'posts:read,api-keys:read',
        ],
        env,
      );
      ownerKey = (
        await cliJson<{ key: string }>(
          ['key', 'create', '--workspace', workspace, '--email', 'owner@example.com', '--name', 'Owner'],
          env,
        )
      ).key;
      editorKey = (
        await cliJson<{ key: string }>(
          ['key', 'create', '--workspace', workspace, '--email', 'editor@example.com', '--name', 'Editor'],
          env,
        )
      ).key;

      [a, b] = await Promise.all([startServer(env), startServer(env)]);
    });

    afterAll(async () => {
      await Promise.all([a?.stop().catch(() => undefined), b?.stop().catch(() => undefined)]);
      await redis?.flushdb().catch(() => undefined);
      redis?.disconnect();
      await database?.drop();
    });

    // Every external request counts against the one shared bucket, so each test starts from an empty one.
    beforeEach(async () => {
      await redis.flushdb();
    });

    const get = (server: ServerProcess, key: string) =>
      server.fetch(`${EXTERNAL}/api-keys`, { headers: { 'X-API-Key': key } });
    const diagnostics = () => `A stderr: ${a.stderr()}\nB stderr: ${b.stderr()}`;

    it('a key revoked through instance A is refused by instance B on the next request', async () => {
      const created = await a.fetch(`${EXTERNAL}/api-keys`, {
        method: 'POST',
        headers: { 'X-API-Key': ownerKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Short-lived' }),
      });
      expect(created.status, diagnostics()).toBe(201);
      const { id, key } = (await created.json()) as { id: string; key: string };
      expect((await get(b, key)).status).toBe(200);

      const revoked = await a.fetch(`${EXTERNAL}/api-keys/${id}/revoke`, {
        method: 'POST',
        headers: { 'X-API-Key': ownerKey },
      });
      expect(revoked.status).toBe(200);
      expect(await revoked.json()).toMatchObject({ id, status: 'Revoked' });

      expect((await get(b, key)).status).toBe(401);
    });

    it('a permission edit applies on instance B at once', async () => {
      expect((await get(b, editorKey)).status).toBe(200);
      await cliJson(
        [
          'member',
          'set-permissions',
          '--workspace',
          workspace,
          '--email',
          'editor@example.com',
          '--permissions',
          'posts:read',
        ],
        env,
      );
      expect((await get(b, editorKey)).status).toBe(403);
      expect((await get(a, editorKey)).status).toBe(403);
      await cliJson(
        [
          'member',
          'set-permissions',
          '--workspace',
          workspace,
          '--email',
          'editor@example.com',
          '--permissions',
          'posts:read,api-keys:read',
        ],
        env,
      );
      expect((await get(b, editorKey)).status).toBe(200);
    });

    it('the rate-limit bucket is shared: alternating between A and B, the 11th request overall is refused', async () => {
      const seen: Array<{ status: number; remaining: string | null }> = [];
      for (let i = 0; i < RATE_LIMIT_MAX + 1; i += 1) {
        const response = await get(i % 2 === 0 ? a : b, ownerKey);
        seen.push({ status: response.status, remaining: response.headers.get('ratelimit-remaining') });
        if (i === RATE_LIMIT_MAX) {
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(await response.json()).toMatchObject({ code: 'RATE_LIMITED' });
        } else {
          await response.body?.cancel();
        }
      }
      const expected = Array.from({ length: RATE_LIMIT_MAX + 1 }, (_, i) => ({
        status: i < RATE_LIMIT_MAX ? 200 : 429,
        remaining: String(Math.max(0, RATE_LIMIT_MAX - (i + 1))),
      }));
      expect(seen, diagnostics()).toEqual(expected);
    });

    it('both instances close gracefully on SIGTERM', async () => {
      const [exitA, exitB] = await Promise.all([a.stop(), b.stop()]);
      expect(exitA, a.stderr()).toEqual({ code: 0, signal: null });
      expect(exitB, b.stderr()).toEqual({ code: 0, signal: null });
    });
  },
);
