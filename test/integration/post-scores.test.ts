import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

/** The worked example of docs/seo.md, which scores 100 (its unit test holds the arithmetic). */
function perfectPost(mediaId: string) {
  return {
    title: 'How to keep a sourdough starter alive for years',
    slug: 'keep-a-sourdough-starter-alive',
    excerpt: 'Feeding, temperature and timing.',
    featuredMediaId: mediaId,
    seo: {
      focusKeyword: 'sourdough starter',
      description:
        'A sourdough starter is a living culture. Learn how to feed it, where to keep it, and how to revive one that has been neglected for weeks.',
    },
    bodyJson: [
      {
        type: 'paragraph',
        text: `A sourdough starter needs flour and water. See [the basics](/guides/basics). ${filler(80)}`,
      },
      { type: 'heading', level: 2, text: 'Feeding a sourdough starter' },
      { type: 'paragraph', text: `${filler(90)} as [King Arthur explains](https://kingarthurbaking.com/x).` },
      { type: 'heading', level: 3, text: 'Temperature' },
      { type: 'image', mediaId, alt: 'A jar of starter' },
    ],
  };
}

describeEachDialect('seoScore and readabilityScore', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    const owner = await ctx.ownerKey();
    key = owner.key;
    workspaceId = owner.workspace.id;
  });
  afterAll(() => ctx?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload ? { payload } : {}),
    });

  it('stores the documented scores on create and recomputes them on every write', async () => {
    const mediaId = await insertMedia(ctx.runtime.database.db, workspaceId);
    const created = (await call('POST', '/posts', perfectPost(mediaId))).json();
    expect(created.seoScore).toBe(100);

    const easy = (
      await call('POST', '/posts', {
        title: 'Cat',
        bodyJson: [{ type: 'paragraph', text: 'The cat sat on the mat. Readability is measured with formulas.' }],
      })
    ).json();
    expect(easy.readabilityScore).toBe(63);
    // Only the vacuous alt-text check passes: no heading, no excerpt, no keyword, no image, no links.
    expect(easy.seoScore).toBe(5);

    const noKeyword = (
      await call('PATCH', `/posts/${created.id}`, { seo: { description: perfectPost(mediaId).seo.description } })
    ).json();
    expect(noKeyword.seoScore).toBe(60);
    const emptied = (await call('PATCH', `/posts/${easy.id}`, { bodyJson: [] })).json();
    expect(emptied.readabilityScore).toBe(0);
  });

  it('rescoring follows a media deletion that clears the featured image', async () => {
    const mediaId = await insertMedia(ctx.runtime.database.db, workspaceId);
    const post = (
      await call('POST', '/posts', { ...perfectPost(mediaId), slug: 'keep-a-sourdough-starter-alive-2' })
    ).json();
    expect(post.seoScore).toBe(100);
    expect((await call('DELETE', `/media/${mediaId}`)).statusCode).toBe(200);
    const after = (await call('GET', `/posts/${post.id}`)).json();
    expect(after.featuredMediaId).toBeNull();
    expect(after.seoScore).toBe(90);
    expect(after.readabilityScore).toBe(post.readabilityScore);
  });

  it('sorts by either score in SQL, in the documented order, on both dialects', async () => {
    const fresh = await ctx.ownerKey();
    const mediaId = await insertMedia(ctx.runtime.database.db, fresh.workspace.id);
    const make = (payload: object) =>
      ctx.app
        .inject({ method: 'POST', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': fresh.key }, payload })
        .then((r) => r.json());
    const best = await make(perfectPost(mediaId));
    const middle = await make({
      title: 'Cat',
      excerpt: 'Short.',
      bodyJson: [{ type: 'paragraph', text: 'The cat sat on the mat. Readability is measured with formulas.' }],
    });
    const worst = await make({
      title: 'Readability',
      bodyJson: [{ type: 'paragraph', text: 'Readability is measured with formulas.' }],
    });
    // The middle one adds an excerpt (5) to the vacuous alt-text check (5).
    expect([best.seoScore, middle.seoScore, worst.seoScore]).toEqual([100, 10, 5]);
    expect(
      [best.readabilityScore, middle.readabilityScore, worst.readabilityScore].every((s) => Number.isInteger(s)),
    ).toBe(true);

    const list = (query: string) =>
      ctx.app
        .inject({ method: 'GET', url: `${EXTERNAL}/posts?${query}`, headers: { 'x-api-key': fresh.key } })
        .then((r) => r.json().data.map((p: { id: string }) => p.id));
    expect(await list('orderBy=seoScore&order=desc')).toEqual([best.id, middle.id, worst.id]);
    expect(await list('orderBy=seoScore&order=asc')).toEqual([worst.id, middle.id, best.id]);
    const byReadability = [best, middle, worst]
      .sort((a, b) => a.readabilityScore - b.readabilityScore || (a.id < b.id ? -1 : 1))
      .map((p) => p.id);
    expect(await list('orderBy=readabilityScore&order=asc')).toEqual(byReadability);
  });
});
