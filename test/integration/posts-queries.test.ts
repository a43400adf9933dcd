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
  // Reads find their posts with each one's stored render (read/post-renders.ts): the key lookup, the ids
  // of the page, the page's posts with their renders; the total of an unfiltered list comes with them
  // (workspaces.live_post_count). Posts without a current render add eight, however many they are:
  // their rows, the six embeds (site settings, tags, related, authors, categories, media), and one
  // statement storing every new render.
  list: { stored: 3, built: 11 },
  // A filter needs the count.
  filtered: { stored: 4, built: 12 },
  // A search on PostgreSQL runs in a transaction of its own with scans off (DialectHelpers.searching): begin,
  // set and commit are three more; the word table counts the matches, then names them when they are few.
  searchedOnPostgres: { stored: 8, built: 16 },
  // A page that is not full ends the list and so gives its total without the count.
  lastPage: { stored: 3, built: 11 },
  // key lookup, the post with its render; then as for a list.
  get: { stored: 2, built: 10 },
  // key lookup, begin, post (locked on PostgreSQL), media and related-post checks, update, replace related
  // (delete, insert), bump the content version, the six embed queries, the revision (the row and its related
  // posts as written; the post is a draft, so its newest revision, which the save may merge into; then the
  // numbered insert or the merge: writes/revisions.ts), the workspace's enabled webhook endpoints (one read; a
  // delivery insert only when one subscribes: writes/webhook-outbox.ts), commit. The answer is built from the
  // row as written, without reading it again; the posts relating to it are not written (read/post-renders.ts).
  patch: 21,
};

describeEachDialect('posts: query budget', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspace: TestWorkspace;
  let tags: string[] = [];
  const seeded: Post[] = [];
  beforeAll(async () => {
    // The response cache off: these are the costs of answering, not of remembering an answer.
    ctx = await buildTestApp(dialect, { env: { QUIRE_RESPONSE_CACHE_MB: '0' } });
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
  async function fullPost(
    i: number,
    tagIds: string[],
    related: string[],
    body: Record<string, unknown> = {},
  ): Promise<Post> {
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
      bodyJson: [
        heading('Pictures'),
        image(await insertMedia(db(), w)),
        paragraph('Between'),
        image(await insertMedia(db(), w)),
      ],
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
    tags = [
      await insertTag(db(), w, { slug: 'one' }),
      await insertTag(db(), w, { slug: 'two' }),
      await insertTag(db(), w, { slug: 'three' }),
    ];
    for (let i = 0; i < count; i += 1)
      seeded.push(
        await fullPost(
          i,
          [tags[i % 3]!, tags[(i + 1) % 3]!],
          seeded.slice(-2).map((p) => p.id),
        ),
      );
  }

  /** A write to something every post embeds: no stored render is current afterwards. */
  async function invalidateEveryRender(): Promise<void> {
    await db()
      .updateTable('workspaces')
      .set((eb) => ({ embeds_version: eb('embeds_version', '+', 1) }))
      .where('id', '=', workspace.id)
      .execute();
  }

  async function images(count: number) {
    const blocks = [];
    for (let i = 0; i < count; i += 1) blocks.push(image(await insertMedia(db(), workspace.id)));
    return blocks;
  }

  it('a page of 10 posts and a page of 100 cost the same, whatever the filter or sort', async () => {
    await invalidateEveryRender();
    // Ten renders to build, then ninety (ten are stored now), then none.
    expect(await cost(() => api().list(key, { pageSize: 10 }))).toBe(BUDGET.list.built);
    expect(await cost(() => api().list(key, { pageSize: 100 }))).toBe(BUDGET.list.built);
    expect(await cost(() => api().list(key, { pageSize: 100 }))).toBe(BUDGET.list.stored);
    await invalidateEveryRender();
    expect(await cost(() => api().list(key, { pageSize: 100 }))).toBe(BUDGET.list.built);

    const page = (await api().list(key, { pageSize: 100 })).json() as { data: Post[] };
    expect(page.data).toHaveLength(100);
    // The budget holds only if the embeds really came with it.
    for (const post of page.data) {
      expect(post.author?.avatarMedia).not.toBeNull();
      expect(post.category?.path).toMatch(/^root-\d+\/middle-\d+\/leaf-\d+$/);
      expect(post.featuredMedia).not.toBeNull();
      expect(post.tags).toHaveLength(2);
      for (const block of [...post.bodyJson, ...post.structuredBlocks])
        if (block.type === 'image') expect(block.url).toEqual(expect.any(String));
    }
    expect(page.data.filter((post) => post.relatedPosts.length === 2).length).toBeGreaterThanOrEqual(98);

    const tagId = page.data[0]!.tags[0]!.id;
    const cases = [
      {
        query: { q: 'budget', orderBy: 'title', order: 'asc' },
        budget: dialect === 'sqlite' ? BUDGET.filtered : BUDGET.searchedOnPostgres,
      },
      { query: { status: 'published', orderBy: 'publishedAt' }, budget: BUDGET.filtered },
      { query: { orderBy: 'seoScore', order: 'asc' }, budget: BUDGET.list },
      // 73 of the 110 posts carry the tag: one partial page of 100.
      { query: { tagId, pageSize: 100 }, budget: BUDGET.lastPage },
      { query: { authorId: seeded[5]!.authorId! }, budget: BUDGET.lastPage },
      { query: { pageSize: 100, page: 2 }, budget: BUDGET.lastPage },
    ];
    for (const { query, budget } of cases) {
      await invalidateEveryRender();
      expect(await cost(() => api().list(key, query)), `${JSON.stringify(query)}, renders built`).toBe(budget.built);
      expect(await cost(() => api().list(key, query)), `${JSON.stringify(query)}, renders stored`).toBe(budget.stored);
    }
    // Past the end: the key, the empty page of ids, the count; nothing to render.
    expect(await cost(() => api().list(key, { pageSize: 100, page: 3 }))).toBe(3);
  });

  it('a total read off a partial page is the same the count gives', async () => {
    const counted = (await api().list(key, { pageSize: 100 })).json() as { total: number };
    const implied = (await api().list(key, { pageSize: 100, page: 2 })).json() as {
      total: number;
      data: unknown[];
      totalPages: number;
    };
    const beyond = (await api().list(key, { pageSize: 100, page: 9 })).json() as { total: number; data: unknown[] };
    expect(implied.total).toBe(counted.total);
    expect(implied.total).toBe(100 + implied.data.length);
    expect(implied.totalPages).toBe(2);
    expect(beyond).toMatchObject({ total: counted.total, data: [] });
    const none = (await api().list(key, { q: 'no post says this' })).json() as { total: number; totalPages: number };
    expect(none).toMatchObject({ total: 0, totalPages: 1 });
  });

  it('the total of an unfiltered list follows the posts created and deleted', async () => {
    const counted = async () =>
      Number(
        (
          await db()
            .selectFrom('posts')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspace.id)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const total = async () => ((await api().list(key, { pageSize: 1 })).json() as { total: number }).total;
    const before = await counted();
    expect(await total()).toBe(before);
    const extra = await createPost(api(), key, { title: 'Counted' });
    expect(await total()).toBe(before + 1);
    expect((await api().remove(key, extra.id)).statusCode).toBe(200);
    expect((await api().remove(key, extra.id)).statusCode).toBe(404);
    expect(await total()).toBe(before);
    expect(await counted()).toBe(before);
  });

  it('a post with 1 image block and one with 200 cost the same to read', async () => {
    const related = seeded.slice(0, 3).map((p) => p.id);
    const one = await fullPost(1001, tags, related, { bodyJson: await images(1) });
    const many = await images(200);
    const big = await fullPost(1002, tags, related, { bodyJson: many, structuredBlocks: many.slice(0, 50) });

    expect(await cost(() => api().get(key, one.id))).toBe(BUDGET.get.built);
    expect(await cost(() => api().get(key, big.id))).toBe(BUDGET.get.built);
    expect(await cost(() => api().get(key, big.slug))).toBe(BUDGET.get.stored);
    expect(await cost(() => api().get(key, one.slug))).toBe(BUDGET.get.stored);
    const read = (await api().get(key, big.id)).json() as Post;
    expect(read.bodyJson.filter((block) => block.type === 'image' && block.url !== null)).toHaveLength(200);
    expect(read.relatedPosts).toHaveLength(3);
  });

  it('saving a body of 1 image block and one of 200 cost the same', async () => {
    const post = await fullPost(
      1003,
      tags,
      seeded.slice(0, 2).map((p) => p.id),
    );
    const many = await images(200);
    const patchCost = (body: Record<string, unknown>) =>
      cost(() => api().patch(key, post.id, { ...body, relatedPostIds: seeded.slice(2, 4).map((p) => p.id) }));
    expect(await patchCost({ bodyJson: many.slice(0, 1) })).toBe(BUDGET.patch);
    expect(await patchCost({ bodyJson: many, structuredBlocks: many })).toBe(BUDGET.patch);
  });
});
