import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageUpdateBody } from '../../src/modules/pages/pages.schemas.js';
import { PostUpdateBody } from '../../src/modules/posts/posts.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { insertAuthor, insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { ISO, NO_SUCH_ID, type ErrorBody, type Json, type Response } from '../helpers/posts.js';
import { queriesOf } from '../helpers/resources.js';

interface Summary {
  n: number;
  action: string;
  slug: string;
  title: string;
  userId: string | null;
  apiKeyId: string | null;
  createdAt: string;
}
interface Revision extends Summary {
  fields: Json;
}
interface RevisionPage {
  data: Summary[];
  page: number;
  pageSize: number;
  order: string;
  total: number;
  totalPages: number;
}

describeEachDialect('revisions of posts and pages', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let keyId: string;
  let workspace: TestWorkspace;
  let ownerId: string;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, keyId, workspace } = await ctx.ownerKey());
    ownerId = workspace.owner.id;
    workspaceId = workspace.id;
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, apiKey = key) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': apiKey },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const ok = <T>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  const list = async (path: string, query = '') => ok<RevisionPage>(await call('GET', `${path}/revisions${query}`));
  const revision = async (path: string, n: number) => ok<Revision>(await call('GET', `${path}/revisions/${n}`));

  describe('posts', () => {
    it('keeps a revision of every create and update, newest first, with who wrote it; tag changes and deletions keep none', async () => {
      const post = ok<Json>(await call('POST', '/posts', { title: 'First words', excerpt: 'one' }), 201);
      const path = `/posts/${String(post.id)}`;
      ok(await call('PATCH', path, { title: 'Second words', bodyJson: [{ type: 'paragraph', text: 'Body.' }] }));
      ok(await call('PATCH', path, { status: 'published' }));
      const tag = ok<Json>(await call('POST', '/tags', { name: 'Kept out' }), 201);
      ok(await call('POST', `${path}/tags`, { tagIds: [tag.id] }));
      ok(await call('DELETE', `${path}/tags`, { tagIds: [tag.id] }));

      const page = await list(path);
      expect(page).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 3, totalPages: 1 });
      expect(page.data.map((r) => [r.n, r.action, r.title])).toEqual([
        [3, 'published', 'Second words'],
        [2, 'updated', 'Second words'],
        [1, 'created', 'First words'],
      ]);
      for (const summary of page.data) {
        expect(summary).toMatchObject({ slug: 'first-words', userId: ownerId, apiKeyId: keyId });
        expect(summary.createdAt).toMatch(ISO);
        expect(summary).not.toHaveProperty('fields');
      }

      // By slug as by id; oldest first on request; pages of the list.
      expect((await list('/posts/first-words', '?orderBy=n&order=asc')).data.map((r) => r.n)).toEqual([1, 2, 3]);
      expect(await list(path, '?pageSize=2&page=2')).toMatchObject({ data: [{ n: 1 }], total: 3, totalPages: 2 });

      const first = await revision(path, 1);
      expect(first.fields).toMatchObject({ title: 'First words', excerpt: 'one', status: 'draft', bodyJson: [] });
      // Every writable field, and nothing else: a body PATCH takes.
      expect(Object.keys(first.fields).sort()).toEqual(Object.keys(PostUpdateBody.properties).sort());
      expect((await revision(path, 2)).fields).toMatchObject({ bodyJson: [{ type: 'paragraph', text: 'Body.' }] });

      ok(await call('DELETE', path));
      expect((await call('GET', `${path}/revisions`)).statusCode).toBe(404);
    });

    it('restores a revision as a new write: its own revision and event, the status left as it is', async () => {
      const author = await insertAuthor(db(), workspaceId);
      const post = ok<Json>(await call('POST', '/posts', { title: 'Draft one', authorId: author }), 201);
      const path = `/posts/${String(post.id)}`;
      ok(await call('PATCH', path, { title: 'Draft two', authorId: null, status: 'published' }));
      const eventsBefore = await db()
        .selectFrom('content_events')
        .select('seq')
        .where('resource_id', '=', String(post.id))
        .execute();

      const restored = ok<Json>(await call('POST', `${path}/revisions/1/restore`));
      expect(restored).toMatchObject({ id: post.id, title: 'Draft one', authorId: author, status: 'published' });
      expect(ok<Json>(await call('GET', path))).toMatchObject({ title: 'Draft one', status: 'published' });
      expect((await list(path)).data.map((r) => [r.n, r.action, r.title])).toEqual([
        [3, 'updated', 'Draft one'],
        [2, 'published', 'Draft two'],
        [1, 'created', 'Draft one'],
      ]);
      const events = await db()
        .selectFrom('content_events')
        .select('action')
        .where('resource_id', '=', String(post.id))
        .orderBy('seq')
        .execute();
      expect(events).toHaveLength(eventsBefore.length + 1);
      expect(events.at(-1)!.action).toBe('updated');
    });

    it('refuses a restore whose slug another post took since (409) or whose author was deleted since (400 naming it)', async () => {
      const first = ok<Json>(await call('POST', '/posts', { title: 'Taken later', slug: 'taken-later' }), 201);
      ok(await call('PATCH', `/posts/${String(first.id)}`, { slug: 'moved-away' }));
      ok(await call('POST', '/posts', { title: 'Usurper', slug: 'taken-later' }), 201);
      const conflict = await call('POST', `/posts/${String(first.id)}/revisions/1/restore`);
      expect(conflict.statusCode, conflict.body).toBe(409);
      expect((conflict.json() as ErrorBody).code).toBe('CONFLICT');

      const author = await insertAuthor(db(), workspaceId);
      const post = ok<Json>(await call('POST', '/posts', { title: 'Authored', authorId: author }), 201);
      ok(await call('PATCH', `/posts/${String(post.id)}`, { authorId: null }));
      ok(await call('DELETE', `/authors/${author}`));
      const refused = await call('POST', `/posts/${String(post.id)}/revisions/1/restore`);
      expect(refused.statusCode, refused.body).toBe(400);
      expect((refused.json() as ErrorBody).details?.issues?.map((issue) => issue.path)).toEqual(['/authorId']);
      expect((await list(`/posts/${String(post.id)}`)).total).toBe(2);
    });

    it('keeps a revision when a media deletion clears a featured image, since that writes the post', async () => {
      const media = await insertMedia(db(), workspaceId);
      const post = ok<Json>(await call('POST', '/posts', { title: 'Pictured', featuredMediaId: media }), 201);
      ok(await call('DELETE', `/media/${media}`));
      const [latest] = (await list(`/posts/${String(post.id)}`)).data;
      expect(latest).toMatchObject({ n: 2, action: 'updated' });
      expect((await revision(`/posts/${String(post.id)}`, 2)).fields.featuredMediaId).toBeNull();
      expect((await revision(`/posts/${String(post.id)}`, 1)).fields.featuredMediaId).toBe(media);
    });

    it('numbers concurrent writes of one post without a gap or a repeat', async () => {
      // Published, so that every write keeps a revision of its own (a draft's merge: revision-windows.test.ts).
      const post = ok<Json>(await call('POST', '/posts', { title: 'Busy', status: 'published' }), 201);
      const path = `/posts/${String(post.id)}`;
      const writes = await Promise.all(
        Array.from({ length: 8 }, (_, index) => call('PATCH', path, { excerpt: `write ${index}` })),
      );
      expect(writes.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
      expect((await list(path, '?pageSize=20&orderBy=n&order=asc')).data.map((r) => r.n)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9,
      ]);
    });
  });

  describe('pages', () => {
    it('keeps, lists, reads and restores the revisions of a page', async () => {
      const page = ok<Json>(
        await call('POST', '/pages', { title: 'About', bodyJson: [{ type: 'paragraph', text: 'Old.' }] }),
        201,
      );
      const path = `/pages/${String(page.id)}`;
      ok(await call('PATCH', path, { bodyJson: [{ type: 'paragraph', text: 'New.' }], status: 'published' }));
      expect((await list('/pages/about')).data.map((r) => [r.n, r.action])).toEqual([
        [2, 'published'],
        [1, 'created'],
      ]);
      const first = await revision(path, 1);
      expect(Object.keys(first.fields).sort()).toEqual(Object.keys(PageUpdateBody.properties).sort());
      const restored = ok<Json>(await call('POST', `${path}/revisions/1/restore`));
      expect(restored).toMatchObject({ bodyText: 'Old.', status: 'published' });
      expect((await list(path)).data[0]).toMatchObject({ n: 3, action: 'updated' });
    });
  });

  describe('bad input and permissions', () => {
    it('answers 400 naming /n for a number that is not a positive integer, 404 for what is absent', async () => {
      const post = ok<Json>(await call('POST', '/posts', { title: 'Numbered' }), 201);
      for (const n of ['0', '-1', '1.5', 'abc', '2147483648']) {
        for (const [method, suffix] of [
          ['GET', ''],
          ['POST', '/restore'],
        ] as const) {
          const response = await call(method, `/posts/${String(post.id)}/revisions/${n}${suffix}`);
          expect(response.statusCode, `${method} ${n}`).toBe(400);
          expect((response.json() as ErrorBody).details?.issues?.[0]?.path, n).toBe('/n');
        }
      }
      expect((await call('GET', `/posts/${String(post.id)}/revisions/2`)).statusCode).toBe(404);
      expect((await call('POST', `/posts/${String(post.id)}/revisions/2/restore`)).statusCode).toBe(404);
      expect((await call('GET', `/posts/${NO_SUCH_ID}/revisions`)).statusCode).toBe(404);
      expect((await call('GET', `/pages/no-such-page/revisions/1`)).statusCode).toBe(404);
      // A post of another workspace is absent from this one.
      const other = await ctx.ownerKey();
      expect((await call('GET', `/posts/${String(post.id)}/revisions`, undefined, other.key)).statusCode).toBe(404);
      expect((await call('GET', `/posts/${String(post.id)}/revisions/1`, undefined, other.key)).statusCode).toBe(404);
    });

    it('reading needs the read permission of the resource, restoring its write permission', async () => {
      const post = ok<Json>(await call('POST', '/posts', { title: 'Guarded' }), 201);
      const path = `/posts/${String(post.id)}/revisions`;
      const reader = await ctx.memberKey(['posts:read'], workspace);
      expect((await call('GET', path, undefined, reader.key)).statusCode).toBe(200);
      expect((await call('GET', `${path}/1`, undefined, reader.key)).statusCode).toBe(200);
      expect((await call('POST', `${path}/1/restore`, undefined, reader.key)).statusCode).toBe(403);
      const pagesOnly = await ctx.memberKey(['pages:read', 'pages:write'], workspace);
      expect((await call('GET', path, undefined, pagesOnly.key)).statusCode).toBe(403);
      const writer = await ctx.memberKey(['posts:write'], workspace);
      expect((await call('POST', `${path}/1/restore`, undefined, writer.key)).statusCode).toBe(200);
    });
  });

  it('a list walks the primary key backwards: no scan of the table, no sort (query plan)', async () => {
    const query = db()
      .selectFrom('post_revisions')
      .select(['n', 'action', 'slug', 'title', 'actor_user_id', 'actor_api_key_id', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', '=', NO_SUCH_ID)
      .orderBy('n', 'desc')
      .limit(10)
      .offset(0)
      .compile();
    if (dialect === 'sqlite') {
      const plan = await db().executeQuery<{ detail: string }>({
        ...query,
        sql: `explain query plan ${query.sql}`,
      } as never);
      const details = plan.rows.map((row) => row.detail).join('\n');
      expect(details).toMatch(
        /^SEARCH post_revisions USING INDEX sqlite_autoindex_post_revisions_1 \(workspace_id=\? AND resource_id=\?\)$/,
      );
      return;
    }
    // PostgreSQL plans a table this small as a scan; with scans off, what is left is the index it would use.
    const lines = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>({
          ...query,
          sql: `explain ${query.sql}`,
        } as never);
        return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    expect(lines).toMatch(/Index Scan Backward using post_revisions_pk on post_revisions/);
    expect(lines).not.toMatch(/Sort/);
    // A backward walk of an index that does not lead with the post would read the workspace's every revision.
    const definition = await sql<{ def: string }>`select pg_get_indexdef('post_revisions_pk'::regclass) as def`.execute(
      db(),
    );
    expect(definition.rows[0]!.def).toMatch(/\(workspace_id, resource_id, n\)$/);
  });

  it('a list of 3 revisions and one of 40 cost the same number of statements', async () => {
    // Published, so that every write keeps a revision of its own (a draft's merge: revision-windows.test.ts).
    const post = ok<Json>(await call('POST', '/posts', { title: 'Counted', status: 'published' }), 201);
    const path = `/posts/${String(post.id)}`;
    for (let i = 0; i < 2; i += 1) ok(await call('PATCH', path, { excerpt: `e${i}` }));
    // Through the app with the response cache missing: a query string it has not seen.
    const few = await queriesOf(ctx, () => call('GET', `${path}/revisions?pageSize=100&page=1`));
    for (let i = 2; i < 39; i += 1) ok(await call('PATCH', path, { excerpt: `e${i}` }));
    const many = await queriesOf(ctx, () => call('GET', `${path}/revisions?pageSize=100&page=1&order=desc&orderBy=n`));
    expect((await list(path, '?pageSize=100')).total).toBe(40);
    // The key, the post's id, the page of revisions (whose size gives the total).
    expect(few).toBe(3);
    expect(many).toBe(3);
  });
});

describeEachDialect('revisions kept (QUIRE_REVISIONS_KEPT)', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_REVISIONS_KEPT: '3' } });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  it('keeps the newest revisions only, dropping older ones in the write that makes a newer one', async () => {
    const send = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: Json) =>
      ctx.app.inject({
        method,
        url: `${EXTERNAL}${url}`,
        headers: { 'x-api-key': key },
        ...(payload ? { payload } : {}),
      });
    // Published, so that every write keeps a revision of its own (a draft's merge: revision-windows.test.ts).
    const post = (await send('POST', '/posts', { title: 'Pruned', status: 'published' })).json() as Json;
    for (let i = 0; i < 5; i += 1)
      expect((await send('PATCH', `/posts/${String(post.id)}`, { excerpt: `${i}` })).statusCode).toBe(200);
    const page = (await send('GET', `/posts/${String(post.id)}/revisions`)).json() as RevisionPage;
    expect(page.data.map((r) => r.n)).toEqual([6, 5, 4]);
    expect(page.total).toBe(3);
    expect((await send('GET', `/posts/${String(post.id)}/revisions/3`)).statusCode).toBe(404);
    const rows = await ctx.runtime.database.db
      .selectFrom('post_revisions')
      .select('n')
      .where('resource_id', '=', String(post.id))
      .execute();
    expect(rows.map((row) => row.n).sort()).toEqual([4, 5, 6]);
  });
});
