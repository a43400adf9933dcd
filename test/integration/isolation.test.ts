import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { workspaceFingerprint } from '../helpers/fingerprint.js';
import { filePart, multipart, png } from '../helpers/media.js';

/*
 * The isolation probe (issue 20): two workspaces A and B. Under A's key, every route and method is called
 * with B's ids and slugs (404), list filters name B's rows (nothing found), and every reference field
 * of A's writes names B's rows (400). Requests are drawn at random, ids in either case; at the end
 * neither workspace has changed at all, since every request was refused or was a read.
 */

/** Random draws after the sweep over every kind, so that order and repetition vary between runs. */
const RANDOM_DRAWS_PER_DIALECT = 200;

interface Content {
  key: string;
  workspaceId: string;
  post: { id: string; slug: string };
  page: { id: string; slug: string };
  author: { id: string; slug: string };
  category: { id: string; slug: string };
  tag: { id: string; slug: string };
  media: string;
  redirect: string;
  redirectFrom: string;
  apiKey: string;
  /** A review link of its post. */
  reviewLink: string;
  /** Where the workspace's change feed stands: a cursor of it. */
  cursor: string;
}

interface Probe {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** 404: B's row is not A's; 400: a reference to B's row; 'empty': a list filtered by B's row finds nothing. */
  expect: 404 | 400 | 'empty';
}

describeEachDialect('isolation: B’s ids and slugs under A’s key', (dialect) => {
  let ctx: TestContext;
  let a: Content;
  let b: Content;

  async function content(prefix: string): Promise<Content> {
    const owner = await ctx.ownerKey();
    const key = owner.key;
    const create = async (url: string, payload: unknown) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}${url}`,
        headers: { 'x-api-key': key },
        payload: payload as Record<string, unknown>,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string; slug: string };
    };
    const form = multipart([filePart(png(2, 2), `${prefix}.png`)]);
    const media = (
      await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/media`,
        headers: { ...form.headers, 'x-api-key': key },
        payload: form.payload,
      })
    ).json() as { id: string };
    const redirectFrom = `/${prefix}-old`;
    const spare = await ctx.createKey(owner.workspace, owner.workspace.owner, { name: `${prefix} spare` });
    await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/link-health`,
      headers: { 'x-api-key': key },
      payload: { path: `/${prefix}-missing`, statusCode: 404 },
    });
    const post = await create('/posts', { title: `${prefix} post`, status: 'published' });
    return {
      key,
      workspaceId: owner.workspace.id,
      post,
      page: await create('/pages', { title: `${prefix} page` }),
      author: await create('/authors', { displayName: `${prefix} author` }),
      category: await create('/categories', { name: `${prefix} category` }),
      tag: await create('/tags', { name: `${prefix} tag` }),
      media: media.id,
      redirect: (await create('/redirects', { fromPath: redirectFrom, toPath: `/${prefix}-new` })).id,
      redirectFrom,
      apiKey: spare.id,
      reviewLink: (await create(`/posts/${post.id}/review-links`, {})).id,
      cursor: (
        (await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/changes`, headers: { 'x-api-key': key } })).json() as {
          next: string;
        }
      ).next,
    };
  }

  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '1000000000' } });
    a = await content('alpha');
    b = await content('bravo');
  });
  afterAll(() => ctx?.close());

  /** Every way A's key can name one of B's rows; `name` is B's id (in either case) or slug. */
  function probes(cased: (id: string) => string): Probe[] {
    const image = (mediaId: string) => [{ type: 'image', mediaId }];
    const seo = (mediaId: string) => ({ og: { imageMediaId: mediaId }, twitter: { imageMediaId: mediaId } });
    const byName: Probe[] = [];
    const rows = [
      ['posts', b.post],
      ['pages', b.page],
      ['authors', b.author],
      ['categories', b.category],
      ['tags', b.tag],
    ] as const;
    const renames: Record<string, unknown> = {
      posts: { title: 'taken' },
      pages: { title: 'taken' },
      authors: { displayName: 'taken' },
      categories: { name: 'taken' },
      tags: { name: 'taken' },
    };
    for (const [resource, row] of rows) {
      for (const name of [cased(row.id), row.slug]) {
        byName.push({ method: 'GET', url: `/${resource}/${name}`, expect: 404 });
        byName.push({ method: 'PATCH', url: `/${resource}/${name}`, body: renames[resource], expect: 404 });
        byName.push({ method: 'DELETE', url: `/${resource}/${name}`, expect: 404 });
      }
    }
    for (const [resource, row] of [
      ['posts', b.post],
      ['pages', b.page],
    ] as const)
      for (const name of [cased(row.id), row.slug]) {
        byName.push({ method: 'GET', url: `/${resource}/${name}/revisions`, expect: 404 });
        byName.push({ method: 'GET', url: `/${resource}/${name}/revisions/1`, expect: 404 });
        byName.push({ method: 'POST', url: `/${resource}/${name}/revisions/1/restore`, expect: 404 });
        byName.push({ method: 'GET', url: `/${resource}/${name}/review-links`, expect: 404 });
        byName.push({ method: 'POST', url: `/${resource}/${name}/review-links`, body: {}, expect: 404 });
      }
    for (const name of [cased(b.post.id), b.post.slug])
      byName.push({ method: 'DELETE', url: `/posts/${name}/review-links/${cased(b.reviewLink)}`, expect: 404 });
    byName.push({ method: 'DELETE', url: `/posts/${a.post.id}/review-links/${cased(b.reviewLink)}`, expect: 404 });
    byName.push({ method: 'GET', url: `/changes?after=${b.cursor}`, expect: 400 });
    for (const name of [cased(b.post.id), b.post.slug])
      for (const method of ['POST', 'DELETE'] as const)
        byName.push({ method, url: `/posts/${name}/tags`, body: { tagIds: [a.tag.id] }, expect: 404 });
    for (const [resource, id, body] of [
      ['media', b.media, { alt: 'taken' }],
      ['redirects', b.redirect, { toPath: '/taken' }],
      ['api-keys', b.apiKey, { name: 'taken' }],
    ] as const) {
      if (resource !== 'api-keys') byName.push({ method: 'GET', url: `/${resource}/${cased(id)}`, expect: 404 });
      byName.push({ method: 'PATCH', url: `/${resource}/${cased(id)}`, body, expect: 404 });
      if (resource !== 'api-keys') byName.push({ method: 'DELETE', url: `/${resource}/${cased(id)}`, expect: 404 });
    }
    byName.push({ method: 'POST', url: `/api-keys/${cased(b.apiKey)}/reveal`, expect: 404 });
    byName.push({ method: 'POST', url: `/api-keys/${cased(b.apiKey)}/revoke`, expect: 404 });
    byName.push({ method: 'GET', url: `/redirects/resolve?path=${encodeURIComponent(b.redirectFrom)}`, expect: 404 });
    for (const filter of [
      `/posts?authorId=${cased(b.author.id)}`,
      `/posts?categoryId=${cased(b.category.id)}`,
      `/posts?tagId=${cased(b.tag.id)}`,
      `/categories?parentId=${cased(b.category.id)}`,
      '/posts?q=bravo',
      '/pages?q=bravo',
      '/authors?q=bravo',
      '/categories?q=bravo',
      '/tags?q=bravo',
      '/media?q=bravo',
      '/link-health?q=bravo',
      '/redirects?q=bravo',
    ])
      byName.push({ method: 'GET', url: filter, expect: 'empty' });

    const references: Array<[string, Record<string, unknown>]> = [
      ['/posts', { featuredMediaId: cased(b.media) }],
      ['/posts', { authorId: cased(b.author.id) }],
      ['/posts', { categoryId: cased(b.category.id) }],
      ['/posts', { relatedPostIds: [cased(b.post.id)] }],
      ['/posts', { bodyJson: image(cased(b.media)) }],
      ['/posts', { structuredBlocks: image(cased(b.media)) }],
      ['/posts', { seo: seo(cased(b.media)) }],
      ['/pages', { bodyJson: image(cased(b.media)) }],
      ['/pages', { seo: seo(cased(b.media)) }],
      ['/authors', { avatarMediaId: cased(b.media) }],
      ['/authors', { seo: seo(cased(b.media)) }],
      ['/categories', { parentId: cased(b.category.id) }],
      ['/categories', { seo: seo(cased(b.media)) }],
      ['/tags', { seo: seo(cased(b.media)) }],
    ];
    const writes: Probe[] = references.flatMap(([url, field]) => {
      const resource = url.slice(1) as keyof typeof renames;
      const own = { posts: a.post, pages: a.page, authors: a.author, categories: a.category, tags: a.tag }[resource];
      return [
        { method: 'POST' as const, url, body: { ...(renames[resource] as object), ...field }, expect: 400 as const },
        { method: 'PATCH' as const, url: `${url}/${own!.id}`, body: field, expect: 400 as const },
      ];
    });
    for (const method of ['POST', 'DELETE'] as const)
      writes.push({ method, url: `/posts/${a.post.id}/tags`, body: { tagIds: [cased(b.tag.id)] }, expect: 400 });
    return [...byName, ...writes];
  }

  it('every request naming B’s rows under A’s key is a 404, an empty list or a 400, and nothing changes', async () => {
    const db = ctx.runtime.database.db;
    const before = [await workspaceFingerprint(db, a.workspaceId), await workspaceFingerprint(db, b.workspaceId)];
    const lower = probes((id) => id);
    const upper = probes((id) => id.toUpperCase());
    const all = [...lower, ...upper];
    const counts = { requests: 0, kinds: all.length, byStatus: {} as Record<string, number> };
    const check = async (probe: Probe) => {
      const response = await ctx.app.inject({
        method: probe.method,
        url: `${EXTERNAL}${probe.url}`,
        headers: { 'x-api-key': a.key },
        ...(probe.body === undefined ? {} : { payload: probe.body as Record<string, unknown> }),
      });
      counts.requests += 1;
      counts.byStatus[response.statusCode] = (counts.byStatus[response.statusCode] ?? 0) + 1;
      const what = `${probe.method} ${probe.url} ${JSON.stringify(probe.body)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
      if (probe.expect === 'empty') {
        expect(response.statusCode, what).toBe(200);
        expect(response.json(), what).toMatchObject({ data: [], total: 0 });
      } else {
        expect(response.statusCode, what).toBe(probe.expect);
      }
    };

    // Every kind once, in an order drawn at random; then random draws.
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(all, { minLength: all.length }), async (order) => {
        for (const probe of order) await check(probe);
      }),
      { numRuns: 1 },
    );
    await fc.assert(fc.asyncProperty(fc.constantFrom(...all), check), {
      numRuns: RANDOM_DRAWS_PER_DIALECT,
      endOnFailure: true,
    });

    expect([await workspaceFingerprint(db, a.workspaceId), await workspaceFingerprint(db, b.workspaceId)]).toEqual(
      before,
    );
    // The counts the closing note of issue 20 quotes from one CI run.
    process.stdout.write(
      `isolation [${dialect}]: ${counts.requests} requests (every one of ${counts.kinds} kinds, then random draws), ` +
        `A and B unchanged; statuses ${JSON.stringify(counts.byStatus)}` +
        '\n',
    );
  });
});
