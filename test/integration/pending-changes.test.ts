import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { ErrorBody, Json, Response } from '../helpers/posts.js';

const CONTENT = '/api/v1/content';

interface Pending {
  resourceType: string;
  resourceId: string;
  baseVersion: string;
  stale: boolean;
  changes: Json;
  base: Json;
  updatedBy: { userId: string | null; apiKeyId: string | null };
  updatedAt: string;
}

describeEachDialect('pending changes of live posts and pages', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let keyId: string;
  let workspaceId: string;
  let workspace: TestWorkspace;
  let contentKey: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    ({ key, keyId, workspace } = await ctx.ownerKey());
    workspaceId = workspace.id;
    const made = await call('POST', '/content-keys', { name: 'Site' });
    contentKey = ok<{ key: string }>(made, 201).key;
    ok(await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', eventTypes: ['post.updated'] }), 201);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    apiKey = key,
  ) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': apiKey, ...headers },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const ok = <T = Json>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  const refused = (response: Response, status: number): ErrorBody => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as ErrorBody;
  };
  const readContent = (path: string) =>
    ctx.app.inject({ method: 'GET', url: `${CONTENT}${path}${path.includes('?') ? '&' : '?'}key=${contentKey}` });

  /** Everything outside the pending set that a save must leave alone. */
  async function outside(postId: string) {
    const events = await db()
      .selectFrom('content_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const deliveries = await db()
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const workspace = await db()
      .selectFrom('workspaces')
      .select('content_version')
      .where('id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const feed = ok<{ data: unknown[] }>(await call('GET', '/changes?limit=100')).data.length;
    return {
      events: Number(events.n),
      deliveries: Number(deliveries.n),
      contentVersion: Number(workspace.content_version),
      feed,
      revisions: ok<{ total: number }>(await call('GET', `/posts/${postId}/revisions`)).total,
      post: ok<Json>(await call('GET', `/posts/${postId}`)),
      content: ok<Json>(await readContent(`/posts/${postId}`)),
    };
  }

  async function livePost(title: string) {
    const post = ok<Json>(
      await call('POST', '/posts', {
        title,
        status: 'published',
        bodyJson: [{ type: 'paragraph', text: 'The live words.' }],
      }),
      201,
    );
    return { id: String(post.id), version: String(post.updatedAt), post };
  }

  it('keeps every save private until Update, then applies them as one write: one revision, one event', async () => {
    const { id, version } = await livePost('Live title');
    const before = await outside(id);
    expect(before.content.title).toBe('Live title');
    refused(await call('GET', `/posts/${id}/pending`), 404);

    // Four saves of a half-typed edit, as the studio's autosave makes them.
    const typed = [' Good', ' Good luck', ' Good luck and', ' Good luck and enjoy.'];
    let pending: Pending | undefined;
    for (const words of typed) {
      const saved = await call(
        'PUT',
        `/posts/${id}/pending`,
        { baseVersion: version, changes: { bodyJson: [{ type: 'paragraph', text: `The live words.${words}` }] } },
        pending ? { 'if-match': `"${pending.updatedAt}"` } : { 'if-none-match': '*' },
      );
      pending = ok<Pending>(saved);
    }
    expect(pending).toMatchObject({
      resourceType: 'post',
      resourceId: id,
      baseVersion: version,
      stale: false,
      updatedBy: { apiKeyId: keyId },
      changes: { bodyJson: [{ type: 'paragraph', text: 'The live words. Good luck and enjoy.' }] },
    });
    expect(ok<Pending>(await call('GET', `/posts/${id}/pending`))).toEqual(pending);
    expect(ok(await call('GET', `/posts/${id}/pending?fields=baseVersion,stale`))).toEqual({
      baseVersion: version,
      stale: false,
    });

    // Nothing outside the set saw any of it.
    expect(await outside(id)).toEqual(before);

    const applied = ok<Json>(await call('POST', `/posts/${id}/pending/apply`, undefined));
    expect(applied.bodyText).toBe('The live words. Good luck and enjoy.');
    expect(applied.status).toBe('published');
    const after = await outside(id);
    expect(after.events).toBe(before.events + 1);
    expect(after.deliveries).toBe(before.deliveries + 1);
    expect(after.revisions).toBe(before.revisions + 1);
    expect(after.feed).toBe(before.feed + 1);
    expect(after.content.bodyText).toBe('The live words. Good luck and enjoy.');
    // The one revision Update kept holds what it wrote.
    const newest = ok<{ fields: Json }>(await call('GET', `/posts/${id}/revisions/${after.revisions}`));
    expect(newest.fields.bodyJson).toMatchObject([{ type: 'paragraph', text: 'The live words. Good luck and enjoy.' }]);
    const [event] = await db()
      .selectFrom('content_events')
      .select(['action', 'resource_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('seq', 'desc')
      .limit(1)
      .execute();
    expect(event).toEqual({ action: 'updated', resource_id: id });
    refused(await call('GET', `/posts/${id}/pending`), 404);
  });

  it('refuses Update on a live version that moved, and keeps the set to rebase', async () => {
    const { id, version } = await livePost('Moving post');
    ok(await call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { title: 'Mine' } }));
    // Someone else writes the live post meanwhile.
    const theirs = ok<Json>(await call('PATCH', `/posts/${id}`, { excerpt: 'Theirs' }));
    const stale = ok<Pending>(await call('GET', `/posts/${id}/pending`));
    expect(stale.stale).toBe(true);
    // The version the changes were made on is kept with them, to merge from: theirs is only in the live one.
    expect(stale.base).toMatchObject({ title: 'Moving post', excerpt: '' });

    const conflict = refused(await call('POST', `/posts/${id}/pending/apply`), 409);
    expect(conflict.details).toMatchObject({ reason: 'stale', version: theirs.updatedAt });
    expect(ok<Json>(await call('GET', `/posts/${id}`)).title).toBe('Moving post');
    // A save on the old version is refused the same way; on the new one it is taken, and Update goes through.
    expect(
      refused(await call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { title: 'Mine' } }), 409)
        .details,
    ).toMatchObject({ reason: 'stale', version: theirs.updatedAt });
    const rebased = ok<Pending>(
      await call('PUT', `/posts/${id}/pending`, { baseVersion: theirs.updatedAt, changes: { title: 'Mine' } }),
    );
    expect(rebased.base).toMatchObject({ title: 'Moving post', excerpt: 'Theirs' });
    const applied = ok<Json>(await call('POST', `/posts/${id}/pending/apply`));
    expect(applied).toMatchObject({ title: 'Mine', excerpt: 'Theirs' });
  });

  it('tells a second writer of the first: If-Match and If-None-Match on the one shared set', async () => {
    const { id, version } = await livePost('Shared post');
    const first = ok<Pending>(
      await call(
        'PUT',
        `/posts/${id}/pending`,
        { baseVersion: version, changes: { title: 'A' } },
        { 'if-none-match': '*' },
      ),
    );
    // A second writer who started from no set is told of the first, with its version.
    const second = refused(
      await call(
        'PUT',
        `/posts/${id}/pending`,
        { baseVersion: version, changes: { title: 'B' } },
        { 'if-none-match': '*' },
      ),
      409,
    );
    expect(second.details).toMatchObject({ reason: 'pending_changed', version: first.updatedAt });
    const moved = ok<Pending>(
      await call(
        'PUT',
        `/posts/${id}/pending`,
        { baseVersion: version, changes: { title: 'A2' } },
        { 'if-match': `"${first.updatedAt}"` },
      ),
    );
    expect(moved.updatedAt > first.updatedAt).toBe(true);
    // The first writer's older copy no longer saves, applies or discards.
    const stale = { 'if-match': `"${first.updatedAt}"` };
    for (const attempt of [
      call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { title: 'A3' } }, stale),
      call('POST', `/posts/${id}/pending/apply`, undefined, stale),
      call('DELETE', `/posts/${id}/pending`, undefined, stale),
    ])
      expect(refused(await attempt, 409).details).toMatchObject({
        reason: 'pending_changed',
        version: moved.updatedAt,
      });
    expect(ok<Pending>(await call('GET', `/posts/${id}/pending`)).changes).toEqual({ title: 'A2' });
    // Discard drops it; the live post is as it was.
    const discarded = await call('DELETE', `/posts/${id}/pending`, undefined, { 'if-match': `"${moved.updatedAt}"` });
    expect(ok<Pending>(discarded).changes).toEqual({ title: 'A2' });
    refused(await call('DELETE', `/posts/${id}/pending`), 404);
    expect(ok<Json>(await call('GET', `/posts/${id}`)).title).toBe('Shared post');
  });

  it('refuses what Update would refuse, naming the field under /changes, and keeps the set on a failed Update', async () => {
    const { id, version } = await livePost('Tagged post');
    const tag = ok<Json>(await call('POST', '/tags', { name: 'Soon gone' }), 201);
    const badTag = refused(
      await call('PUT', `/posts/${id}/pending`, {
        baseVersion: version,
        changes: { tagIds: ['00000000-0000-4000-8000-000000000000'] },
      }),
      400,
    );
    expect(badTag.details?.issues?.[0]?.path).toBe('/changes/tagIds/0');
    const badBlock = refused(
      await call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { bodyJson: [{ type: 'nope' }] } }),
      400,
    );
    expect(badBlock.details?.issues?.[0]?.path).toMatch(/^\/changes\/bodyJson\/0/);
    const status = refused(
      await call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { status: 'draft' } }),
      400,
    );
    expect(status.details?.issues?.[0]?.path).toBe('/changes/status');
    refused(await call('GET', `/posts/${id}/pending`), 404);

    ok(
      await call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { tagIds: [tag.id], title: 'New' } }),
    );
    ok(await call('DELETE', `/tags/${String(tag.id)}`));
    const failed = refused(await call('POST', `/posts/${id}/pending/apply`), 400);
    expect(failed.details?.issues?.[0]?.path).toBe('/changes/tagIds/0');
    expect(ok<Pending>(await call('GET', `/posts/${id}/pending`)).changes).toMatchObject({ title: 'New' });
    expect(ok<Json>(await call('GET', `/posts/${id}`)).title).toBe('Tagged post');
  });

  it('keeps no set for a draft, and applies with a status move: unpublish keeping the changes', async () => {
    const draft = ok<Json>(await call('POST', '/posts', { title: 'Only a draft' }), 201);
    const notLive = refused(
      await call('PUT', `/posts/${String(draft.id)}/pending`, {
        baseVersion: draft.updatedAt,
        changes: { title: 'x' },
      }),
      409,
    );
    expect(notLive.details).toMatchObject({ reason: 'not_live', status: 'draft' });
    refused(await call('GET', '/posts/00000000-0000-4000-8000-000000000000/pending'), 404);

    const { id, version } = await livePost('To unpublish');
    ok(await call('PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { title: 'Kept in the draft' } }));
    const unpublished = ok<Json>(await call('POST', `/posts/${id}/pending/apply`, { status: 'draft' }));
    expect(unpublished).toMatchObject({ title: 'Kept in the draft', status: 'draft' });
    refused(await readContent(`/posts/${id}`), 404);
    const revisions = ok<{ data: Array<{ action: string }> }>(await call('GET', `/posts/${id}/revisions`)).data;
    expect(revisions[0]?.action).toBe('unpublished');
  });

  it('lets a preview token carry the pending changes, and a key without posts:write neither save nor apply', async () => {
    const { id, version } = await livePost('Previewed');
    ok(
      await call('PUT', `/posts/${id}/pending`, {
        baseVersion: version,
        changes: { title: 'Previewed, better', bodyJson: [{ type: 'heading', level: 2, text: 'Coming' }] },
      }),
    );
    const plain = ok<{ token: string }>(await call('POST', `/posts/${id}/preview`, {}), 201).token;
    const withPending = ok<{ token: string }>(await call('POST', `/posts/${id}/preview`, { pending: true }), 201).token;
    const asIs = ok<Json>(await readContent(`/preview/posts/${id}?token=${encodeURIComponent(plain)}`));
    expect(asIs.title).toBe('Previewed');
    const coming = await readContent(`/preview/posts/${id}?token=${encodeURIComponent(withPending)}&formats=html`);
    expect(coming.headers['cache-control']).toBe('no-store');
    expect(ok<Json>(coming)).toMatchObject({ title: 'Previewed, better', bodyText: 'Coming' });
    expect(String(ok<Json>(coming).bodyHtml)).toContain('<h2 id="coming">Coming</h2>');
    // The preview wrote nothing.
    expect(ok<Json>(await call('GET', `/posts/${id}`)).title).toBe('Previewed');
    expect(ok<{ total: number }>(await call('GET', `/posts/${id}/revisions`)).total).toBe(1);

    // posts:read reads the set; writing, applying and discarding it take posts:write.
    const reader = await ctx.memberKey(['posts:read'], workspace);
    ok(await call('GET', `/posts/${id}/pending`, undefined, {}, reader.key));
    for (const [method, url, payload] of [
      ['PUT', `/posts/${id}/pending`, { baseVersion: version, changes: { title: 'x' } }],
      ['POST', `/posts/${id}/pending/apply`, undefined],
      ['DELETE', `/posts/${id}/pending`, undefined],
    ] as const)
      refused(await call(method, url, payload, {}, reader.key), 403);
    // Another workspace's key finds no such post.
    const stranger = await ctx.ownerKey();
    refused(await call('GET', `/posts/${id}/pending`, undefined, {}, stranger.key), 404);
  });

  it('does the same for pages', async () => {
    const page = ok<Json>(await call('POST', '/pages', { title: 'About', status: 'published' }), 201);
    const path = `/pages/${String(page.id)}`;
    const pending = ok<Pending>(
      await call('PUT', `${path}/pending`, { baseVersion: page.updatedAt, changes: { title: 'About us' } }),
    );
    expect(pending.resourceType).toBe('page');
    expect(ok<Json>(await call('GET', path)).title).toBe('About');
    expect(ok<Json>(await readContent(path)).title).toBe('About');
    expect(ok<Json>(await call('POST', `${path}/pending/apply`)).title).toBe('About us');
    expect(ok<Json>(await readContent(path)).title).toBe('About us');
  });
});
