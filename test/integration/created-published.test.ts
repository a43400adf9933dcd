import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startDispatcher, type Dispatcher } from '../../src/modules/webhooks/dispatch/dispatcher.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { Json, Response } from '../helpers/posts.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface ChangesPage {
  data: Array<{ seq: number; event: string; id: string; slug: string | null }>;
  next: string;
}

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

// A post or page that goes live at its creation is published then: a subscriber to `post.published` (the site's
// rebuild) hears of it as of one published later.
describeEachDialect('a post or page created as published', (dialect) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let dispatcher: Dispatcher | undefined;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  const call = (key: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
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
  const feed = async (key: string) => ok<ChangesPage>(await call(key, 'GET', '/changes?limit=100')).data;

  it('records created, then published, in the change feed; a draft only created', async () => {
    const { key } = await ctx.ownerKey();
    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Live at once', status: 'published' }), 201);
    const page = ok<Json>(await call(key, 'POST', '/pages', { title: 'About', status: 'published' }), 201);
    const draft = ok<Json>(await call(key, 'POST', '/posts', { title: 'Not yet' }), 201);
    const draftPage = ok<Json>(await call(key, 'POST', '/pages', { title: 'Later', status: 'draft' }), 201);
    expect((await feed(key)).map((e) => [e.event, e.id, e.slug])).toEqual([
      ['post.created', post.id, 'live-at-once'],
      ['post.published', post.id, 'live-at-once'],
      ['page.created', page.id, 'about'],
      ['page.published', page.id, 'about'],
      ['post.created', draft.id, 'not-yet'],
      ['page.created', draftPage.id, 'later'],
    ]);
  });

  it('keeps one revision of the creation, not one per event', async () => {
    const { key } = await ctx.ownerKey();
    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Once', status: 'published' }), 201);
    const page = ok<Json>(await call(key, 'POST', '/pages', { title: 'Once', status: 'published' }), 201);
    for (const path of [`/posts/${post.id as string}`, `/pages/${page.id as string}`]) {
      const revisions = ok<{ data: Array<{ n: number; action: string }> }>(await call(key, 'GET', `${path}/revisions`));
      expect(
        revisions.data.map((r) => [r.n, r.action]),
        path,
      ).toEqual([[1, 'created']]);
    }
  });

  it('delivers post.published and page.published with the resource, to a subscriber of those alone', async () => {
    const { key } = await ctx.ownerKey();
    const path = `/published-${dialect}`;
    const hook = ok<{ secret: string }>(
      await call(key, 'POST', '/webhooks', {
        url: receiver.url(path),
        eventTypes: ['post.created', 'post.published', 'page.created', 'page.published'],
      }),
      201,
    );
    receiver.secrets.set(path, hook.secret);
    dispatcher = startDispatcher(ctx.runtime.database, ctx.runtime.masterKey, {
      allowPrivate: true,
      pollMs: 25,
      log: silent,
    });
    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Hot off', status: 'published' }), 201);
    const page = ok<Json>(await call(key, 'POST', '/pages', { title: 'Contact', status: 'published' }), 201);
    ok(await call(key, 'POST', '/posts', { title: 'Quiet draft' }), 201);

    const got = await receiver.waitFor(5, (r) => r.path === path);
    expect(got.map((r) => r.verifyError)).toEqual([null, null, null, null, null]);
    // Sent in parallel, so they may arrive in any order; the change feed gives theirs.
    const events = got.map((r) => [r.event.type, r.event.data]);
    expect(events).toHaveLength(5);
    expect(events).toEqual(
      expect.arrayContaining([
        ['post.created', post],
        ['post.published', post],
        ['page.created', page],
        ['page.published', page],
      ]),
    );
    expect(got.filter((r) => r.event.type === 'post.published')).toHaveLength(1);
  });
});
