import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { Json, Response } from '../helpers/posts.js';

interface Summary {
  n: number;
  action: string;
  title: string;
  userId: string | null;
  apiKeyId: string | null;
  createdAt: string;
}

/** The routes of one app, each call made with the key given (the first key by default). */
function api(ctx: () => TestContext, firstKey: () => string) {
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Json, key = firstKey()) =>
    ctx().app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload }),
    });
  const ok = <T = Json>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  return {
    call,
    ok,
    create: async (kind: 'posts' | 'pages', body: Json, key?: string) =>
      `/${kind}/${String(ok(await call('POST', `/${kind}`, body, key), 201).id)}`,
    save: async (path: string, body: Json, key?: string) => ok(await call('PATCH', path, body, key)),
    history: async (path: string) =>
      ok<{ data: Summary[] }>(await call('GET', `${path}/revisions?pageSize=100`)).data.map((r) => [
        r.n,
        r.action,
        r.title,
      ]),
    revision: async (path: string, n: number) =>
      ok<Summary & { fields: Json }>(await call('GET', `${path}/revisions/${n}`)),
  };
}

/** The clock the writes read (Date alone: timers and the drivers run on as they do), moved by hand. */
function manualClock() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
}

describeEachDialect('revision windows: a draft saved again and again by one writer (default window)', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let keyId: string;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, keyId, workspace } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());
  const { call, ok, create, save, history, revision } = api(
    () => ctx,
    () => key,
  );
  const later = manualClock();

  it("keeps a draft's saves within the window as one revision, holding the last save's fields and time", async () => {
    const path = await create('posts', { title: 'Autosaved' });
    later(10);
    await save(path, { excerpt: 'one' });
    later(100);
    await save(path, { title: 'Autosaved again', excerpt: 'two' });
    expect(await history(path)).toEqual([
      [2, 'updated', 'Autosaved again'],
      [1, 'created', 'Autosaved'],
    ]);
    const second = await revision(path, 2);
    expect(second.fields).toMatchObject({ title: 'Autosaved again', excerpt: 'two' });
    expect(second.createdAt).toBe(new Date().toISOString());

    // The window runs from the first save it holds, not from the last: 299 s after it one more merges, at 300 s
    // a new revision opens.
    later(199);
    await save(path, { excerpt: 'three' });
    expect((await revision(path, 2)).fields.excerpt).toBe('three');
    later(1);
    await save(path, { excerpt: 'four' });
    expect(await history(path)).toEqual([
      [3, 'updated', 'Autosaved again'],
      [2, 'updated', 'Autosaved again'],
      [1, 'created', 'Autosaved'],
    ]);
    expect((await revision(path, 2)).fields.excerpt).toBe('three');
    expect((await revision(path, 3)).fields.excerpt).toBe('four');
  });

  it('gives another writer (another key of the same user, another member) a revision of its own', async () => {
    const path = await create('posts', { title: 'Shared draft' });
    const sameUser = await ctx.createKey(workspace, workspace.owner, { name: 'second key' });
    const member = await ctx.memberKey(['posts:read', 'posts:write'], workspace);
    await save(path, { excerpt: 'first key' });
    later(1);
    await save(path, { excerpt: 'second key' }, sameUser.key);
    later(1);
    await save(path, { excerpt: 'member' }, member.key);
    later(1);
    await save(path, { excerpt: 'member again' }, member.key);
    const { data } = ok<{ data: Summary[] }>(await call('GET', `${path}/revisions`));
    expect(data.map((r) => [r.n, r.action, r.userId, r.apiKeyId])).toEqual([
      [4, 'updated', member.user.id, member.keyId],
      [3, 'updated', workspace.owner.id, sameUser.id],
      [2, 'updated', workspace.owner.id, keyId],
      [1, 'created', workspace.owner.id, keyId],
    ]);
    expect((await revision(path, 4)).fields.excerpt).toBe('member again');
  });

  it('keeps every save of a post that is not a draft, and each publish, unpublish and archive, as its own', async () => {
    const path = await create('posts', { title: 'Steps' });
    await save(path, { excerpt: 'draft' });
    await save(path, { status: 'published' });
    await save(path, { excerpt: 'live one' });
    await save(path, { excerpt: 'live two' });
    await save(path, { status: 'draft' });
    await save(path, { excerpt: 'draft again' });
    await save(path, { excerpt: 'draft again, more' });
    await save(path, { status: 'archived' });
    await save(path, { excerpt: 'archived one' });
    await save(path, { excerpt: 'archived two' });
    expect((await history(path)).map(([n, action]) => [n, action])).toEqual([
      [10, 'updated'],
      [9, 'updated'],
      [8, 'archived'],
      [7, 'updated'],
      [6, 'unpublished'],
      [5, 'updated'],
      [4, 'updated'],
      [3, 'published'],
      [2, 'updated'],
      [1, 'created'],
    ]);
    expect((await revision(path, 7)).fields.excerpt).toBe('draft again, more');
  });

  it('keeps a restore as a revision of its own, and the save after it as another', async () => {
    const path = await create('posts', { title: 'Version A', excerpt: 'a' });
    await save(path, { title: 'Version B', excerpt: 'b' });
    await save(path, { title: 'Version C', excerpt: 'c' });
    ok(await call('POST', `${path}/revisions/1/restore`));
    await save(path, { title: 'Version D' });
    await save(path, { title: 'Version E' });
    expect(await history(path)).toEqual([
      [4, 'updated', 'Version E'],
      [3, 'updated', 'Version A'],
      [2, 'updated', 'Version C'],
      [1, 'created', 'Version A'],
    ]);
    // Restoring any revision gives exactly its fields (a draft all along: the status a restore leaves is the
    // same), which the restore's own revision, read from the post as written, holds.
    for (const n of [1, 2, 3, 4]) {
      const { fields } = await revision(path, n);
      ok(await call('POST', `${path}/revisions/${n}/restore`));
      expect((await revision(path, n + 4)).fields).toEqual(fields);
    }
    expect((await history(path)).slice(0, 4)).toEqual([
      [8, 'updated', 'Version E'],
      [7, 'updated', 'Version A'],
      [6, 'updated', 'Version C'],
      [5, 'updated', 'Version A'],
    ]);
  });

  it('does the same for pages: saves merge, a restore stands alone', async () => {
    const path = await create('pages', { title: 'About' });
    await save(path, { title: 'About us' });
    await save(path, { title: 'About all of us' });
    ok(await call('POST', `${path}/revisions/1/restore`));
    await save(path, { title: 'About them' });
    expect(await history(path)).toEqual([
      [4, 'updated', 'About them'],
      [3, 'updated', 'About'],
      [2, 'updated', 'About all of us'],
      [1, 'created', 'About'],
    ]);
  });

  it('merges concurrent saves of one draft into one revision, which holds the post as the last one left it', async () => {
    const path = await create('posts', { title: 'Busy draft' });
    const writes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => call('PATCH', path, { excerpt: `write ${index}` })),
    );
    expect(writes.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    expect((await history(path)).map(([n]) => n)).toEqual([2, 1]);
    const post = ok(await call('GET', path));
    expect((await revision(path, 2)).fields.excerpt).toBe(post.excerpt);
  });
});

describeEachDialect('revision windows: QUIRE_REVISION_WINDOW_SECONDS=0', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_REVISION_WINDOW_SECONDS: '0' } });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());
  const { create, save, history } = api(
    () => ctx,
    () => key,
  );

  it('keeps one revision per save of a draft', async () => {
    const path = await create('posts', { title: 'Every save' });
    for (const excerpt of ['one', 'two', 'three']) await save(path, { excerpt });
    expect((await history(path)).map(([n, action]) => [n, action])).toEqual([
      [4, 'updated'],
      [3, 'updated'],
      [2, 'updated'],
      [1, 'created'],
    ]);
  });
});

describeEachDialect('revision windows with QUIRE_REVISIONS_KEPT=3', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_REVISIONS_KEPT: '3' } });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());
  const { create, save, history, revision } = api(
    () => ctx,
    () => key,
  );
  const later = manualClock();

  describe('pruning', () => {
    it('keeps the newest three; a save merged into the newest prunes nothing', async () => {
      const path = await create('posts', { title: 'Pruned' });
      for (const excerpt of ['one', 'two', 'three']) {
        later(301);
        await save(path, { excerpt });
      }
      expect((await history(path)).map(([n]) => n)).toEqual([4, 3, 2]);
      later(1);
      await save(path, { excerpt: 'three, merged' });
      expect((await history(path)).map(([n]) => n)).toEqual([4, 3, 2]);
      expect((await revision(path, 4)).fields.excerpt).toBe('three, merged');
      expect((await revision(path, 2)).fields.excerpt).toBe('one');
    });
  });
});
