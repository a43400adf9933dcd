import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { ISO, UUID, type ErrorBody, type Json, type Response } from '../helpers/posts.js';

interface ReviewLink {
  id: string;
  resourceType: string;
  resourceId: string;
  note: string | null;
  url: string;
  expiresAt: string;
  expired: boolean;
  createdAt: string;
  createdBy: { userId: string | null; apiKeyId: string | null };
  openedCount: number;
  lastOpenedAt: string | null;
}

const GONE = 'This review link has expired or was withdrawn.';
const ASK = 'Ask whoever shared it for a new one.';
const DAY_MS = 24 * 3600 * 1000;

describeEachDialect('review links', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let keyId: string;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, keyId, workspace } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, apiKey = key) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': apiKey },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const ok = <T = Json>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  const refused = (response: Response, status: number): ErrorBody => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as ErrorBody;
  };
  /** The review page as a reader's browser asks for it: no key, no cookie. */
  const open = (url: string, method: 'GET' | 'HEAD' = 'GET') =>
    ctx.app.inject({ method, url: url.startsWith('http') ? new URL(url).pathname : url });
  const makeLink = async (path: string, body: unknown = {}) =>
    ok<ReviewLink>(await call('POST', `${path}/review-links`, body), 201);

  async function draftPost(title: string, extra: Json = {}) {
    return ok<Json>(await call('POST', '/posts', { title, ...extra }), 201);
  }

  it('makes, lists and withdraws the links of a post, and shows each one again with the same url', async () => {
    const post = await draftPost('Spring menu', { slug: 'spring-menu' });
    const before = Date.now();
    const first = await makeLink(`/posts/${String(post.id)}`);
    expect(first).toMatchObject({
      resourceType: 'post',
      resourceId: post.id,
      note: null,
      expired: false,
      createdBy: { userId: workspace.owner.id, apiKeyId: keyId },
      openedCount: 0,
      lastOpenedAt: null,
    });
    expect(first.id).toMatch(UUID);
    expect(first.createdAt).toMatch(ISO);
    expect(first.url).toMatch(
      new RegExp(`^${ctx.config.publicUrl}/review/quire_review_[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}$`),
    );
    const lasts = Date.parse(first.expiresAt) - Date.parse(first.createdAt);
    expect(lasts).toBe(7 * DAY_MS);
    expect(Date.parse(first.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    // By slug too; a note is kept trimmed, an hour is the shortest a link may last.
    const second = await makeLink('/posts/spring-menu', {
      expiresInSeconds: 3600,
      note: '  For Anna at the print shop ',
    });
    expect(second.note).toBe('For Anna at the print shop');
    expect(Date.parse(second.expiresAt) - Date.parse(second.createdAt)).toBe(3600 * 1000);

    const listed = ok<{ data: ReviewLink[] }>(await call('GET', `/posts/${String(post.id)}/review-links`));
    expect(listed.data.map((link) => link.id)).toEqual([second.id, first.id]);
    expect(listed.data[1]).toEqual(first);
    expect(listed.data[0]!.url).toBe(second.url);
    const urls = ok<{ data: Json[] }>(await call('GET', `/posts/${String(post.id)}/review-links?fields=url`));
    expect(urls.data).toEqual([
      { id: second.id, url: second.url },
      { id: first.id, url: first.url },
    ]);

    const withdrawn = ok<ReviewLink>(await call('DELETE', `/posts/spring-menu/review-links/${first.id}`));
    expect(withdrawn).toEqual(first);
    refused(await call('DELETE', `/posts/spring-menu/review-links/${first.id}`), 404);
    const after = ok<{ data: ReviewLink[] }>(await call('GET', `/posts/${String(post.id)}/review-links`));
    expect(after.data.map((link) => link.id)).toEqual([second.id]);

    // Answers that hold links are never stored by a cache.
    const answer = await call('GET', `/posts/${String(post.id)}/review-links`);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.etag).toBeUndefined();
  });

  it('does the same for pages, and a link id of another post or page is a 404', async () => {
    const page = ok<Json>(await call('POST', '/pages', { title: 'About the kitchen' }), 201);
    const link = await makeLink(`/pages/${String(page.id)}`, { expiresInSeconds: 30 * 24 * 3600 });
    expect(link).toMatchObject({ resourceType: 'page', resourceId: page.id });
    expect(Date.parse(link.expiresAt) - Date.parse(link.createdAt)).toBe(30 * DAY_MS);
    const listed = ok<{ data: ReviewLink[] }>(await call('GET', `/pages/${String(page.id)}/review-links`));
    expect(listed.data).toEqual([link]);

    const page2 = ok<Json>(await call('POST', '/pages', { title: 'Another page' }), 201);
    const post = await draftPost('A post');
    refused(await call('DELETE', `/pages/${String(page2.id)}/review-links/${link.id}`), 404);
    refused(await call('DELETE', `/posts/${String(post.id)}/review-links/${link.id}`), 404);
    refused(await call('GET', '/pages/no-such-page/review-links'), 404);
    refused(await call('POST', '/posts/no-such-post/review-links', {}), 404);

    const page200 = await open(link.url);
    expect(page200.statusCode).toBe(200);
    expect(page200.body).toContain('<h1>About the kitchen</h1>');
    expect(page200.body).toContain('Draft — not published');

    expect(ok<ReviewLink>(await call('DELETE', `/pages/${String(page.id)}/review-links/${link.id}`)).id).toBe(link.id);
    expect(ok<{ data: ReviewLink[] }>(await call('GET', `/pages/${String(page.id)}/review-links`)).data).toEqual([]);
  });

  it('shows a draft to a reader with no account: its title, excerpt and rendered body under the draft banner', async () => {
    const post = await draftPost('Soup <script>alert(1)</script> & bread', {
      excerpt: 'Warm *soups* for cold days',
      bodyJson: [
        { type: 'heading', level: 2, text: 'Leek and potato' },
        { type: 'paragraph', text: 'Sweat the leeks **slowly**. <img src=x onerror=alert(1)>' },
        { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'How to' },
      ],
    });
    const link = await makeLink(`/posts/${String(post.id)}`);
    const page = await open(link.url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Draft — not published');
    expect(page.body).toContain('<h1>Soup &lt;script&gt;alert(1)&lt;/script&gt; &amp; bread</h1>');
    expect(page.body).toContain('<p class="excerpt">Warm <em>soups</em> for cold days</p>');
    expect(page.body).toContain('<h2 id="leek-and-potato">Leek and potato</h2>');
    expect(page.body).toContain('<strong>slowly</strong>');
    expect(page.body).toContain('data-provider="youtube"');
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toMatch(
      /this link expires in 7 days, <time datetime="[^"]+">\d+ \w+ \d{4} at \d\d:\d\d UTC<\/time>/,
    );
  });

  it('shows a live post as its pending changes will leave it, while the API still answers the live one', async () => {
    const live = ok<Json>(
      await call('POST', '/posts', {
        title: 'Opening hours',
        status: 'published',
        bodyJson: [{ type: 'paragraph', text: 'Open every day.' }],
      }),
      201,
    );
    const id = String(live.id);
    ok(
      await call('PUT', `/posts/${id}/pending`, {
        baseVersion: live.updatedAt,
        changes: { title: 'New opening hours', bodyJson: [{ type: 'paragraph', text: 'Closed on Mondays.' }] },
      }),
    );
    const link = await makeLink(`/posts/${id}`);
    const page = await open(link.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Changes not yet published to a live post');
    expect(page.body).not.toContain('Draft — not published');
    expect(page.body).toContain('<h1>New opening hours</h1>');
    expect(page.body).toContain('<p>Closed on Mondays.</p>');
    expect(page.body).not.toContain('Open every day.');

    const api = ok<Json>(await call('GET', `/posts/${id}`));
    expect(api).toMatchObject({ title: 'Opening hours', bodyText: 'Open every day.', updatedAt: live.updatedAt });
    expect(ok<{ total: number }>(await call('GET', `/posts/${id}/revisions`)).total).toBe(1);

    // A set Update would refuse now (its tag deleted since): the live post, saying so, rather than nothing.
    const tag = ok<Json>(await call('POST', '/tags', { name: 'Seasonal' }), 201);
    ok(
      await call('PUT', `/posts/${id}/pending`, {
        baseVersion: live.updatedAt,
        changes: { title: 'Winter hours', tagIds: [tag.id] },
      }),
    );
    ok(await call('DELETE', `/tags/${String(tag.id)}`));
    const refused = await open(link.url);
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('its new changes are being revised and cannot be shown yet');
    expect(refused.body).toContain('<h1>Opening hours</h1>');
    // No set at all: the live post, said to be just that.
    ok(await call('DELETE', `/posts/${id}/pending`));
    const plain = await open(link.url);
    expect(plain.body).toContain('The live post, with no unpublished changes');
    expect(plain.body).toContain('<p>Open every day.</p>');
  });

  it('counts each opening, not a HEAD, and answers with headers that keep the page private and unindexed', async () => {
    const post = await draftPost('Counted', { bodyJson: [{ type: 'paragraph', text: 'Words.' }] });
    const link = await makeLink(`/posts/${String(post.id)}`);
    const first = await open(link.url);
    await open(link.url);
    expect((await open(link.url, 'HEAD')).statusCode).toBe(200);
    const [listed] = ok<{ data: ReviewLink[] }>(await call('GET', `/posts/${String(post.id)}/review-links`)).data;
    expect(listed!.openedCount).toBe(2);
    expect(listed!.lastOpenedAt).toMatch(ISO);
    expect(Date.parse(listed!.lastOpenedAt!)).toBeGreaterThanOrEqual(Date.parse(link.createdAt));

    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    expect(first.body).toContain('<meta name="robots" content="noindex, nofollow">');
    const csp = String(first.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('frame-src https:');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain("'unsafe-inline'");
    // The page's own CSS is allowed by its hash, and nothing else is.
    const css = /<style>([\s\S]*?)<\/style>/.exec(first.body)![1]!;
    const hash = crypto.createHash('sha256').update(css).digest('base64');
    expect(csp).toMatch(new RegExp(`style-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'(;|$)`));
    expect(csp).toContain(`img-src 'self' ${new URL(ctx.config.publicUrl).origin} https: data:`);

    // The token is a secret: the request's log line has it cut out.
    const token = new URL(link.url).pathname.split('/').pop()!;
    expect(JSON.stringify(ctx.logs)).not.toContain(token.split('.')[1]);
  });

  it('answers one and the same page, 404, for a link expired, withdrawn, forged, malformed or of a deleted post', async () => {
    const make = async (title: string) => {
      const post = await draftPost(title);
      return { id: String(post.id), link: await makeLink(`/posts/${String(post.id)}`) };
    };
    const expired = await make('Expired');
    await db()
      .updateTable('review_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.link.id)
      .execute();
    expect(ok<{ data: ReviewLink[] }>(await call('GET', `/posts/${expired.id}/review-links`)).data[0]!.expired).toBe(
      true,
    );
    const revoked = await make('Revoked');
    ok(await call('DELETE', `/posts/${revoked.id}/review-links/${revoked.link.id}`));
    const deleted = await make('Deleted');
    ok(await call('DELETE', `/posts/${deleted.id}`));
    const kept = await make('Kept');

    const path = new URL(kept.link.url).pathname;
    const [body, signature] = path.slice('/review/quire_review_'.length).split('.') as [string, string];
    const otherId = Buffer.from(crypto.randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
    const candidates = [
      expired.link.url,
      revoked.link.url,
      deleted.link.url,
      `/review/quire_review_${otherId}.${signature}`,
      `/review/quire_review_${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `/review/quire_review_${body}`,
      '/review/nope',
      `/review/${'x'.repeat(2000)}`,
      '/review/quire_review_%00.x',
      '/review/%F0%9F%8D%B2',
      '/review/%E0%A4%A',
      `${path}/more`,
      '/review/',
      '/review',
    ];
    const answers = await Promise.all(candidates.map((candidate) => open(candidate)));
    for (const [index, answer] of answers.entries()) {
      expect(answer.statusCode, candidates[index]).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(answer.body, candidates[index]).toBe(answers[0]!.body);
    }
    expect(answers[0]!.body).toContain(GONE);
    expect(answers[0]!.body).toContain(ASK);
    expect((await open(kept.link.url)).statusCode).toBe(200);
  });

  it('keeps links to their workspace and to writers: another workspace finds none, posts:read is refused', async () => {
    const post = await draftPost('Private');
    const id = String(post.id);
    const link = await makeLink(`/posts/${id}`);

    const stranger = await ctx.ownerKey();
    refused(await call('GET', `/posts/${id}/review-links`, undefined, stranger.key), 404);
    refused(await call('DELETE', `/posts/${id}/review-links/${link.id}`, undefined, stranger.key), 404);
    refused(await call('POST', `/posts/${id}/review-links`, {}, stranger.key), 404);
    // Its own post, someone else's link id: no such link.
    const theirs = ok<Json>(await call('POST', '/posts', { title: 'Theirs' }, stranger.key), 201);
    refused(await call('DELETE', `/posts/${String(theirs.id)}/review-links/${link.id}`, undefined, stranger.key), 404);

    const reader = await ctx.memberKey(['posts:read', 'pages:read'], workspace);
    refused(await call('GET', `/posts/${id}/review-links`, undefined, reader.key), 403);
    refused(await call('POST', `/posts/${id}/review-links`, {}, reader.key), 403);
    refused(await call('DELETE', `/posts/${id}/review-links/${link.id}`, undefined, reader.key), 403);
    const page = ok<Json>(await call('POST', '/pages', { title: 'A page' }), 201);
    refused(await call('POST', `/pages/${String(page.id)}/review-links`, {}, reader.key), 403);

    const writer = await ctx.memberKey(['posts:read', 'posts:write'], workspace);
    const made = ok<ReviewLink>(await call('POST', `/posts/${id}/review-links`, {}, writer.key), 201);
    expect(made.createdBy).toEqual({ userId: writer.user.id, apiKeyId: writer.keyId });
    expect(ok<{ data: ReviewLink[] }>(await call('GET', `/posts/${id}/review-links`)).data[0]).toEqual(made);
  });

  it('counts openings against the rate limit per address, in a bucket of their own, with a page that says wait', async () => {
    const limited = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '3' } });
    try {
      const { key: ownKey } = await limited.ownerKey();
      const post = await limited.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': ownKey },
        payload: { title: 'Limited' },
      });
      const link = await limited.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts/${String(post.json().id)}/review-links`,
        headers: { 'x-api-key': ownKey },
        payload: {},
      });
      const path = new URL(link.json<ReviewLink>().url).pathname;
      for (let i = 0; i < 3; i += 1) expect((await limited.app.inject({ url: path })).statusCode).toBe(200);
      const over = await limited.app.inject({ url: path });
      expect(over.statusCode).toBe(429);
      expect(over.headers['content-type']).toMatch(/^text\/html/);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.body).toContain('cannot be shown right now');
    } finally {
      await limited.close();
    }
  });

  it('refuses bad input with a 400 naming the field, and a 51st link that has not expired with a 409', async () => {
    const post = await draftPost('Bounded');
    const path = `/posts/${String(post.id)}/review-links`;
    for (const [body, pointer] of [
      [{ expiresInSeconds: 3599 }, '/expiresInSeconds'],
      [{ expiresInSeconds: 30 * 24 * 3600 + 1 }, '/expiresInSeconds'],
      [{ expiresInSeconds: 7200.5 }, '/expiresInSeconds'],
      [{ note: 'n'.repeat(201) }, '/note'],
      [{ note: 7 }, '/note'],
      [{ reader: 'anna@example.com' }, '/reader'],
    ] as const) {
      const refusal = refused(await call('POST', path, body), 400);
      expect(
        refusal.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(pointer);
    }
    refused(await call('DELETE', `${path}/not-a-uuid`), 400);
    ok(await call('POST', path, { note: 'n'.repeat(200) }), 201);
    ok(await call('POST', path), 201);

    for (let made = 2; made < 50; made += 1) ok(await call('POST', path, {}), 201);
    const full = refused(await call('POST', path, {}), 409);
    expect(full.details).toMatchObject({ reason: 'review_links_max', max: 50 });
    const listed = ok<{ data: ReviewLink[] }>(await call('GET', path)).data;
    expect(listed).toHaveLength(50);
    ok(await call('DELETE', `${path}/${listed[0]!.id}`));
    ok(await call('POST', path, {}), 201);

    // Expired links do not count: two expire, two more are made. Those expired a month ago go as a link is made.
    const [a, b] = ok<{ data: ReviewLink[] }>(await call('GET', path)).data;
    const expire = (id: string, at: Date) =>
      db().updateTable('review_links').set({ expires_at: at.toISOString() }).where('id', '=', id).execute();
    await expire(a!.id, new Date(Date.now() - 1000));
    await expire(b!.id, new Date(Date.now() - 31 * 24 * 3600 * 1000));
    ok(await call('POST', path, {}), 201);
    ok(await call('POST', path, {}), 201);
    refused(await call('POST', path, {}), 409);
    const after = ok<{ data: ReviewLink[] }>(await call('GET', path)).data;
    expect(after.find((link) => link.id === a!.id)?.expired).toBe(true);
    expect(after.find((link) => link.id === b!.id)).toBeUndefined();
  });
});
