import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine } from '../../src/writes/changes.js';
import { contentEventsRepository } from '../../src/writes/content-events.repository.js';
import { contentWrite } from '../../src/writes/content-write.js';
import { pruneEvents } from '../../src/writes/event-retention.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { ISO, type ErrorBody, type Json, type Response } from '../helpers/posts.js';
import { queriesOf } from '../helpers/resources.js';

const CONTENT = '/api/v1/content';

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
  head: string;
}

/** An event as the assertions compare it: what happened, to what, under which slug. */
const brief = (event: ChangeEvent) => [event.event, event.id, event.slug];

/*
 * The content API's change feed (docs/content-api.md, "Change feed"): the admin feed's events, but a content key
 * ships in public pages, so a post or page is told of only while it is published, or when it is withdrawn (and
 * then by its id alone). The admin feed's own behaviour (order, cursors, concurrency) is changes.test.ts's.
 */
describeEachDialect('the content change feed', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const admin = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload }),
    });
  const ok = <T>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  const read = (key: string, query = '', headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: `${CONTENT}/changes?key=${key}${query}`, headers });
  const changes = async (key: string, after?: string, query = '') =>
    ok<ChangesPage>(await read(key, `${after === undefined ? '' : `&after=${after}`}${query}`));

  /** A workspace with its owner's admin key and a content key. */
  async function site() {
    const { workspace, key } = await ctx.ownerKey();
    const contentKey = ok<{ key: string }>(await admin(key, 'POST', '/content-keys', { name: 'Site' }), 201).key;
    return { workspace, key, contentKey };
  }
  const create = async (key: string, resource: string, body: Json) =>
    ok<Json & { id: string; slug: string }>(await admin(key, 'POST', `/${resource}`, body), 201);
  const patch = async (key: string, resource: string, id: string, body: Json) =>
    ok<Json>(await admin(key, 'PATCH', `/${resource}/${id}`, body));
  const remove = async (key: string, resource: string, id: string) =>
    ok(await admin(key, 'DELETE', `/${resource}/${id}`));
  /** A media upload's event and a site settings' one, written as their services write them. */
  const mediaAndSettingsWrite = (workspaceId: string) =>
    contentWrite(ctx.runtime.database, commandLine(workspaceId), async ({ changed }) => {
      changed({ type: 'media', id: crypto.randomUUID(), slug: null, action: 'created' });
      changed({ type: 'settings', id: workspaceId, slug: null, action: 'updated' });
    });

  describe('posts and pages', () => {
    it('tells nothing of a draft, and of a published post what a site needs: live, edited, withdrawn', async () => {
      const { key, contentKey } = await site();
      const start = await changes(contentKey);
      const draft = await create(key, 'posts', { title: 'Secret plan' });
      await patch(key, 'posts', draft.id, { title: 'Secret plan, revised', slug: 'secret-plan-revised' });
      const whileDraft = await changes(contentKey, start.next);
      expect(whileDraft).toMatchObject({ data: [], hasMore: false });
      expect(whileDraft.next).toBe(whileDraft.head);

      // A follower reading after each step.
      let cursor = whileDraft.next;
      const step = async () => {
        const page = await changes(contentKey, cursor);
        cursor = page.next;
        return page.data.map(brief);
      };
      await patch(key, 'posts', draft.id, { status: 'published' });
      expect(await step()).toEqual([['post.published', draft.id, 'secret-plan-revised']]);
      await patch(key, 'posts', draft.id, { excerpt: 'Now public' });
      expect(await step()).toEqual([['post.updated', draft.id, 'secret-plan-revised']]);
      await patch(key, 'posts', draft.id, { status: 'draft' });
      // Not published now: an id and a time, so a site drops its page, and no slug.
      expect(await step()).toEqual([['post.unpublished', draft.id, null]]);

      const archived = await create(key, 'posts', { title: 'Old news', status: 'published' });
      await patch(key, 'posts', archived.id, { status: 'archived' });
      const deleted = await create(key, 'posts', { title: 'Mistake', status: 'published' });
      await remove(key, 'posts', deleted.id);
      expect(await step()).toEqual([
        ['post.archived', archived.id, null],
        ['post.deleted', deleted.id, null],
      ]);

      // From the start: the unpublished post's earlier events, its draft's and its published ones, are gone.
      const everything = await changes(contentKey, start.next);
      expect(everything.data.map(brief)).toEqual([
        ['post.unpublished', draft.id, null],
        ['post.archived', archived.id, null],
        ['post.deleted', deleted.id, null],
      ]);
      expect(everything.next).toBe(cursor);
      for (const event of everything.data) expect(event.timestamp).toMatch(ISO);
    });

    it('names a post by the slug it has now, never by one it had as a draft', async () => {
      const { key, contentKey } = await site();
      const start = await changes(contentKey);
      const draft = await create(key, 'posts', { title: 'Acquisition of Acme' });
      expect(draft.slug).toBe('acquisition-of-acme');
      await patch(key, 'posts', draft.id, { title: 'A new partnership', slug: 'a-new-partnership' });
      await patch(key, 'posts', draft.id, { status: 'published' });
      const events = (await changes(contentKey, start.next)).data;
      expect(events.map((event) => event.event)).toEqual(['post.created', 'post.updated', 'post.published']);
      expect(events.map((event) => event.slug)).toEqual(Array(3).fill('a-new-partnership'));
    });

    it('shows every event of a post published now, its creation as published included, with its slug', async () => {
      const { key, contentKey } = await site();
      const start = await changes(contentKey);
      const live = await create(key, 'posts', { title: 'Launch day', status: 'published' });
      const tag = await create(key, 'tags', { name: 'News' });
      ok(await admin(key, 'POST', `/posts/${live.id}/tags`, { tagIds: [tag.id] }));
      const draft = await create(key, 'posts', { title: 'Not yet' });
      ok(await admin(key, 'POST', `/posts/${draft.id}/tags`, { tagIds: [tag.id] }));
      const page = await create(key, 'pages', { title: 'About', status: 'published' });
      const draftPage = await create(key, 'pages', { title: 'Careers' });
      await patch(key, 'pages', page.id, { status: 'draft' });
      await patch(key, 'pages', draftPage.id, { title: 'Careers at the firm' });
      expect((await changes(contentKey, start.next)).data.map((event) => [...brief(event), event.action])).toEqual([
        ['post.created', live.id, 'launch-day', 'created'],
        ['post.published', live.id, 'launch-day', 'published'],
        ['tag.created', tag.id, 'news', 'created'],
        // Tags put on a live post change it as it reads; on a draft they tell nothing.
        ['post.updated', live.id, 'launch-day', 'attached'],
        ['page.unpublished', page.id, null, 'unpublished'],
      ]);
    });
  });

  it('shows every event of media, authors, categories, tags, redirects and the site settings', async () => {
    const { workspace, key, contentKey } = await site();
    const start = await changes(contentKey);
    const author = await create(key, 'authors', { displayName: 'Ada' });
    const category = await create(key, 'categories', { name: 'Engines' });
    const tag = await create(key, 'tags', { name: 'Steam' });
    const redirect = await create(key, 'redirects', { fromPath: '/old', toPath: '/new' });
    await patch(key, 'tags', tag.id, { name: 'Steam power' });
    await remove(key, 'categories', category.id);
    await mediaAndSettingsWrite(workspace.id);
    const events = (await changes(contentKey, start.next)).data;
    expect(events.map((event) => [event.event, event.slug])).toEqual([
      ['author.created', author.slug],
      ['category.created', category.slug],
      ['tag.created', 'steam'],
      ['redirect.created', null],
      ['tag.updated', 'steam'],
      ['category.deleted', category.slug],
      ['media.created', null],
      ['site-settings.updated', null],
    ]);
    expect(events[3]!.id).toBe(redirect.id);
    // The same events as the admin feed, field for field.
    const adminFeed = ok<ChangesPage>(await admin(key, 'GET', '/changes'));
    expect(events).toEqual(adminFeed.data);
  });

  describe('paging past hidden events', () => {
    it('holds `limit` shown events, and `next` passes the hidden ones: a draft published later is not re-read', async () => {
      const { key, contentKey } = await site();
      const start = await changes(contentKey);
      const first = await create(key, 'tags', { name: 'First' });
      const draft = await create(key, 'posts', { title: 'Quiet draft' });
      await patch(key, 'posts', draft.id, { excerpt: 'Still quiet' });
      const second = await create(key, 'tags', { name: 'Second' });

      const one = await changes(contentKey, start.next, '&limit=1');
      expect(one.data.map(brief)).toEqual([['tag.created', first.id, 'first']]);
      expect(one.hasMore).toBe(true);
      // The draft goes live after the reader passed its events: it reads the publication, not the draft's past.
      await patch(key, 'posts', draft.id, { status: 'published' });
      const rest = await changes(contentKey, one.next);
      expect(rest.data.map(brief)).toEqual([
        ['tag.created', second.id, 'second'],
        ['post.published', draft.id, 'quiet-draft'],
      ]);
      expect(rest.hasMore).toBe(false);
    });

    it('ends where `head` says: a reader paging to the end stands there, and following it sees only what comes', async () => {
      const { key, contentKey } = await site();
      for (const name of ['a', 'b', 'c', 'd', 'e']) await create(key, 'tags', { name });
      const hidden = await create(key, 'posts', { title: 'Hidden at the end' });
      await patch(key, 'posts', hidden.id, { excerpt: 'still hidden' });

      const seen: ChangeEvent[] = [];
      let page = await changes(contentKey, undefined, '&limit=2');
      const { head } = page;
      seen.push(...page.data);
      for (let round = 0; page.hasMore && round < 10; round += 1) {
        page = await changes(contentKey, page.next, '&limit=2');
        seen.push(...page.data);
        expect(page.head).toBe(head);
      }
      expect(seen.map((event) => event.slug)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(page.hasMore).toBe(false);
      expect(page.next).toBe(head);
      // One request to stand at the end without reading the history.
      expect((await changes(contentKey, undefined, '&limit=1')).head).toBe(head);

      const later = await create(key, 'tags', { name: 'Later' });
      const followed = await changes(contentKey, head);
      expect(followed.data.map(brief)).toEqual([['tag.created', later.id, 'later']]);
      expect(followed.head).not.toBe(head);
      expect(followed.next).toBe(followed.head);
    });
  });

  it('gives a workspace of drafts only an empty feed', async () => {
    const { key, contentKey } = await site();
    const post = await create(key, 'posts', { title: 'Draft one' });
    await patch(key, 'posts', post.id, { title: 'Draft one, again' });
    await create(key, 'pages', { title: 'Draft page' });
    const page = await changes(contentKey);
    expect(page).toMatchObject({ data: [], hasMore: false });
    expect(page.next).toBe(page.head);
    // The admin feed has them all.
    expect(ok<ChangesPage>(await admin(key, 'GET', '/changes')).data).toHaveLength(3);
  });

  describe('cursors and keys', () => {
    it("refuses another workspace's cursor and an expired one, naming /after", async () => {
      const { workspace, key, contentKey } = await site();
      const other = await site();
      await create(other.key, 'tags', { name: 'Elsewhere' });
      const foreign = await read(contentKey, `&after=${(await changes(other.contentKey)).next}`);
      expect(foreign.statusCode).toBe(400);
      expect((foreign.json() as ErrorBody).details?.issues?.[0]).toMatchObject({
        path: '/after',
        message: expect.stringMatching(/another workspace/),
      });

      const start = await changes(contentKey);
      const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
      const change = { type: 'tag' as const, id: crypto.randomUUID(), slug: 'old', action: 'created' as const };
      await ctx.runtime.database.db
        .transaction()
        .execute((trx) => contentEventsRepository.record(trx, commandLine(workspace.id), [change], old));
      await create(key, 'tags', { name: 'Kept' });
      expect(await pruneEvents(ctx.runtime.database, 30)).toBeGreaterThanOrEqual(1);
      const expired = await read(contentKey, `&after=${start.next}`);
      expect(expired.statusCode).toBe(400);
      expect((expired.json() as ErrorBody).details).toMatchObject({
        reason: 'cursor_expired',
        issues: [{ path: '/after' }],
      });
      expect((await changes(contentKey)).data.map((event) => event.slug)).toEqual(['kept']);
    });

    it('is a 401 to an admin key and to no key, and the admin feed is a 401 to a content key', async () => {
      const { key, contentKey } = await site();
      expect((await read(key)).statusCode).toBe(401);
      expect((await ctx.app.inject({ method: 'GET', url: `${CONTENT}/changes` })).statusCode).toBe(401);
      const onAdmin = await ctx.app.inject({
        method: 'GET',
        url: `${EXTERNAL}/changes`,
        headers: { 'x-api-key': contentKey },
      });
      expect(onAdmin.statusCode).toBe(401);
    });

    it('takes `fields` and a bad limit as every read does', async () => {
      const { key, contentKey } = await site();
      const tag = await create(key, 'tags', { name: 'Picked' });
      const picked = await changes(contentKey, undefined, '&fields=event');
      expect(picked.data).toEqual([{ id: tag.id, event: 'tag.created' }]);
      expect(picked.head).toBe(picked.next);
      for (const limit of ['0', '1001'])
        expect((await read(contentKey, `&limit=${limit}`)).json()).toMatchObject({
          details: { issues: [{ path: '/limit' }] },
        });
    });
  });

  it('is never cached: no-store, no ETag, no surrogate keys, and the next write shows at once', async () => {
    const { key, contentKey } = await site();
    const before = await read(contentKey, '', { origin: 'https://site.example' });
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).toBe('no-store');
    expect(before.headers.etag).toBeUndefined();
    expect(before.headers['surrogate-key']).toBeUndefined();
    expect(before.headers['cache-tag']).toBeUndefined();
    expect(before.headers['access-control-allow-origin']).toBe('*');
    const tag = await create(key, 'tags', { name: 'Fresh' });
    const after = ok<ChangesPage>(await read(contentKey));
    expect(after.data.map((event) => event.id)).toEqual([tag.id]);
  });

  it('costs the same statements for a page of 5 events and one of 100, published posts among them', async () => {
    const { key, workspace, contentKey } = await site();
    const live = await create(key, 'posts', { title: 'Live', status: 'published' });
    const draft = await create(key, 'posts', { title: 'Draft' });
    await contentWrite(ctx.runtime.database, commandLine(workspace.id), async ({ changed }) => {
      for (let n = 0; n < 150; n += 1) {
        changed({ type: 'post', id: live.id, slug: live.slug, action: 'updated' });
        changed({ type: 'post', id: draft.id, slug: draft.slug, action: 'updated' });
        changed({ type: 'tag', id: crypto.randomUUID(), slug: `t${n}`, action: 'created' });
      }
    });
    let few: ChangesPage | undefined;
    let many: ChangesPage | undefined;
    const small = await queriesOf(ctx, async () => (few = ok(await read(contentKey, '&limit=5'))));
    const large = await queriesOf(ctx, async () => (many = ok(await read(contentKey, '&limit=100'))));
    expect(few!.data).toHaveLength(5);
    expect(many!.data).toHaveLength(100);
    expect(many!.data.some((event) => event.id === draft.id)).toBe(false);
    // The key, where the feed stands (its newest event, how far retention pruned), the events.
    expect(small).toBe(3);
    expect(large).toBe(3);
  });
});

describeEachDialect('the content change feed under the rate limit', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '2', QUIRE_RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => ctx?.close());

  it('counts like every content read: the third request is a 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await ctx.app.inject({ method: 'GET', url: `${CONTENT}/changes?key=nope` })).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
  });
});
