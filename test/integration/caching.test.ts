import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('HTTP caching headers', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...headers } });
  const createPost = (title: string) =>
    ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': key }, payload: { title } });

  it('content GETs carry an ETag and private, no-cache; a matching If-None-Match is a 304 with no body', async () => {
    await createPost('Cached');
    const first = await get(`${EXTERNAL}/posts`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const revalidated = await get(`${EXTERNAL}/posts`, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect((await get(`${EXTERNAL}/posts`, { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304);
  });

  it('a write changes the ETag, so a stale copy is answered in full', async () => {
    const before = (await get(`${EXTERNAL}/posts`)).headers.etag as string;
    await createPost('Another');
    const after = await get(`${EXTERNAL}/posts`, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('errors and writes carry no ETag', async () => {
    const missing = await get(`${EXTERNAL}/posts/no-such-post`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    const created = await createPost('Write');
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toBeUndefined();
  });

  it('api-keys responses are no-store and never 304', async () => {
    const listed = await get(`${EXTERNAL}/api-keys`);
    expect(listed.headers['cache-control']).toBe('no-store');
    expect(listed.headers.etag).toBeUndefined();
    expect((await get(`${EXTERNAL}/api-keys`, { 'if-none-match': '*' })).statusCode).toBe(200);
  });
});
