import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/database.js';
import type { Json } from '../helpers/posts.js';
import { webhookSuite } from '../helpers/webhook-suite.js';

interface ChangesPage {
  data: Array<{ seq: number; event: string; id: string; slug: string | null }>;
  next: string;
}

// A post or page that goes live at its creation is published then: a subscriber to `post.published` (the site's
// rebuild) hears of it as of one published later.
describeEachDialect('a post or page created as published', (dialect) => {
  const suite = webhookSuite(dialect);
  const { call, ok } = suite;
  const feed = async (key: string) => ok<ChangesPage>(await call(key, 'GET', '/changes?limit=100')).data;

  it('records created, then published, in the change feed; a draft only created', async () => {
    const { key } = await suite.ctx.ownerKey();
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
    const { key } = await suite.ctx.ownerKey();
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
    const { key } = await suite.ctx.ownerKey();
    const path = `/published-${dialect}`;
    const hook = ok<{ secret: string }>(
      await call(key, 'POST', '/webhooks', {
        url: suite.receiver.url(path),
        eventTypes: ['post.created', 'post.published', 'page.created', 'page.published'],
      }),
      201,
    );
    suite.receiver.secrets.set(path, hook.secret);
    suite.dispatch();
    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Hot off', status: 'published' }), 201);
    const page = ok<Json>(await call(key, 'POST', '/pages', { title: 'Contact', status: 'published' }), 201);
    ok(await call(key, 'POST', '/posts', { title: 'Quiet draft' }), 201);

    const got = await suite.receiver.waitFor(5, (r) => r.path === path);
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
