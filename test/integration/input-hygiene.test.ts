import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('input the database could not store is a 400, alike on both dialects', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const send = (method: 'GET' | 'POST', url: string, payload?: string) =>
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
});
