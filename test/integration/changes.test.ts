import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../src/security/permissions.js';
import { commandLine } from '../../src/writes/changes.js';
import { contentEventsRepository } from '../../src/writes/content-events.repository.js';
import { contentWrite } from '../../src/writes/content-write.js';
import { pruneEvents } from '../../src/writes/event-retention.js';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { ISO, type ErrorBody, type Json, type Response } from '../helpers/posts.js';
import { queriesOf } from '../helpers/resources.js';

interface ChangeEvent {
  seq: number;
  event: string;
  type: string;
  id: string;
  slug: string | null;
  action: string;
  timestamp: string;
}
interface ChangesPage {
  data: ChangeEvent[];
  next: string;
  hasMore: boolean;
}

describeEachDialect('the change feed', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const call = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const ok = <T>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  const changes = async (key: string, after?: string, query = '') =>
    ok<ChangesPage>(await call(key, 'GET', `/changes?${after === undefined ? '' : `after=${after}&`}${query}`));
  const refusal = async (key: string, query: string) => {
    const response = await call(key, 'GET', `/changes?${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
    return response.json() as ErrorBody;
  };
  const settingsWrite = (workspaceId: string) =>
    contentWrite(ctx.runtime.database, commandLine(workspaceId), async ({ changed }) => {
      changed({ type: 'settings', id: workspaceId, slug: null, action: 'updated' });
    });

  it('lists the events in commit order, deletions included, and a reader following `next` sees each once', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const empty = await changes(key);
    expect(empty).toMatchObject({ data: [], hasMore: false });

    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Fresh bread' }), 201);
    ok(await call(key, 'PATCH', `/posts/${String(post.id)}`, { status: 'published' }));
    const tag = ok<Json>(await call(key, 'POST', '/tags', { name: 'Baking' }), 201);
    ok(await call(key, 'POST', `/posts/${String(post.id)}/tags`, { tagIds: [tag.id] }));
    ok(await call(key, 'DELETE', `/posts/${String(post.id)}`));
    await settingsWrite(workspace.id);

    const first = await changes(key, empty.next);
    expect(first.hasMore).toBe(false);
    expect(first.data.map((e) => [e.event, e.type, e.action, e.slug])).toEqual([
      ['post.created', 'post', 'created', 'fresh-bread'],
      ['post.published', 'post', 'published', 'fresh-bread'],
      ['tag.created', 'tag', 'created', 'baking'],
      ['post.updated', 'post', 'attached', 'fresh-bread'],
      ['post.deleted', 'post', 'deleted', 'fresh-bread'],
      ['site-settings.updated', 'settings', 'updated', null],
    ]);
    expect(first.data[0]).toMatchObject({ id: post.id });
    for (const event of first.data) expect(event.timestamp).toMatch(ISO);
    const seqs = first.data.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    // From the start without a cursor, the same events.
    expect((await changes(key)).data).toEqual(first.data);

    expect(await changes(key, first.next)).toMatchObject({ data: [], hasMore: false, next: first.next });
    ok(await call(key, 'PATCH', `/tags/${String(tag.id)}`, { name: 'Bread' }));
    const later = await changes(key, first.next);
    expect(later.data.map((e) => e.event)).toEqual(['tag.updated']);

    // In pieces of `limit`, hasMore saying when to ask again at once.
    const pieces: ChangeEvent[] = [];
    let cursor = empty.next;
    for (let round = 0; round < 10; round += 1) {
      const page = await changes(key, cursor, 'limit=3');
      pieces.push(...page.data);
      cursor = page.next;
      if (!page.hasMore) break;
    }
    expect(pieces).toEqual([...first.data, ...later.data]);
    // `?fields=` as on every read: id always kept.
    expect((await changes(key, empty.next, 'fields=event&limit=1')).data).toEqual([
      { event: 'post.created', id: post.id },
    ]);
  });

  it('refuses a malformed cursor, one of another workspace and a bad limit, naming the parameter', async () => {
    const { key } = await ctx.ownerKey();
    const other = await ctx.ownerKey();
    ok(await call(other.key, 'POST', '/tags', { name: 'Elsewhere' }), 201);
    const foreign = (await changes(other.key)).next;
    const malformed = [
      'abc',
      'not a cursor',
      Buffer.from('12345678.12').toString('base64url').slice(0, -1),
      Buffer.from('x.1').toString('base64url'),
      Buffer.from('AAAAAAAA.-1').toString('base64url'),
      Buffer.from('AAAAAAAA.99999999999999999').toString('base64url'),
      'A'.repeat(65),
      '',
    ];
    for (const after of malformed) {
      const body = await refusal(key, `after=${encodeURIComponent(after)}`);
      expect(body.details?.issues?.[0]?.path, after).toBe('/after');
    }
    const body = await refusal(key, `after=${foreign}`);
    expect(body.details?.issues?.[0]).toMatchObject({
      path: '/after',
      message: expect.stringMatching(/another workspace/),
    });
    for (const limit of ['0', '1001', 'x', '1.5'])
      expect((await refusal(key, `limit=${limit}`)).details?.issues?.[0]?.path, limit).toBe('/limit');
    expect((await refusal(key, 'since=1')).details?.issues?.[0]?.path).toBe('/since');
  });

  describe('permissions', () => {
    let workspace: TestWorkspace;
    let owner: string;
    beforeAll(async () => {
      ({ workspace, key: owner } = await ctx.ownerKey());
      ok(await call(owner, 'POST', '/posts', { title: 'A post' }), 201);
      ok(await call(owner, 'POST', '/pages', { title: 'A page' }), 201);
      ok(await call(owner, 'POST', '/tags', { name: 'A tag' }), 201);
      await settingsWrite(workspace.id);
    });
    const keyWith = async (permissions: Permission[]) => (await ctx.memberKey(permissions, workspace)).key;

    it('shows each event to a key that may read its resource, and moves its cursor past the others', async () => {
      const posts = await keyWith(['posts:read']);
      const page = await changes(posts);
      expect(page.data.map((e) => e.event)).toEqual(['post.created']);
      const everything = await changes(owner);
      // The reader's cursor stands after every event there is, though it saw one.
      expect(page.next).toBe(everything.next);
      expect((await changes(await keyWith(['pages:read', 'tags:read']))).data.map((e) => e.event)).toEqual([
        'page.created',
        'tag.created',
      ]);
      expect((await changes(await keyWith(['site-settings:read']))).data.map((e) => e.event)).toEqual([
        'site-settings.updated',
      ]);
      // The same URL for two keys: neither is answered from what the other was shown.
      const url = `/changes?after=${(await changes(owner, undefined, 'limit=1')).next}`;
      const one = (await call(posts, 'GET', url)).json() as ChangesPage;
      const two = (await call(owner, 'GET', url)).json() as ChangesPage;
      expect(one.data).toHaveLength(0);
      expect(two.data.map((e) => e.type)).toEqual(['page', 'tag', 'settings']);
    });

    it('refuses a key that may read none of them with 403, before it looks at the query', async () => {
      const writer = await keyWith(['posts:write', 'api-keys:read']);
      expect((await call(writer, 'GET', '/changes')).statusCode).toBe(403);
      expect((await call(writer, 'GET', '/changes?after=garbage!')).statusCode).toBe(403);
    });
  });

  it('tells a reader whose cursor is older than the events kept to resync', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const start = await changes(key);
    const day = 86_400_000;
    const now = Date.now();
    const change = (slug: string) => ({
      type: 'tag' as const,
      id: crypto.randomUUID(),
      slug,
      action: 'created' as const,
    });
    await db()
      .transaction()
      .execute(async (trx) => {
        await contentEventsRepository.record(
          trx,
          commandLine(workspace.id),
          [change('old')],
          new Date(now - 40 * day).toISOString(),
        );
        await contentEventsRepository.record(
          trx,
          commandLine(workspace.id),
          [change('kept')],
          new Date(now - day).toISOString(),
        );
      });
    const before = await changes(key, start.next);
    expect(before.data.map((e) => e.slug)).toEqual(['old', 'kept']);
    const afterOld = await changes(key, start.next, 'limit=1');

    expect(await pruneEvents(ctx.runtime.database, 30, now)).toBeGreaterThanOrEqual(1);
    // The reader who stood before the old event could have missed it.
    const body = await refusal(key, `after=${start.next}`);
    expect(body.details).toMatchObject({ reason: 'cursor_expired', issues: [{ path: '/after' }] });
    // A cursor at or after the last event pruned misses nothing, and a fresh start reads what is kept.
    expect((await changes(key, afterOld.next)).data.map((e) => e.slug)).toEqual(['kept']);
    expect((await changes(key)).data.map((e) => e.slug)).toEqual(['kept']);
  });

  it('gives a fresh reader of a workspace whose every event was pruned a cursor it can follow', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const change = { type: 'tag' as const, id: crypto.randomUUID(), slug: 'gone', action: 'created' as const };
    await db()
      .transaction()
      .execute((trx) => contentEventsRepository.record(trx, commandLine(workspace.id), [change], old));
    expect(await pruneEvents(ctx.runtime.database, 30)).toBeGreaterThanOrEqual(1);
    const first = await changes(key);
    expect(first).toMatchObject({ data: [], hasMore: false });
    // Its cursor stands after what was pruned, so following it is no resync.
    expect(await changes(key, first.next)).toMatchObject({ data: [], hasMore: false, next: first.next });
  });

  it('a page of 3 events and one of 300 cost the same number of statements', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const tag = (n: number) => ({
      type: 'tag' as const,
      id: crypto.randomUUID(),
      slug: `t${n}`,
      action: 'created' as const,
    });
    await contentWrite(ctx.runtime.database, commandLine(workspace.id), async ({ changed }) => {
      for (let n = 0; n < 3; n += 1) changed(tag(n));
    });
    const few = await queriesOf(ctx, () => call(key, 'GET', '/changes?limit=1000'));
    await contentWrite(ctx.runtime.database, commandLine(workspace.id), async ({ changed }) => {
      for (let n = 3; n < 300; n += 1) changed(tag(n));
    });
    let page: ChangesPage | undefined;
    const many = await queriesOf(ctx, async () => (page = (await call(key, 'GET', '/changes?limit=1000')).json()));
    expect(page!.data).toHaveLength(300);
    // The key, where the feed stands (its newest event, how far retention pruned), the events.
    expect(few).toBe(3);
    expect(many).toBe(3);
  });

  // SQLite runs one transaction at a time on its one connection: nothing can commit out of its number's order.
  if (dialect === 'postgres')
    it('a reader following the cursor never misses an event that commits after a later-numbered write began', async () => {
      const { key, workspace } = await ctx.ownerKey();
      const start = await changes(key);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let drawn!: () => void;
      const numbered = new Promise<void>((resolve) => (drawn = resolve));
      // T1 records its event, which draws its number, then waits before committing: the moment between a
      // content write's events and its commit, held open.
      const first = db()
        .transaction()
        .execute(async (trx) => {
          const change = { type: 'tag' as const, id: crypto.randomUUID(), slug: 'first', action: 'created' as const };
          await contentEventsRepository.record(trx, commandLine(workspace.id), [change], new Date().toISOString());
          drawn();
          await gate;
        });
      await numbered;
      // T2, a write through the API, begins while T1 is open; the reader reads meanwhile.
      const second = call(key, 'POST', '/tags', { name: 'Second' });
      await Promise.race([someoneWaitsForALock(), second]);
      const during = await changes(key, start.next);
      release();
      await first;
      expect((await second).statusCode).toBe(201);
      const afterwards = await changes(key, during.next);

      const seen = [...during.data, ...afterwards.data];
      expect(seen.map((e) => e.slug)).toEqual(['first', 'second']);
      expect(seen[1]!.seq).toBeGreaterThan(seen[0]!.seq);
    });

  /** Waits until a session of this database waits for a lock. */
  async function someoneWaitsForALock(): Promise<void> {
    const waiting = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    for (let tries = 0; tries < 500; tries += 1) {
      if ((await waiting.execute(db())).rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no session waited for a lock');
  }
});
