import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { expectError, expectIssue, paragraph, type Json } from '../helpers/posts.js';

/*
 * Optimistic concurrency on PATCH of a post or a page: `If-Match: "<updatedAt>"` as last read, and a 409
 * `CONFLICT` with `details.reason = "stale"` when the resource moved since. Without the header, as before.
 */
describeEachDialect('PATCH with If-Match', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const send = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: Json, headers: Json = {}) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key, ...(headers as Record<string, string>) },
      ...(payload === undefined ? {} : { payload }),
    });
  const version = (resource: { updatedAt: string }) => `"${resource.updatedAt}"`;

  for (const kind of ['posts', 'pages'] as const) {
    it(`${kind}: a PATCH based on the version read succeeds and moves the version`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Base' })).json();
      const first = await send('PATCH', `/${kind}/${created.id}`, { title: 'First' }, { 'if-match': version(created) });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().updatedAt > created.updatedAt).toBe(true);
      const second = await send(
        'PATCH',
        `/${kind}/${created.id}`,
        { title: 'Second' },
        { 'if-match': version(first.json()) },
      );
      expect(second.statusCode, second.body).toBe(200);
      expect((await send('GET', `/${kind}/${created.id}`)).json().title).toBe('Second');
    });

    it(`${kind}: a PATCH based on an outdated read is a 409 "stale" and writes nothing`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Shared' })).json();
      const theirs = await send(
        'PATCH',
        `/${kind}/${created.id}`,
        { title: 'Theirs' },
        { 'if-match': version(created) },
      );
      expect(theirs.statusCode).toBe(200);
      const mine = await send('PATCH', `/${kind}/${created.id}`, { title: 'Mine' }, { 'if-match': version(created) });
      const error = expectError(mine, 409, 'CONFLICT');
      expect(error.details).toEqual({ reason: 'stale', version: theirs.json().updatedAt });
      const now = (await send('GET', `/${kind}/${created.id}`)).json();
      expect(now.title).toBe('Theirs');
      expect(now.updatedAt).toBe(theirs.json().updatedAt);
      // Overwriting on purpose: the version the 409 named, or `*`.
      const overwrite = await send('PATCH', `/${kind}/${created.id}`, { title: 'Mine' }, { 'if-match': '*' });
      expect(overwrite.statusCode).toBe(200);
      expect(overwrite.json().title).toBe('Mine');
    });

    it(`${kind}: another resource's write does not make this one stale`, async () => {
      const one = (await send('POST', `/${kind}`, { title: 'One' })).json();
      const two = (await send('POST', `/${kind}`, { title: 'Two' })).json();
      expect((await send('PATCH', `/${kind}/${two.id}`, { title: 'Two again' })).statusCode).toBe(200);
      const patched = await send('PATCH', `/${kind}/${one.id}`, { title: 'One again' }, { 'if-match': version(one) });
      expect(patched.statusCode, patched.body).toBe(200);
    });

    it(`${kind}: without If-Match a PATCH is never refused as stale`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Loose' })).json();
      expect((await send('PATCH', `/${kind}/${created.id}`, { title: 'A' })).statusCode).toBe(200);
      const blind = await send('PATCH', `/${kind}/${created.id}`, { title: 'B' });
      expect(blind.statusCode).toBe(200);
      expect(blind.json().title).toBe('B');
    });

    it(`${kind}: an If-Match that names no version is a 400 on the header, checked before the 404`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Tagged' })).json();
      const hashed = await send('PATCH', `/${kind}/${created.id}`, { title: 'X' }, { 'if-match': '"abc123"' });
      expectIssue(hashed, '/if-match');
      const missing = await send('PATCH', `/${kind}/no-such-slug`, { title: 'X' }, { 'if-match': '"abc"' });
      expect(missing.statusCode).toBe(400);
      const stale404 = await send('PATCH', `/${kind}/no-such-slug`, { title: 'X' }, { 'if-match': version(created) });
      expectError(stale404, 404, 'NOT_FOUND');
    });

    it(`${kind}: the ETag a GET answered, in any encoding, is accepted; once written past, it is a 409 "stale"`, async () => {
      const created = (
        await send('POST', `/${kind}`, {
          title: 'Tagged by ETag',
          bodyJson: [paragraph('Long enough to compress. '.repeat(80))],
        })
      ).json();
      const plain = await send('GET', `/${kind}/${created.id}`);
      const gzipped = await send('GET', `/${kind}/${created.id}`, undefined, { 'accept-encoding': 'gzip' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      const etag = String(plain.headers.etag);
      expect(gzipped.headers.etag).toBe(etag);
      const patched = await send('PATCH', `/${kind}/${created.id}`, { title: 'By ETag' }, { 'if-match': etag });
      expect(patched.statusCode, patched.body).toBe(200);
      const stale = await send('PATCH', `/${kind}/${created.id}`, { title: 'Late' }, { 'if-match': etag });
      expect(expectError(stale, 409, 'CONFLICT').details).toEqual({
        reason: 'stale',
        version: patched.json().updatedAt,
      });
      // The answer now, from the response cache the second time: its ETag, alone or in a list, matches.
      await send('GET', `/${kind}/${created.id}`);
      const fresh = String((await send('GET', `/${kind}/${created.id}`)).headers.etag);
      const listed = await send(
        'PATCH',
        `/${kind}/${created.id}`,
        { title: 'Listed' },
        { 'if-match': `${etag}, ${fresh}` },
      );
      expect(listed.statusCode, listed.body).toBe(200);
      expect((await send('GET', `/${kind}/${created.id}`)).json().title).toBe('Listed');
    });

    it(`${kind}: a weak ETag never matches: alone it is a 400, in a list with a strong one it is passed over`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Weak' })).json();
      const etag = String((await send('GET', `/${kind}/${created.id}`)).headers.etag);
      expectIssue(
        await send('PATCH', `/${kind}/${created.id}`, { title: 'W' }, { 'if-match': `W/${etag}` }),
        '/if-match',
      );
      expectIssue(
        await send('PATCH', `/${kind}/${created.id}`, { title: 'W' }, { 'if-match': `W/${version(created)}` }),
        '/if-match',
      );
      const mixed = await send(
        'PATCH',
        `/${kind}/${created.id}`,
        { title: 'Mixed' },
        { 'if-match': `W/${etag}, ${etag}` },
      );
      expect(mixed.statusCode, mixed.body).toBe(200);
    });

    it(`${kind}: the ETag of a ?fields= answer names part of it and does not match`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Partial' })).json();
      const part = String((await send('GET', `/${kind}/${created.id}?fields=title`)).headers.etag);
      const refused = await send('PATCH', `/${kind}/${created.id}`, { title: 'P' }, { 'if-match': part });
      expect(expectError(refused, 409, 'CONFLICT').details).toEqual({ reason: 'stale', version: created.updatedAt });
    });

    it(`${kind}: a bad body is a 400 even when the version is also stale`, async () => {
      const created = (await send('POST', `/${kind}`, { title: 'Order' })).json();
      await send('PATCH', `/${kind}/${created.id}`, { title: 'Moved' });
      const both = await send(
        'PATCH',
        `/${kind}/${created.id}`,
        { title: 'x'.repeat(301) },
        { 'if-match': version(created) },
      );
      expectError(both, 400, 'BAD_REQUEST');
    });
  }

  it('posts: attaching a tag moves the version, so a PATCH based on the read before it is stale', async () => {
    const post = (await send('POST', '/posts', { title: 'Tagged later' })).json();
    const tag = (await send('POST', '/tags', { name: `t-${Date.now()}` })).json();
    const tagged = await send('POST', `/posts/${post.id}/tags`, { tagIds: [tag.id] });
    expect(tagged.json().updatedAt > post.updatedAt).toBe(true);
    const stale = await send('PATCH', `/posts/${post.id}`, { title: 'Late' }, { 'if-match': version(post) });
    expectError(stale, 409, 'CONFLICT');
  });

  it("posts: an ETag fails when an embedded tag changed; the updatedAt, the post's own version, still passes", async () => {
    const post = (await send('POST', '/posts', { title: 'Embedding' })).json();
    const tag = (await send('POST', '/tags', { name: `e-${Date.now()}` })).json();
    const tagged = (await send('POST', `/posts/${post.id}/tags`, { tagIds: [tag.id] })).json();
    const etag = String((await send('GET', `/posts/${post.id}`)).headers.etag);
    expect((await send('PATCH', `/tags/${tag.id}`, { name: `r-${Date.now()}` })).statusCode).toBe(200);
    const byTag = await send('PATCH', `/posts/${post.id}`, { title: 'T' }, { 'if-match': etag });
    expect(expectError(byTag, 409, 'CONFLICT').details).toEqual({ reason: 'stale', version: tagged.updatedAt });
    const byVersion = await send('PATCH', `/posts/${post.id}`, { title: 'V' }, { 'if-match': version(tagged) });
    expect(byVersion.statusCode, byVersion.body).toBe(200);
  });

  it('posts: two writes in one millisecond still leave two versions', async () => {
    const post = (await send('POST', '/posts', { title: 'Fast' })).json();
    // The clock stands still (only Date is faked), so every write below happens "in the same millisecond".
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(post.updatedAt) });
    try {
      const seen = new Set<string>([post.updatedAt]);
      for (let i = 0; i < 5; i += 1) {
        const patched = (await send('PATCH', `/posts/${post.id}`, { excerpt: `e${i}` })).json();
        expect(seen.has(patched.updatedAt)).toBe(false);
        seen.add(patched.updatedAt);
      }
      const stale = await send('PATCH', `/posts/${post.id}`, { title: 'Late' }, { 'if-match': version(post) });
      expectError(stale, 409, 'CONFLICT');
    } finally {
      vi.useRealTimers();
    }
  });
});
