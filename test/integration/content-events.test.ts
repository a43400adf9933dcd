import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/openapi/operations.js';
import { seedWorkspace } from '../../src/seed/seed.js';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { send, signIn, userWithPassword } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, png, uploadMedia } from '../helpers/media.js';
import type { Json, Response } from '../helpers/posts.js';

interface Event {
  resource_type: string;
  resource_id: string;
  slug: string | null;
  action: string;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
}

/** What one write is expected to record: [type, action, slug?] per event, in order. */
type Expected = Array<[string, string, (string | null)?]>;

describeEachDialect('content writes record their events and move the versions', (dialect) => {
  let ctx: TestContext;
  let workspace: TestWorkspace;
  let key: string;
  let keyId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ workspace, key, keyId } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;

  async function versions(workspaceId = workspace.id) {
    const row = await db()
      .selectFrom('workspaces')
      .select(['content_version', 'embeds_version'])
      .where('id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return { content: Number(row.content_version), embeds: Number(row.embeds_version) };
  }

  async function lastSeq(): Promise<number> {
    const row = await db()
      .selectFrom('content_events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  async function eventsAfter(seq: number, workspaceId = workspace.id): Promise<Event[]> {
    return db()
      .selectFrom('content_events')
      .select(['resource_type', 'resource_id', 'slug', 'action', 'actor_user_id', 'actor_api_key_id'])
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', seq)
      .orderBy('seq')
      .execute();
  }

  const api = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: Json) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key },
      ...(payload ? { payload } : {}),
    });

  function ok(response: Response): Json {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as Json;
  }

  /**
   * Runs `write` and checks the events it recorded, the writer they name, and that the content version
   * moved once per event and the embeds version once per event of a resource a post render embeds.
   */
  async function expectEvents(
    write: () => Promise<unknown>,
    expected: Expected,
    writer = { userId: workspace.owner.id, apiKeyId: keyId as string | null },
  ) {
    const seq = await lastSeq();
    const before = await versions();
    await write();
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.resource_type, e.action])).toEqual(expected.map(([type, action]) => [type, action]));
    expected.forEach(([, , slug], index) => {
      if (slug !== undefined) expect(events[index]!.slug).toBe(slug);
    });
    for (const event of events) {
      expect(event.actor_user_id).toBe(writer.userId);
      expect(event.actor_api_key_id).toBe(writer.apiKeyId);
    }
    const after = await versions();
    expect(after.content - before.content).toBe(events.length);
    const embedding = events.filter((e) => !['post', 'page', 'redirect'].includes(e.resource_type));
    expect(after.embeds - before.embeds).toBe(embedding.length);
    return events;
  }

  /** Each write operation of the external API, exercised here; a new one fails the test below until added. */
  const covered = new Set<string>();
  const cover = (operation: string) => covered.add(operation);

  it('posts: created, updated, published, unpublished, archived, attached, detached, deleted', async () => {
    cover('POST /posts');
    cover('PATCH /posts/:idOrSlug');
    cover('DELETE /posts/:idOrSlug');
    cover('POST /posts/:idOrSlug/tags');
    cover('DELETE /posts/:idOrSlug/tags');
    let post: Json = {};
    await expectEvents(
      async () => (post = ok(await api('POST', '/posts', { title: 'First light' }))),
      [['post', 'created', 'first-light']],
    );
    const id = post.id as string;
    const [event] = await expectEvents(
      async () => ok(await api('PATCH', `/posts/${id}`, { slug: 'dawn' })),
      [['post', 'updated', 'dawn']],
    );
    expect(event!.resource_id).toBe(id);
    await expectEvents(
      async () => ok(await api('PATCH', `/posts/${id}`, { status: 'published' })),
      [['post', 'published']],
    );
    await expectEvents(
      async () => ok(await api('PATCH', `/posts/${id}`, { status: 'draft' })),
      [['post', 'unpublished']],
    );
    await expectEvents(
      async () => ok(await api('PATCH', `/posts/${id}`, { status: 'archived' })),
      [['post', 'archived']],
    );
    const tag = ok(await api('POST', '/tags', { name: 'Night' }));
    await expectEvents(
      async () => ok(await api('POST', `/posts/${id}/tags`, { tagIds: [tag.id] })),
      [['post', 'attached', 'dawn']],
    );
    await expectEvents(
      async () => ok(await api('DELETE', `/posts/${id}/tags`, { tagIds: [tag.id] })),
      [['post', 'detached']],
    );
    await expectEvents(async () => ok(await api('DELETE', `/posts/${id}`)), [['post', 'deleted', 'dawn']]);
  });

  it('pages: created, updated, published, unpublished, deleted', async () => {
    cover('POST /pages');
    cover('PATCH /pages/:idOrSlug');
    cover('DELETE /pages/:idOrSlug');
    let page: Json = {};
    await expectEvents(
      async () => (page = ok(await api('POST', '/pages', { title: 'About' }))),
      [['page', 'created', 'about']],
    );
    const id = page.id as string;
    await expectEvents(
      async () => ok(await api('PATCH', `/pages/${id}`, { title: 'About us' })),
      [['page', 'updated']],
    );
    await expectEvents(
      async () => ok(await api('PATCH', `/pages/${id}`, { status: 'published' })),
      [['page', 'published']],
    );
    await expectEvents(
      async () => ok(await api('PATCH', `/pages/${id}`, { status: 'draft' })),
      [['page', 'unpublished']],
    );
    await expectEvents(async () => ok(await api('DELETE', `/pages/${id}`)), [['page', 'deleted', 'about']]);
  });

  it('authors, categories, tags and redirects: created, updated, deleted', async () => {
    const crud: Array<[string, string, Json, Json]> = [
      ['authors', 'author', { displayName: 'Ada' }, { bio: 'Counts.' }],
      ['categories', 'category', { name: 'Science' }, { description: 'Facts.' }],
      ['tags', 'tag', { name: 'Physics' }, { name: 'Optics' }],
      ['redirects', 'redirect', { fromPath: '/old', toPath: '/new' }, { statusCode: 302 }],
    ];
    for (const [resource, type, create, patch] of crud) {
      const one = resource === 'redirects' ? ':id' : ':idOrSlug';
      cover(`POST /${resource}`);
      cover(`PATCH /${resource}/${one}`);
      cover(`DELETE /${resource}/${one}`);
      let created: Json = {};
      await expectEvents(async () => (created = ok(await api('POST', `/${resource}`, create))), [[type, 'created']]);
      await expectEvents(async () => ok(await api('PATCH', `/${resource}/${created.id}`, patch)), [[type, 'updated']]);
      await expectEvents(async () => ok(await api('DELETE', `/${resource}/${created.id}`)), [[type, 'deleted']]);
    }
  });

  it('media: created, updated; a deletion also changes the posts, authors and settings that used it', async () => {
    cover('POST /media');
    cover('PATCH /media/:id');
    cover('DELETE /media/:id');
    let media: Json = {};
    await expectEvents(
      async () => (media = ok(await uploadMedia(ctx, key, [filePart(png(4, 3), 'a.png')]))),
      [['media', 'created', null]],
    );
    const id = media.id as string;
    await expectEvents(async () => ok(await api('PATCH', `/media/${id}`, { alt: 'A square' })), [['media', 'updated']]);
    const post = ok(await api('POST', '/posts', { title: 'Featured', featuredMediaId: id }));
    const author = ok(await api('POST', '/authors', { displayName: 'Pictured', avatarMediaId: id }));
    await ctx.runtime.services.dashboard.settings.update(
      {
        workspaceId: workspace.id,
        userId: workspace.owner.id,
        apiKeyId: null,
        isOwner: true,
        permissions: new Set(),
        contentVersion: 0,
      },
      { logoMediaId: id },
    );
    await expectEvents(
      async () => ok(await api('DELETE', `/media/${id}`)),
      [
        ['media', 'deleted'],
        ['post', 'updated', post.slug as string],
        ['author', 'updated', author.slug as string],
        ['settings', 'updated', null],
      ],
    );
  });

  it('the dashboard records the signed-in user and no key', async () => {
    const owner = await userWithPassword(ctx);
    const mine = await ctx.createWorkspace(owner);
    const browser = await signIn(ctx, owner);
    const seq = await lastSeq();
    ok(await send(ctx, browser, 'PATCH', `/workspaces/${mine.id}/settings`, { siteName: 'Mine' }));
    const events = await eventsAfter(seq, mine.id);
    expect(events).toEqual([
      {
        resource_type: 'settings',
        resource_id: mine.id,
        slug: null,
        action: 'updated',
        actor_user_id: owner.id,
        actor_api_key_id: null,
      },
    ]);
  });

  it('keys, preview tokens, review links and link-health reports are not content: no event, no version', async () => {
    for (const operation of [
      'POST /api-keys',
      'PATCH /api-keys/:id',
      'POST /api-keys/:id/reveal',
      'POST /api-keys/:id/revoke',
      'POST /content-keys',
      'PATCH /content-keys/:id',
      'POST /content-keys/:id/revoke',
      'POST /posts/:idOrSlug/preview',
      'POST /pages/:idOrSlug/preview',
      'POST /posts/:idOrSlug/review-links',
      'DELETE /posts/:idOrSlug/review-links/:id',
      'POST /pages/:idOrSlug/review-links',
      'DELETE /pages/:idOrSlug/review-links/:id',
      'POST /link-health',
    ])
      cover(operation);
    const post = ok(await api('POST', '/posts', { title: 'To preview' }));
    const page = ok(await api('POST', '/pages', { title: 'Page to preview' }));
    await expectEvents(async () => {
      const created = ok(await api('POST', '/api-keys', { name: 'Build' }));
      ok(await api('PATCH', `/api-keys/${created.id}`, { name: 'Build 2' }));
      ok(await api('POST', `/api-keys/${created.id}/reveal`));
      ok(await api('POST', `/api-keys/${created.id}/revoke`));
      const site = ok(await api('POST', '/content-keys', { name: 'Site' }));
      ok(await api('PATCH', `/content-keys/${site.id}`, { allowedOrigins: ['https://site.example'] }));
      ok(await api('POST', `/content-keys/${site.id}/revoke`));
      ok(await api('POST', `/posts/${String(post.id)}/preview`));
      ok(await api('POST', `/pages/${String(page.id)}/preview`));
      for (const path of [`/posts/${String(post.id)}`, `/pages/${String(page.id)}`]) {
        const link = ok(await api('POST', `${path}/review-links`, { note: 'For the editor' }));
        ok(await api('DELETE', `${path}/review-links/${String(link.id)}`));
      }
      ok(await api('POST', '/link-health', { path: '/gone', statusCode: 404 }));
    }, []);
  });

  it('webhook endpoints are not content: no event, no new version', async () => {
    for (const operation of [
      'POST /webhooks',
      'PATCH /webhooks/:id',
      'DELETE /webhooks/:id',
      'POST /webhooks/:id/reveal-secret',
      'POST /webhooks/:id/rotate-secret',
      'POST /webhooks/:id/test',
      'POST /webhooks/:id/deliveries/:deliveryId/redeliver',
    ])
      cover(operation);
    await expectEvents(async () => {
      const endpoint = ok(await api('POST', '/webhooks', { url: 'https://hooks.example.com/quire' }));
      const path = `/webhooks/${String(endpoint.id)}`;
      ok(await api('PATCH', path, { description: 'Site rebuild' }));
      ok(await api('POST', `${path}/reveal-secret`));
      ok(await api('POST', `${path}/rotate-secret`));
      const delivery = ok(await api('POST', `${path}/test`));
      ok(await api('POST', `${path}/deliveries/${String(delivery.id)}/redeliver`));
      ok(await api('DELETE', path));
    }, []);
  });

  it('a refused write records nothing and moves no version', async () => {
    const taken = ok(await api('POST', '/tags', { name: 'Taken' }));
    await expectEvents(async () => {
      expect((await api('POST', '/posts', { title: '' })).statusCode).toBe(400);
      expect((await api('POST', '/tags', { name: 'Other', slug: taken.slug as string })).statusCode).toBe(409);
      expect((await api('PATCH', '/posts/no-such-post', { title: 'x' })).statusCode).toBe(404);
      expect((await api('POST', '/redirects', { fromPath: '/a', toPath: '/a' })).statusCode).toBe(400);
    }, []);
  });

  it('quire seed records a created event for every row it writes, as the command line', async () => {
    const seeded = await ctx.createWorkspace();
    const summary = await seedWorkspace(ctx.runtime.database, {
      workspaceId: seeded.id,
      posts: 30,
      storage: { put: async () => undefined, delete: async () => undefined },
    });
    const events = await eventsAfter(0, seeded.id);
    const count = (type: string) => events.filter((e) => e.resource_type === type && e.action === 'created').length;
    expect(count('post')).toBe(30);
    expect(count('media')).toBe(summary.media);
    expect(count('author')).toBe(summary.authors);
    expect(count('category')).toBe(summary.categories);
    expect(count('tag')).toBe(summary.tags);
    expect(events.every((e) => e.actor_user_id === null && e.actor_api_key_id === null)).toBe(true);
    expect((await versions(seeded.id)).content).toBe(events.length);
  });

  it('revisions: a restore is an update of the post or page, by the key that restored it', async () => {
    cover('POST /posts/:idOrSlug/revisions/:n/restore');
    cover('POST /pages/:idOrSlug/revisions/:n/restore');
    const post = ok(await api('POST', '/posts', { title: 'Restorable' }));
    ok(await api('PATCH', `/posts/${String(post.id)}`, { title: 'Changed' }));
    await expectEvents(
      async () => ok(await api('POST', `/posts/${String(post.id)}/revisions/1/restore`)),
      [['post', 'updated', 'restorable']],
    );
    const page = ok(await api('POST', '/pages', { title: 'Restorable page' }));
    ok(await api('PATCH', `/pages/${String(page.id)}`, { title: 'Changed page' }));
    await expectEvents(
      async () => ok(await api('POST', `/pages/${String(page.id)}/revisions/1/restore`)),
      [['page', 'updated', 'restorable-page']],
    );
  });

  it('pending changes: saving and discarding them is no event; Update is one update of the post or page', async () => {
    for (const kind of ['posts', 'pages'] as const) {
      cover(`PUT /${kind}/:idOrSlug/pending`);
      cover(`DELETE /${kind}/:idOrSlug/pending`);
      cover(`POST /${kind}/:idOrSlug/pending/apply`);
      const live = ok(await api('POST', `/${kind}`, { title: `Live ${kind}`, status: 'published' }));
      const path = `/${kind}/${String(live.id)}/pending`;
      await expectEvents(async () => {
        ok(await api('PUT', path, { baseVersion: live.updatedAt, changes: { title: 'Soon' } }));
        ok(await api('PUT', path, { baseVersion: live.updatedAt, changes: { title: 'Sooner' } }));
        ok(await api('DELETE', path));
        ok(await api('PUT', path, { baseVersion: live.updatedAt, changes: { title: 'Now' } }));
      }, []);
      await expectEvents(
        async () => ok(await api('POST', `${path}/apply`)),
        [[kind === 'posts' ? 'post' : 'page', 'updated', `live-${kind}`]],
      );
    }
  });

  it('every write operation of the external API is exercised above', () => {
    const writes = Object.keys(OPERATIONS).filter((operation) => !operation.startsWith('GET '));
    expect(writes.filter((operation) => !covered.has(operation))).toEqual([]);
  });
});
