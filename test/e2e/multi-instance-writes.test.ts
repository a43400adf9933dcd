import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { services } from '../helpers/services.js';
import { installWithKey, EXTERNAL, startServer, type Env, type ServerProcess } from './helpers.js';

/*
 * Writes from two instances on one PostgreSQL at once (issue 20's probes; multi-instance.test.ts has
 * revocation and the shared rate limit): counters stay exact, and concurrent PATCHes of different
 * fields of one post all land.
 */

const REPORTS = 200;
const PATCH_ROUNDS = 10;
const TITLE = 'two server processes writing to one PostgreSQL at once';

(services.postgresUrl ? describe : describe.skip)(
  services.postgresUrl ? TITLE : `${TITLE} [skipped: QUIRE_TEST_DATABASE_URL is not set]`,
  () => {
    let database: TestDatabase;
    let a: ServerProcess;
    let b: ServerProcess;
    let key: string;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const env: Env = {
        DATABASE_URL: database.databaseUrl!,
        QUIRE_DATA_DIR: database.dataDir,
        QUIRE_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
        QUIRE_RATE_LIMIT_MAX: '1000000000',
      };
      ({ key } = await installWithKey(env, 'Both'));
      [a, b] = await Promise.all([startServer(env), startServer(env)]);
    });
    afterAll(async () => {
      await Promise.all([a?.stop().catch(() => undefined), b?.stop().catch(() => undefined)]);
      await database?.drop();
    });

    const send = (server: ServerProcess, method: string, url: string, body?: unknown) =>
      server.fetch(`${EXTERNAL}${url}`, {
        method,
        headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    it(`${REPORTS} link-health reports at once through both instances: hitCount is exactly ${REPORTS}`, async () => {
      const answers = await Promise.all(
        Array.from({ length: REPORTS }, (_, i) => send(i % 2 === 0 ? a : b, 'POST', '/link-health', { path: '/gone' })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      const list = (await (await send(a, 'GET', '/link-health')).json()) as { data: Array<{ hitCount: number }> };
      expect(list.data).toHaveLength(1);
      expect(list.data[0]!.hitCount).toBe(REPORTS);
      process.stdout.write(`multi-instance: ${REPORTS} concurrent reports over 2 instances, hitCount exact\n`);
    });

    it('concurrent PATCHes of different fields of one post, through both instances, are all kept', async () => {
      const created = await send(a, 'POST', '/posts', { title: 'Shared' });
      const { id } = (await created.json()) as { id: string };
      for (let round = 0; round < PATCH_ROUNDS; round += 1) {
        const fields = {
          title: `Title ${round}`,
          excerpt: `Excerpt ${round}`,
          summaryForAi: `Summary ${round}`,
          canonicalUrl: `https://example.com/${round}`,
          isHowTo: round % 2 === 0,
          structuredData: { round },
        };
        const answers = await Promise.all(
          Object.entries(fields).map(([field, value], i) =>
            send(i % 2 === 0 ? a : b, 'PATCH', `/posts/${id}`, { [field]: value }),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
        for (const server of [a, b]) {
          const post = (await (await send(server, 'GET', `/posts/${id}`)).json()) as Record<string, unknown>;
          expect(post).toMatchObject(fields);
        }
      }
      process.stdout.write(`multi-instance: ${PATCH_ROUNDS} rounds of 6 concurrent PATCHes of one post, all kept\n`);
    });
  },
);
