import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { seedWorkspace } from '../../src/seed/seed.js';
import { searchWords, wordQuery } from '../../src/shared/search-words.js';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

// More posts than a search lists whole (post-handles.ts, FEW_MATCHES = 500), so both of its plans run.
const POSTS = 520;
const COMMON = 'time';
const RARE = 'quokka';

describeEachDialect('q: a term in a few posts and a term in most', (dialect) => {
  let ctx: TestContext;
  let workspace: TestWorkspace;
  let key: string;
  const db = () => ctx.runtime.database.db;
  const dialectOf = () => ctx.runtime.database.dialect;

  const list = (query: string, apiKey = key) =>
    ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts?${query}`, headers: { 'x-api-key': apiKey } });
  const patch = (id: string, payload: object) =>
    ctx.app.inject({ method: 'PATCH', url: `${EXTERNAL}/posts/${id}`, headers: { 'x-api-key': key }, payload });

  /**
   * What a scan of every row finds, in the list's default order: the answer the index must give. The words are
   * split here from the texts themselves, so the stored words are checked too.
   */
  async function scanned(
    word: string,
    order: 'created_at' | 'title' = 'created_at',
    direction: 'asc' | 'desc' = 'desc',
    whole = false,
  ): Promise<string[]> {
    const rows = await db()
      .selectFrom('posts')
      .select(['id', 'title', 'excerpt', 'body_text'])
      .where('workspace_id', '=', workspace.id)
      .where('deleted_at', 'is', null)
      .orderBy(order, direction)
      .orderBy('id', direction)
      .execute();
    return rows
      .filter((row) =>
        searchWords(row.title, row.excerpt, row.body_text)
          .split(' ')
          .some((stored) => (whole ? stored === word : stored.startsWith(word))),
      )
      .map((row) => row.id);
  }

  async function page(query: string): Promise<{ ids: string[]; total: number; totalPages: number }> {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Array<{ id: string }>; total: number; totalPages: number };
    return { ids: body.data.map((post) => post.id), total: body.total, totalPages: body.totalPages };
  }

  async function cost(query: string): Promise<number> {
    const before = ctx.runtime.database.stats.queries;
    await page(query);
    return ctx.runtime.database.stats.queries - before;
  }

  beforeAll(async () => {
    // Without the response cache, so every list reaches the database.
    ctx = await buildTestApp(dialect, { env: { QUIRE_RESPONSE_CACHE_MB: '0' } });
    ({ workspace, key } = await ctx.ownerKey());
    await seedWorkspace(ctx.runtime.database, {
      workspaceId: workspace.id,
      posts: POSTS,
      storage: createMediaStorage(ctx.config),
      anchor: new Date('2026-03-01T00:00:00.000Z'),
    });
    const [first, second, third] = await db()
      .selectFrom('posts')
      .select('id')
      .where('workspace_id', '=', workspace.id)
      .orderBy('slug')
      .limit(3)
      .execute();
    for (const post of [first!, second!, third!])
      expect((await patch(post.id, { title: `A Quokka at ${post.id}` })).statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/posts/${third!.id}`, headers: { 'x-api-key': key } }))
        .statusCode,
    ).toBe(200);
    // Another workspace's post with the term, found by the index too, and never listed here.
    const other = await ctx.ownerKey();
    const created = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/posts`,
      headers: { 'x-api-key': other.key },
      payload: { title: 'Quokka elsewhere' },
    });
    expect(created.statusCode).toBe(201);
  }, 120_000);
  afterAll(() => ctx?.close());

  it('a term in a few posts: each page and the total are what a scan finds, without deleted posts or other workspaces', async () => {
    const expected = await scanned(RARE);
    expect(expected).toHaveLength(2);
    expect(await page(`q=${RARE}`)).toEqual({ ids: expected, total: 2, totalPages: 1 });
    expect(await page(`q=QUOKKA&pageSize=1&page=2`)).toEqual({ ids: [expected[1]], total: 2, totalPages: 2 });
    expect(await page(`q=${RARE}&pageSize=1&page=3`)).toEqual({ ids: [], total: 2, totalPages: 2 });
    const byTitle = await scanned(RARE, 'title', 'asc');
    expect((await page(`q=${RARE}&orderBy=title&order=asc`)).ids).toEqual(byTitle);
    expect(await page(`q=${RARE}&status=archived`)).toEqual({ ids: [], total: 0, totalPages: 1 });
  });

  it('a term in most posts: each page and the total are what a scan finds', async () => {
    const expected = await scanned(COMMON);
    expect(expected.length).toBeGreaterThan(500);
    expect(await page(`q=${COMMON}&pageSize=50`)).toEqual({
      ids: expected.slice(0, 50),
      total: expected.length,
      totalPages: Math.ceil(expected.length / 50),
    });
    expect((await page(`q=${COMMON}&pageSize=50&page=3`)).ids).toEqual(expected.slice(100, 150));
    const last = Math.ceil(expected.length / 50);
    expect((await page(`q=${COMMON}&pageSize=50&page=${last}`)).ids).toEqual(expected.slice((last - 1) * 50));
    const byTitle = await scanned(COMMON, 'title', 'asc');
    expect((await page(`q=${COMMON}&orderBy=title&order=asc&pageSize=20&page=2`)).ids).toEqual(byTitle.slice(20, 40));
  });

  it("a word in most posts, paged by walking the order: each row's own words decide, as the index does", async () => {
    // A title word in every live post but the ten newest, which the walk of the first page passes over: five
    // hold a longer word it begins, five one it ends.
    const posts = await db()
      .selectFrom('posts')
      .select(['id', 'title', 'excerpt'])
      .where('workspace_id', '=', workspace.id)
      .where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const [n, post] of posts.entries()) {
      const title = `${post.title} ${n >= 10 ? 'zebra' : n % 2 === 0 ? 'zebras' : 'azebra'}`;
      await db()
        .updateTable('posts')
        .set({ title, search_head: searchWords(title, post.excerpt) })
        .where('id', '=', post.id)
        .execute();
    }
    for (const [q, whole] of [
      ['zebra ', true],
      ['zebra', false],
    ] as const) {
      const expected = await scanned('zebra', 'created_at', 'desc', whole);
      expect(expected.length).toBe(whole ? posts.length - 10 : posts.length - 5);
      // A page of 5 is walked (most rows match); a later page lists every match instead.
      for (const n of [1, 3]) {
        expect(await page(`q=${encodeURIComponent(q)}&pageSize=5&page=${n}`), `${q}, page ${n}`).toEqual({
          ids: expected.slice((n - 1) * 5, n * 5),
          total: expected.length,
          totalPages: Math.ceil(expected.length / 5),
        });
      }
    }
  });

  it('costs a fixed number of statements for either term, whatever the page size', async () => {
    // Warm the stored renders, so the counts are the search's own.
    for (const pageSize of [10, 100]) {
      await page(`q=${RARE}&pageSize=${pageSize}`);
      await page(`q=${COMMON}&pageSize=${pageSize}`);
    }
    // The key, the ids, the posts with their renders, and the count unless the page was a partial one.
    // SQLite first asks its search index for the matching rows, up to 501: the few matches of a rare term
    // come with their count, and a common term is counted apart.
    // PostgreSQL runs a search in a transaction of its own, with scans off (DialectHelpers.searching): its
    // begin, set and commit are three statements more, and it counts every term first (then names a rare one's).
    const rare = dialect === 'sqlite' ? 4 : 8;
    const common = dialect === 'sqlite' ? 5 : 7;
    for (const pageSize of [10, 100]) {
      expect(await cost(`q=${RARE}&pageSize=${pageSize}`), `rare, ${pageSize}`).toBe(rare);
      expect(await cost(`q=${COMMON}&pageSize=${pageSize}`), `common, ${pageSize}`).toBe(common);
    }
  });

  it('a rare word names its rows, a common one is counted in the index; SQLite looks the few up by rowid (query plan)', async () => {
    const found = (word: string) =>
      dialectOf().wordsFound(db(), 'posts', { workspaceId: workspace.id }, wordQuery(word), 500);
    const rare = await found(RARE);
    // On SQLite the other workspace's post and the deleted one are named too: the list statement checks them out.
    expect(rare.few).toBeDefined();
    expect(rare.counted).toBeUndefined();
    const common = await found(COMMON);
    expect(common.few).toBeUndefined();
    // Counted in the index, which holds neither deleted posts nor, in the scope, another workspace's.
    expect(common.counted).toEqual({ total: (await scanned(COMMON)).length, live: POSTS - 1 });
    if (dialect === 'postgres') return;
    const few = rare.few!;
    const query = db()
      .selectFrom('posts')
      .select('id')
      .where(sql<boolean>`+posts.workspace_id = ${workspace.id}`)
      .where('deleted_at', 'is', null)
      .where(few)
      .orderBy(sql`+posts.created_at`, 'desc')
      .compile();
    const plan = await db().executeQuery<{ detail: string }>({
      ...query,
      sql: `explain query plan ${query.sql}`,
    } as never);
    const details = plan.rows.map((row) => row.detail).join('\n');
    // Each named row by its rowid, never a walk of one of the workspace's indexes (migration 0016's cover the check).
    expect(details).toMatch(/^SEARCH posts USING INTEGER PRIMARY KEY \(rowid=\?\)$/m);
    expect(details).not.toMatch(/\(workspace_id=\?\)/);
  });
});
