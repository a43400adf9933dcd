import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('the response cache', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const get = (app: TestContext['app'], url: string) =>
    app.inject({ method: 'GET', url: `${EXTERNAL}${url}`, headers: { 'x-api-key': key } });
  const cost = async (app: TestContext['app'], url: string) => {
    const before = ctx.runtime.database.stats.queries;
    const response = await get(app, url);
    expect(response.statusCode).toBe(200);
    return { queries: ctx.runtime.database.stats.queries - before, body: response.body, etag: response.headers.etag };
  };
  const create = (title: string) =>
    ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': key }, payload: { title } });

  it('answers a repeated GET with the authentication query alone, the same bytes and ETag', async () => {
    await create('First');
    const cold = await cost(ctx.app, '/posts');
    const warm = await cost(ctx.app, '/posts');
    expect(cold.queries).toBeGreaterThan(1);
    expect(warm.queries).toBe(1);
    expect(warm.body).toBe(cold.body);
    expect(warm.etag).toBe(cold.etag);
    // A different query string is a different answer.
    expect((await cost(ctx.app, '/posts?pageSize=5')).queries).toBeGreaterThan(1);
  });

  it('is never stale: a write, even through another instance on the same database, shows on the next read', async () => {
    await cost(ctx.app, '/posts');
    const other = await buildApp({
      config: ctx.config,
      database: ctx.runtime.database,
      masterKey: ctx.runtime.masterKey,
      logger: false,
    });
    try {
      const created = await other.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': key },
        payload: { title: 'Written elsewhere' },
      });
      expect(created.statusCode).toBe(201);
      const after = await get(ctx.app, '/posts');
      expect(after.json().data.map((p: { title: string }) => p.title)).toContain('Written elsewhere');
    } finally {
      await other.close();
    }
  });

  it('keeps link-health lists out of it: reports change them without a content write', async () => {
    const report = () =>
      ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/link-health`,
        headers: { 'x-api-key': key },
        payload: { path: '/gone' },
      });
    await report();
    const first = await get(ctx.app, '/link-health');
    await report();
    const second = await get(ctx.app, '/link-health');
    expect(first.json().data[0].hitCount).toBe(1);
    expect(second.json().data[0].hitCount).toBe(2);
  });

  it('is off with QUIRE_RESPONSE_CACHE_MB=0', async () => {
    const off = await buildTestApp(dialect, { env: { QUIRE_RESPONSE_CACHE_MB: '0' } });
    try {
      const owner = await off.ownerKey();
      const run = async () => {
        const before = off.runtime.database.stats.queries;
        await off.app.inject({ method: 'GET', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': owner.key } });
        return off.runtime.database.stats.queries - before;
      };
      const first = await run();
      expect(await run()).toBe(first);
      expect(first).toBeGreaterThan(1);
    } finally {
      await off.close();
    }
  });
});
