import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { services } from '../helpers/services.js';
import { createPost, getPost, listPosts, postsApi, storedPost, type Response } from '../helpers/posts.js';

/*
 * PostgreSQL only: SQLite's write transactions begin IMMEDIATE and run one at a time. Here two writes of
 * one post (or page) run concurrently, each reading the row before it writes what it derives from it. A test
 * transaction holds the row's lock while the writes start, one after the other, each once the one before is
 * waiting for a lock: with the row lock, at its read; without it, at its update, having read the row as it
 * was. Then the test lets them go, and they take the row in the order they started.
 */
const suite = services.postgresUrl ? describe : describe.skip;
const reason = services.postgresUrl ? '' : ' [postgres: skipped, QUIRE_TEST_DATABASE_URL is not set]';

suite(`concurrent writes of one post or page [postgres]${reason}`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp('postgres');
  });
  afterAll(() => ctx?.close());

  const api = () => postsApi(ctx);

  /** Waits until `count` sessions of this database wait for a lock (5 s at most). */
  async function lockWaiters(count: number): Promise<void> {
    const query = sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    for (let tries = 0; tries < 500; tries += 1) {
      if ((await query.execute(ctx.runtime.database.db)).rows[0]!.n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`fewer than ${count} sessions waited for a lock`);
  }

  /** Starts each write in turn while another transaction holds the row's lock, then lets them go. */
  async function whileLocked(
    table: 'posts' | 'pages',
    id: string,
    ...writes: Array<() => Promise<Response>>
  ): Promise<Response[]> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = ctx.runtime.database.db.transaction().execute(async (trx) => {
      await sql`select id from ${sql.table(table)} where id = ${id} for update`.execute(trx);
      locked();
      await released;
    });
    await lockTaken;
    const pending: Array<Promise<Response>> = [];
    for (const write of writes) {
      pending.push(write());
      await lockWaiters(pending.length);
    }
    release();
    await holder;
    return Promise.all(pending);
  }

  it('a title PATCH and an excerpt PATCH at once: the post is found by both, and its scores are those of the final row', async () => {
    const { key } = await ctx.ownerKey();
    // The SEO score counts a title of 30–60 characters and a description (the excerpt) of 120–160: the new
    // title and the new excerpt each pass one check, so a score built from either without the other is 10 low.
    const title = 'The lighthouse keeper and the long winter watch';
    const excerpt = `Gannets overhead, ${'and the long grey swell below the lamp room, '.repeat(3)}`.slice(0, 140);
    const post = await createPost(api(), key, {
      title: 'Quiet harbour',
      excerpt: 'An old excerpt',
      bodyJson: [{ type: 'paragraph', text: 'Some text.' }],
    });
    const responses = await whileLocked(
      'posts',
      post.id,
      () => api().patch(key, post.id, { title }),
      () => api().patch(key, post.id, { excerpt }),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);

    const final = await getPost(api(), key, post.id);
    expect(final).toMatchObject({ title, excerpt });
    expect((await listPosts(api(), key, { q: 'lighthouse' })).data.map((found) => found.id)).toEqual([post.id]);
    expect((await listPosts(api(), key, { q: 'gannets' })).data.map((found) => found.id)).toEqual([post.id]);

    // Rescored from the final row: a PATCH that changes nothing the scores read must not move them.
    const settled = await api().patch(key, post.id, { status: 'draft' });
    expect(settled.statusCode).toBe(200);
    expect({ seo: settled.json().seoScore, readability: settled.json().readabilityScore }).toEqual({
      seo: final.seoScore,
      readability: final.readabilityScore,
    });
  });

  it('each PATCH answers the post as its own write left it, on top of the one before', async () => {
    const { key } = await ctx.ownerKey();
    const post = await createPost(api(), key, { title: 'First title', excerpt: 'First excerpt' });
    const [byTitle, byExcerpt] = await whileLocked(
      'posts',
      post.id,
      () => api().patch(key, post.id, { title: 'Second title' }),
      () => api().patch(key, post.id, { excerpt: 'Second excerpt' }),
    );
    // The excerpt's PATCH ran second, on top of the title's; each answer is the row its own write left.
    expect(byTitle!.json()).toMatchObject({ title: 'Second title', excerpt: 'First excerpt' });
    expect(byExcerpt!.json()).toMatchObject({ title: 'Second title', excerpt: 'Second excerpt' });
    expect(await getPost(api(), key, post.id)).toEqual(byExcerpt!.json());
  });

  it('writes of two posts that list each other, many at once: every one answers 200 (no deadlock)', async () => {
    const { key } = await ctx.ownerKey();
    const a = await createPost(api(), key, { title: 'Ebb' });
    const b = await createPost(api(), key, { title: 'Flow', relatedPostIds: [a.id] });
    expect((await api().patch(key, a.id, { relatedPostIds: [b.id] })).statusCode).toBe(200);
    // When each write also re-stamped the other post, which lists it, the two took each other's rows in
    // opposite orders: 19 of these 32 answered 500 in one run (PostgreSQL found a deadlock and aborted a
    // transaction). A write now takes its own post's row alone; each read sees the other's write.
    const codes: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      const responses = await Promise.all([
        api().patch(key, a.id, { title: `Ebb ${round}` }),
        api().patch(key, b.id, { title: `Flow ${round}` }),
        api().patch(key, a.id, { excerpt: `Low water ${round}` }),
        api().patch(key, b.slug, { excerpt: `High water ${round}` }),
      ]);
      codes.push(...responses.map((response) => response.statusCode));
    }
    expect(codes.filter((code) => code !== 200)).toEqual([]);
    expect(await getPost(api(), key, b.id)).toMatchObject({
      title: 'Flow 7',
      relatedPosts: [{ id: a.id, title: 'Ebb 7', excerpt: 'Low water 7' }],
    });
  });

  it('two DELETEs at once: one 200, one 404, and the list total drops by one', async () => {
    const { key } = await ctx.ownerKey();
    await createPost(api(), key, { title: 'Stays' });
    const post = await createPost(api(), key, { title: 'Goes' });
    const before = (await listPosts(api(), key, { pageSize: 1 })).total;
    const responses = await whileLocked(
      'posts',
      post.id,
      () => api().remove(key, post.id),
      () => api().remove(key, post.id),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 404]);
    expect((await listPosts(api(), key, { pageSize: 1 })).total).toBe(before - 1);
    expect((await storedPost(ctx.runtime.database.db, post.id)).deleted_at).not.toBeNull();
  });

  it('a page renamed and renamed back at once: it is found by the title it ends with, and two DELETEs count once', async () => {
    const { key } = await ctx.ownerKey();
    const pages = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', path: string, payload?: object) =>
      ctx.app.inject({
        method,
        url: `/api/v1/external/pages${path}`,
        headers: { 'x-api-key': key },
        ...(payload ? { payload } : {}),
      });
    const page = (await pages('POST', '', { title: 'Harbour' })).json() as { id: string };
    // Each reads the title Harbour; the second write leaves the title as it found it.
    const renamed = await whileLocked(
      'pages',
      page.id,
      () => pages('PATCH', `/${page.id}`, { title: 'Lighthouse' }),
      () => pages('PATCH', `/${page.id}`, { title: 'Harbour' }),
    );
    expect(renamed.map((response) => response.statusCode)).toEqual([200, 200]);
    expect((await pages('GET', `/${page.id}`)).json()).toMatchObject({ title: 'Harbour' });
    expect((await pages('GET', '?q=harbour')).json().data.map((found: { id: string }) => found.id)).toEqual([page.id]);
    expect((await pages('GET', '?q=lighthouse')).json().data).toEqual([]);

    const removed = await whileLocked(
      'pages',
      page.id,
      () => pages('DELETE', `/${page.id}`),
      () => pages('DELETE', `/${page.id}`),
    );
    expect(removed.map((response) => response.statusCode).sort()).toEqual([200, 404]);
  });
});
