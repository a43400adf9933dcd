import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { createPost, heading, image, paragraph, postsApi, type Post, type Response } from '../helpers/posts.js';

/*
 * The query budget: what a response costs in SQL statements must not grow with the number of posts,
 * embeds or image blocks in it. The numbers are fixed on purpose, so that a regression to one query
 * per post (or per image) fails here rather than in production. They include the key lookup.
 */
const BUDGET = {
  // key lookup, rows, count, then the embeds: site settings, tags, related, authors, categories, media.
  list: 9,
  // A page that is not full ends the list and so gives its total without the count.
  lastPage: 8,
  // key lookup, the post, then the same six embed queries.
  get: 8,
  // key lookup, begin, post, media and related-post checks, update, replace related (delete, insert),
  // bump the content version, re-read, the six embed queries, commit.
  patch: 17,
};

describeEachDialect('posts: query budget', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspace: TestWorkspace;
  let tags: string[] = [];
  const seeded: Post[] = [];
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, workspace } = await ctx.ownerKey());
    await seed(110);
  });
  afterAll(() => ctx?.close());

  const api = () => postsApi(ctx);
  const db = () => ctx.runtime.database.db;

  /** Statements sent to the database while answering one request. */
  async function cost(request: () => Promise<Response>): Promise<number> {
    const before = ctx.runtime.database.stats.queries;
    const response = await request();
    const spent = ctx.runtime.database.stats.queries - before;
    expect(response.statusCode, response.body).toBeLessThan(300);
    return spent;
  }

  /**
   * A post that embeds everything there is to embed, with rows of its own: an author with an avatar,
   * a category three levels deep, featured media, two tags, related posts, and image blocks in both
   * bodies (unless the caller gives its own).
   */
  async function fullPost(i: number, tagIds: string[], related: string[], body: Record<string, unknown> = {}): Promise<Post> {
    const w = workspace.id;
    const root = await insertCategory(db(), w, { slug: `root-${i}` });
    const middle = await insertCategory(db(), w, { slug: `middle-${i}`, parentId: root });
    const leaf = await insertCategory(db(), w, { slug: `leaf-${i}`, parentId: middle });
    const post = await createPost(api(), key, {
      title: `Budget post ${i}`,
      excerpt: 'Everything embedded',
      authorId: await insertAuthor(db(), w, { slug: `author-${i}`, avatarMediaId: await insertMedia(db(), w) }),
      categoryId: leaf,
      featuredMediaId: await insertMedia(db(), w),
      bodyJson: [heading('Pictures'), image(await insertMedia(db(), w)), paragraph('Between'), image(await insertMedia(db(), w))],
      structuredBlocks: [image(await insertMedia(db(), w))],
      relatedPostIds: related,
      status: i % 2 === 0 ? 'published' : 'draft',
      ...body,
    });
    const attached = await api().attach(key, post.id, tagIds);
    expect(attached.statusCode).toBe(200);
    return attached.json() as Post;
  }

  async function seed(count: number): Promise<void> {
    const w = workspace.id;
    tags = [await insertTag(db(), w, { slug: 'one' }), await insertTag(db(), w, { slug: 'two' }), await insertTag(db(), w, { slug: 'three' })];
    for (let i = 0; i < count; i += 1) seeded.push(await fullPost(i, [tags[i % 3]!, tags[(i + 1) % 3]!], seeded.slice(-2).map((p) => p.id)));
  }

  async function images(count: number) {
    const blocks = [];
    for (let i = 0; i < count; i += 1) blocks.push(image(await insertMedia(db(), workspace.id)));
    return blocks;
  }

  it('a page of 10 posts and a page of 100 cost the same, whatever the filter or sort', async () => {
    const ten = await cost(() => api().list(key, { pageSize: 10 }));
    const hundred = await cost(() => api().list(key, { pageSize: 100 }));
    expect(ten).toBe(BUDGET.list);
    expect(hundred).toBe(BUDGET.list);

    const page = (await api().list(key, { pageSize: 100 })).json() as { data: Post[] };
    expect(page.data).toHaveLength(100);
    // The budget holds only if the embeds really came with it.
    for (const post of page.data) {
      expect(post.author?.avatarMedia).not.toBeNull();
      expect(post.category?.path).toMatch(/^root-\d+\/middle-\d+\/leaf-\d+$/);
      expect(post.featuredMedia).not.toBeNull();
      expect(post.tags).toHaveLength(2);
      for (const block of [...post.bodyJson, ...post.structuredBlocks]) if (block.type === 'image') expect(block.url).toEqual(expect.any(String));
    }
    expect(page.data.filter((post) => post.relatedPosts.length === 2).length).toBeGreaterThanOrEqual(98);

    const tagId = page.data[0]!.tags[0]!.id;
    const cases = [
      { query: { q: 'budget', orderBy: 'title', order: 'asc' }, budget: BUDGET.list },
      { query: { status: 'published', orderBy: 'publishedAt' }, budget: BUDGET.list },
      // 73 of the 110 posts carry the tag: one partial page of 100.
      { query: { tagId, pageSize: 100 }, budget: BUDGET.lastPage },
      { query: { authorId: seeded[5]!.authorId! }, budget: BUDGET.lastPage },
      { query: { pageSize: 100, page: 2 }, budget: BUDGET.lastPage },
      // Past the end: the key, the empty page, the count, site settings; no embeds to load.
      { query: { pageSize: 100, page: 3 }, budget: 4 },
    ];
    for (const { query, budget } of cases) expect(await cost(() => api().list(key, query)), JSON.stringify(query)).toBe(budget);
  });

  it('a total read off a partial page is the same the count gives', async () => {
    const counted = (await api().list(key, { pageSize: 100 })).json() as { total: number };
    const implied = (await api().list(key, { pageSize: 100, page: 2 })).json() as { total: number; data: unknown[]; totalPages: number };
    const beyond = (await api().list(key, { pageSize: 100, page: 9 })).json() as { total: number; data: unknown[] };
    expect(implied.total).toBe(counted.total);
    expect(implied.total).toBe(100 + implied.data.length);
    expect(implied.totalPages).toBe(2);
    expect(beyond).toMatchObject({ total: counted.total, data: [] });
    const none = (await api().list(key, { q: 'no post says this' })).json() as { total: number; totalPages: number };
    expect(none).toMatchObject({ total: 0, totalPages: 1 });
  });

  it('a post with 1 image block and one with 200 cost the same to read', async () => {
    const related = seeded.slice(0, 3).map((p) => p.id);
    const one = await fullPost(1001, tags, related, { bodyJson: await images(1) });
    const many = await images(200);
    const big = await fullPost(1002, tags, related, { bodyJson: many, structuredBlocks: many.slice(0, 50) });

    expect(await cost(() => api().get(key, one.id))).toBe(BUDGET.get);
    expect(await cost(() => api().get(key, big.id))).toBe(BUDGET.get);
    expect(await cost(() => api().get(key, big.slug))).toBe(BUDGET.get);
    const read = (await api().get(key, big.id)).json() as Post;
    expect(read.bodyJson.filter((block) => block.type === 'image' && block.url !== null)).toHaveLength(200);
    expect(read.relatedPosts).toHaveLength(3);
  });

  it('saving a body of 1 image block and one of 200 cost the same', async () => {
    const post = await fullPost(1003, tags, seeded.slice(0, 2).map((p) => p.id));
    const many = await images(200);
    const patchCost = (body: Record<string, unknown>) => cost(() => api().patch(key, post.id, { ...body, relatedPostIds: seeded.slice(2, 4).map((p) => p.id) }));
    expect(await patchCost({ bodyJson: many.slice(0, 1) })).toBe(BUDGET.patch);
    expect(await patchCost({ bodyJson: many, structuredBlocks: many })).toBe(BUDGET.patch);
  });
});
