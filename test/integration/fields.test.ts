import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/openapi/operations.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { Json } from '../helpers/posts.js';

describeEachDialect('?fields= selects the top-level fields of an answer', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let post: Json;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
    const created = await call('POST', '/posts', { title: 'Selected', excerpt: 'Only some of me' });
    post = created.json() as Json;
    await call('POST', '/authors', { displayName: 'Ada' });
  });
  afterAll(() => ctx?.close());

  function call(method: 'GET' | 'POST', path: string, payload?: Json, headers: Record<string, string> = {}) {
    return ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key, ...headers },
      ...(payload ? { payload } : {}),
    });
  }

  it("a list answers each item with the fields asked for and id, in the answer's order", async () => {
    const response = await call('GET', '/posts?fields=title,slug');
    expect(response.statusCode).toBe(200);
    const page = response.json() as { data: Json[]; total: number };
    expect(page.total).toBe(1);
    expect(page.data).toEqual([{ id: post.id, slug: post.slug, title: post.title }]);
    expect(Object.keys(page.data[0]!)).toEqual(['id', 'slug', 'title']);
    const authors = (await call('GET', '/authors?fields=displayName')).json() as { data: Json[] };
    expect(Object.keys(authors.data[0]!)).toEqual(['id', 'displayName']);
  });

  it('a single read too, by id or slug', async () => {
    expect((await call('GET', `/posts/${post.slug}?fields=excerpt`)).json()).toEqual({
      id: post.id,
      excerpt: 'Only some of me',
    });
  });

  it('an unknown field is a 400 naming it; a malformed list a 400 on /fields', async () => {
    const unknown = await call('GET', '/posts?fields=title,nope,alsoNope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      details: { issues: [{ in: 'query', path: '/fields', message: 'unknown fields: nope, alsoNope' }] },
    });
    for (const bad of ['', 'title,', 'ti-tle', ',title'])
      expect((await call('GET', `/posts?fields=${encodeURIComponent(bad)}`)).statusCode, bad).toBe(400);
  });

  it('each selection has its own ETag, and a 304 of its own', async () => {
    const one = await call('GET', '/posts?fields=title');
    const other = await call('GET', '/posts?fields=slug');
    const whole = await call('GET', '/posts');
    const etags = new Set([one.headers.etag, other.headers.etag, whole.headers.etag]);
    expect(etags.size).toBe(3);
    const again = await call('GET', '/posts?fields=title', undefined, { 'if-none-match': String(one.headers.etag) });
    expect(again.statusCode).toBe(304);
    // Served from the response cache the second time: still the selection.
    expect((await call('GET', '/posts?fields=title')).json()).toEqual(one.json());
  });

  it('every read of the external API takes it', () => {
    const reads = Object.keys(OPERATIONS).filter(
      (operation) => operation.startsWith('GET ') && !operation.includes('openapi'),
    );
    const document = ctx.app.swagger() as { paths: Record<string, Record<string, { parameters?: Json[] }>> };
    const missing = reads.filter((operation) => {
      const [, path] = operation.split(' ');
      const openApiPath = path!.replace(/:(\w+)/g, '{$1}');
      return !(document.paths[openApiPath]?.get?.parameters ?? []).some((p) => p.name === 'fields');
    });
    expect(missing).toEqual([]);
  });
});
