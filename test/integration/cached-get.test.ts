import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

/*
 * Over real HTTP a cached GET is answered by the fast path in front of Fastify (src/server/cached-get.ts);
 * `inject` always goes through Fastify. Each check compares the two, or holds the fast path to what
 * the hooks it stands in for guarantee: one count per request, a key resolved afresh, the permission.
 */
const MAX = 1000;

describeEachDialect('cached GETs over HTTP', (dialect) => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, {
      env: { QUIRE_RATE_LIMIT_MAX: String(MAX), QUIRE_RATE_LIMIT_WINDOW_MS: '600000' },
    });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}${EXTERNAL}`;
  });
  afterAll(() => ctx?.close());

  const fetchGet = (key: string, path: string, headers: Record<string, string> = {}) =>
    // Identity: these compare the fast path's answers with Fastify's byte for byte (compression.test.ts has the rest).
    fetch(`${base}${path}`, { headers: { 'x-api-key': key, 'accept-encoding': 'identity', ...headers } });
  const queries = () => ctx.runtime.database.stats.queries;
  /** Headers that differ between any two answers, whoever writes them. */
  const VARYING = new Set([
    'date',
    'x-request-id',
    'ratelimit-remaining',
    'ratelimit-reset',
    'connection',
    'keep-alive',
    'transfer-encoding',
  ]);
  const stable = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !VARYING.has(name.toLowerCase())));

  it('answers with the bytes and headers Fastify gives, for one query, counted once', async () => {
    const { key, workspace } = await ctx.ownerKey();
    await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/posts`,
      headers: { 'x-api-key': key },
      payload: { title: 'Cached' },
    });
    const first = await fetchGet(key, '/posts');
    const firstBody = await first.text();
    const before = queries();
    const second = await fetchGet(key, '/posts');
    const secondBody = await second.text();
    expect(queries() - before).toBe(1);
    expect(secondBody).toBe(firstBody);
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(
      Number(first.headers.get('ratelimit-remaining')) - 1,
    );

    const viaFastify = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': key } });
    expect(viaFastify.body).toBe(secondBody);
    expect(stable(Object.fromEntries(second.headers))).toEqual(stable(viaFastify.headers));
    expect(second.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const etag = second.headers.get('etag')!;
    const revalidated = await fetchGet(key, '/posts', { 'if-none-match': etag });
    const revalidatedViaFastify = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/posts`,
      headers: { 'x-api-key': key, 'if-none-match': etag },
    });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidatedViaFastify.statusCode).toBe(304);
    expect(stable(Object.fromEntries(revalidated.headers))).toEqual(stable(revalidatedViaFastify.headers));
    expect(workspace.id).toBeTruthy();
  });

  it('resolves the key afresh: a revoked key and a withdrawn permission are refused at once', async () => {
    const { key, keyId, workspace, user } = await ctx.memberKey(['posts:read', 'tags:read']);
    const { key: ownerKey } = await ctx.createKey(workspace, workspace.owner);
    expect((await fetchGet(key, '/tags')).status).toBe(200);
    expect((await fetchGet(key, '/tags')).status).toBe(200);
    await ctx.setPermissions(workspace, user, ['posts:read']);
    const forbidden = await fetchGet(key, '/tags');
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { code: string }).code).toBe('FORBIDDEN');
    expect((await fetchGet(key, '/posts')).status).toBe(200);
    const revoked = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/api-keys/${keyId}/revoke`,
      headers: { 'x-api-key': ownerKey },
    });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    const before = queries();
    const refused = await fetchGet(key, '/posts');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    // The key is looked up once, by the fast path; Fastify answers with its refusal.
    expect(queries() - before).toBe(1);
    expect(ownerKey).not.toBe(key);
  });

  it('counts every request once, cached or not, and refuses the one over the limit', async () => {
    // A fresh instance, so that the earlier tests' requests are not in its count.
    const limited = await buildTestApp(dialect, {
      env: { QUIRE_RATE_LIMIT_MAX: '3', QUIRE_RATE_LIMIT_WINDOW_MS: '600000' },
    });
    try {
      await limited.app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}${EXTERNAL}/posts`;
      const { key } = await limited.ownerKey();
      const statuses = [];
      const remaining = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await fetch(url, { headers: { 'x-api-key': key } });
        statuses.push(response.status);
        remaining.push(response.headers.get('ratelimit-remaining'));
        if (response.status === 429) expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(remaining).toEqual(['2', '1', '0', '0']);
    } finally {
      await limited.close();
    }
  });

  it('behind a trusted proxy, counts each client by its forwarded address, cached answers too', async () => {
    const proxied = await buildTestApp(dialect, {
      env: { QUIRE_RATE_LIMIT_MAX: '3', QUIRE_RATE_LIMIT_WINDOW_MS: '600000', QUIRE_TRUST_PROXY: 'true' },
    });
    try {
      await proxied.app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(proxied.app.server.address() as AddressInfo).port}${EXTERNAL}/posts`;
      const { key } = await proxied.ownerKey();
      const remaining = async (client: string) => {
        const response = await fetch(url, { headers: { 'x-api-key': key, 'x-forwarded-for': client } });
        expect(response.status).toBe(200);
        return response.headers.get('ratelimit-remaining');
      };
      // Same socket address for all three; a count by socket would give 2, 1, 0.
      expect([await remaining('203.0.113.1'), await remaining('203.0.113.1'), await remaining('203.0.113.2')]).toEqual([
        '2',
        '1',
        '2',
      ]);
    } finally {
      await proxied.close();
    }
  });

  it('logs a cached answer as any other: one line under the request id, at the answer', async () => {
    const { key } = await ctx.ownerKey();
    await fetchGet(key, '/authors');
    const answer = await fetchGet(key, '/authors');
    const id = answer.headers.get('x-request-id');
    const lines = ctx.logs.filter((line) => line.reqId === id);
    expect(lines.map((line) => line.msg)).toEqual(['request completed']);
    expect(lines[0]).toMatchObject({
      req: { method: 'GET', url: `${EXTERNAL}/authors` },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('a request the cache cannot answer is decided once: one key lookup, as through Fastify alone', async () => {
    const { key } = await ctx.ownerKey();
    const cost = async (request: () => Promise<unknown>) => {
      const before = queries();
      await request();
      return queries() - before;
    };
    // A missing post misses the cache every time; over HTTP the fast path looks first and hands it on.
    const overHttp = await cost(async () => expect((await fetchGet(key, '/posts/no-such-post')).status).toBe(404));
    const throughFastify = await cost(async () =>
      expect(
        (await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts/no-such-post`, headers: { 'x-api-key': key } }))
          .statusCode,
      ).toBe(404),
    );
    expect(overHttp).toBe(throughFastify);
    const refused = await fetchGet('quire_live_not-a-key', '/posts');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(MAX));
  });
});
