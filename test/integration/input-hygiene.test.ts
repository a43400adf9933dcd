import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

/** Every list route of the external API. */
const LIST_ROUTES = [
  '/posts',
  '/pages',
  '/media',
  '/authors',
  '/categories',
  '/tags',
  '/redirects',
  '/link-health',
  '/api-keys',
];

/** `{"a": {"a": … value …}}`, `levels` objects deep. */
function nested(levels: number, value: unknown = 1): unknown {
  let built = value;
  for (let i = 0; i < levels; i += 1) built = { a: built };
  return built;
}

describeEachDialect('input the database could not store is a 400, alike on both dialects', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: string) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload }),
    });

  it('a NUL character in a body, a query string or a path parameter', async () => {
    const body = await send('POST', '/posts', JSON.stringify({ title: 'ok', excerpt: 'bad\u0000text' }));
    expect(body.statusCode).toBe(400);
    expect(body.json().details).toMatchObject({ reason: 'nul_character', issues: [{ path: '/excerpt' }] });
    const nested = await send(
      'POST',
      '/posts',
      JSON.stringify({ title: 'ok', structuredData: { a: ['x', 'y\u0000'] } }),
    );
    expect(nested.json().details.issues[0].path).toBe('/structuredData/a/1');
    const query = await send('GET', '/posts?q=a%00b');
    expect(query.statusCode).toBe(400);
    expect(query.json().details.issues[0]).toMatchObject({ in: 'query', path: '/q' });
    expect((await send('GET', '/posts/a%00b')).statusCode).toBe(400);
    // A literal backslash-u in text is not a NUL.
    expect((await send('POST', '/posts', JSON.stringify({ title: 'C:\\u0000 is a path' }))).statusCode).toBe(201);
  });

  it('date-times a Date or PostgreSQL cannot hold: a leap second, year 0, past 9999', async () => {
    for (const publishedAt of ['2016-12-31T23:59:60Z', '0000-06-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
      const response = await send('POST', '/posts', JSON.stringify({ title: 'dated', publishedAt }));
      expect(response.statusCode, publishedAt).toBe(400);
      expect(response.json().details.issues[0].path).toBe('/publishedAt');
    }
    expect((await send('GET', '/posts?dateFrom=2016-12-31T23:59:60Z')).statusCode).toBe(400);
    expect(
      (
        await send('POST', '/posts', JSON.stringify({ title: 'dated', publishedAt: '2024-02-29T12:00:00+02:00' }))
      ).json().publishedAt,
    ).toBe('2024-02-29T10:00:00.000Z');
  });

  it('a UUID-shaped slug on any resource', async () => {
    const slug = '3f2b1c4d-1111-4222-8333-944445555666';
    for (const [url, payload] of [
      ['/posts', { title: 't', slug }],
      ['/tags', { name: 't', slug }],
      ['/authors', { displayName: 't', slug }],
      ['/categories', { name: 't', slug }],
      ['/pages', { title: 't', slug }],
    ] as const) {
      const response = await send('POST', url, JSON.stringify(payload));
      expect(response.statusCode, url).toBe(400);
      expect(response.json().details.issues[0]).toMatchObject({
        path: '/slug',
        message: 'must not be shaped like a UUID',
      });
    }
  });

  it('a lone UTF-16 surrogate in any text or JSON field', async () => {
    const before = (await send('GET', '/posts')).json().total as number;
    const writes: Array<[string, string]> = [
      ['/posts', '{"title":"ok","seo":{"title":"\\ud800"}}'],
      ['/posts', '{"title":"ok","structuredData":{"name":"\\udc00 low"}}'],
      ['/posts', '{"title":"ok","bodyJson":[{"type":"paragraph","text":"a \\ud83d b"}]}'],
      ['/posts', '{"title":"x\\ud800"}'],
      ['/pages', '{"title":"ok","seo":{"description":"\\ud800"}}'],
      ['/authors', '{"displayName":"ok","person":{"jobTitle":"\\udfff"}}'],
      ['/categories', '{"name":"\\ud800"}'],
      ['/tags', '{"name":"ok","seo":{"og":{"title":"\\ud800"}}}'],
      ['/redirects', '{"fromPath":"/a\\ud800","toPath":"/b"}'],
    ];
    const paths = [
      '/seo/title',
      '/structuredData/name',
      '/bodyJson/0/text',
      '/title',
      '/seo/description',
      '/person/jobTitle',
      '/name',
      '/seo/og/title',
      '/fromPath',
    ];
    for (const [index, [url, payload]] of writes.entries()) {
      const response = await send('POST', url, payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().details, payload).toMatchObject({
        reason: 'lone_surrogate',
        issues: [{ in: 'body', path: paths[index] }],
      });
    }
    // A member name counts as text too; it is named by the object that holds it.
    const key = await send('POST', '/posts', '{"title":"ok","structuredData":{"x":{"\\ud800":1}}}');
    expect(key.json().details.issues[0].path).toBe('/structuredData/x');
    // A pair, escaped or not, is one character and is stored as sent.
    const pair = await send('POST', '/posts', '{"title":"grin \\ud83d\\ude00 😀","seo":{"title":"\\ud83d\\ude00"}}');
    expect(pair.statusCode, pair.body).toBe(201);
    expect(pair.json()).toMatchObject({ title: 'grin 😀 😀', seo: { title: '😀' } });
    const read = await send('GET', `/posts/${pair.json().id}`);
    expect(read.json()).toMatchObject({ title: 'grin 😀 😀', seo: { title: '😀' } });
    // Nothing was stored by the refused writes.
    expect((await send('GET', '/posts')).json().total).toBe(before + 1);
    // A URL cannot carry one (its percent-encoding is UTF-8): the encoded surrogate is no 500 either.
    expect((await send('GET', '/posts?q=%ED%A0%80')).statusCode).toBe(200);
    expect((await send('GET', '/posts/%ED%A0%80')).statusCode).toBe(400);
  });

  it('free-form JSON nested deeper than 32 levels is refused at validation, naming the path', async () => {
    const deep = await send('POST', '/posts', JSON.stringify({ title: 'deep', structuredData: nested(3000) }));
    expect(deep.statusCode).toBe(400);
    expect(deep.json().details.issues[0]).toEqual({
      in: 'body',
      path: `/structuredData${'/a'.repeat(32)}`,
      message: 'nests deeper than 32 levels',
    });
    // Arrays count as levels too, wherever they sit; so does a PATCH.
    const created = await send('POST', '/posts', JSON.stringify({ title: 'edge', structuredData: nested(31) }));
    expect(created.statusCode, created.body).toBe(201);
    const arrays = await send(
      'PATCH',
      `/posts/${created.json().id}`,
      JSON.stringify({ structuredData: { list: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) } }),
    );
    expect(arrays.statusCode).toBe(400);
    expect(arrays.json().details.issues[0].path).toBe(`/structuredData/list${'/0'.repeat(31)}`);
    const listed = await send('GET', '/posts?q=edge');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data[0].structuredData).toEqual(nested(31));
    // A deep body anywhere else is refused by its schema without a walk that could overflow the stack.
    const elsewhere = await send('POST', '/posts', `{"title":"t","seo":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect(elsewhere.statusCode).toBe(400);
    const nulDeep = await send(
      'POST',
      '/posts',
      `{"title":"t","x":${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}}`,
    );
    expect(nulDeep.statusCode).toBe(400);
    expect((await send('GET', '/posts?q=deep')).json().total).toBe(0);
  });

  it('integer query parameters out of range or not finite, on every list route', async () => {
    for (const route of LIST_ROUTES) {
      for (const query of [
        'page=1e20',
        'page=9999999999999999999',
        'page=2147483648',
        'page=1e309',
        'page=-1e309',
        'pageSize=1e309',
        'pageSize=-1e309',
      ]) {
        const response = await send('GET', `${route}?${query}`);
        expect(response.statusCode, `${route}?${query}`).toBe(400);
        expect(response.json().details.issues[0], `${route}?${query}`).toMatchObject({
          in: 'query',
          path: `/${query.split('=')[0]}`,
        });
      }
      // The largest page is a page like any other: past the end, empty, with the true total.
      const last = await send('GET', `${route}?page=2147483647&pageSize=100`);
      expect(last.statusCode, route).toBe(200);
      expect(last.json()).toMatchObject({ data: [], page: 2147483647, pageSize: 100 });
    }
  });
});
