import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { DASHBOARD, send, signedInMember, signedInOwner, type Browser } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { multipart, png } from '../helpers/media.js';

/*
 * The dashboard writes content through the external API's own routes, mounted under the workspace: the same
 * answers, the same refusals, the session's permissions, and CSRF on every write.
 */
describeEachDialect('dashboard content writes', (dialect) => {
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ owner, workspaceId } = await signedInOwner(ctx));
    const created = await send(ctx, owner, 'POST', `/workspaces/${workspaceId}/api-keys`, { name: 'Reader' });
    key = created.json().key;
  });
  afterAll(() => ctx?.close());

  const at = (path: string) => `/workspaces/${workspaceId}${path}`;
  const external = (path: string) =>
    ctx.app.inject({ method: 'GET', url: `${EXTERNAL}${path}`, headers: { 'x-api-key': key } });

  it('creates, edits, tags and deletes a post as the API would, and the API reads it back', async () => {
    const created = await send(ctx, owner, 'POST', at('/posts'), {
      title: 'Written in the studio',
      bodyJson: [{ type: 'paragraph', text: 'First **words**.' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json();
    expect(post.slug).toBe('written-in-the-studio');
    expect((await external(`/posts/${post.id}`)).json()).toEqual(post);
    const narrowed = await send(ctx, owner, 'GET', at(`/posts/${post.id}?fields=title`));
    expect(narrowed.json()).toEqual({ id: post.id, title: 'Written in the studio' });
    expect((await send(ctx, owner, 'GET', at(`/posts/${post.id}?fields=nope`))).statusCode).toBe(400);

    const tag = await send(ctx, owner, 'POST', at('/tags'), { name: 'Studio' });
    expect(tag.statusCode, tag.body).toBe(201);
    const tagged = await send(ctx, owner, 'POST', at(`/posts/${post.slug}/tags`), { tagIds: [tag.json().id] });
    expect(tagged.json().tags.map((t: { name: string }) => t.name)).toEqual(['Studio']);

    const published = await send(ctx, owner, 'PATCH', at(`/posts/${post.id}`), { status: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    expect((await external(`/posts/${post.id}`)).json().status).toBe('published');

    const revisions = await send(ctx, owner, 'GET', at(`/posts/${post.id}/revisions`));
    expect(revisions.statusCode, revisions.body).toBe(200);
    expect(revisions.json().total).toBeGreaterThanOrEqual(2);

    expect((await send(ctx, owner, 'DELETE', at(`/posts/${post.id}`))).statusCode).toBe(200);
    expect((await external(`/posts/${post.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with the field’s path and writes nothing', async () => {
    const refused = await send(ctx, owner, 'POST', at('/authors'), { displayName: '' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.issues[0].path).toBe('/displayName');
    expect((await external('/authors')).json().total).toBe(0);
  });

  it('uploads media with a multipart body', async () => {
    const { payload, headers } = multipart([
      { name: 'file', filename: 'dot.png', contentType: 'image/png', data: png(4, 3) },
      { name: 'alt', data: 'A grey dot' },
    ]);
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: `${DASHBOARD}${at('/media')}`,
      headers: { ...headers, cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
      payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ mimeType: 'image/png', width: 4, height: 3, alt: 'A grey dot' });
  });

  it('manages a webhook endpoint with the external API’s routes: the secret once, then its deliveries', async () => {
    const created = await send(ctx, owner, 'POST', at('/webhooks'), { url: 'https://hooks.example.com/site' });
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = created.json();
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(created.headers['cache-control']).toBe('no-store');
    const read = await send(ctx, owner, 'GET', at(`/webhooks/${endpoint.id}`));
    expect(read.json()).not.toHaveProperty('secret');
    const test = await send(ctx, owner, 'POST', at(`/webhooks/${endpoint.id}/test`));
    expect(test.statusCode, test.body).toBe(201);
    const deliveries = await send(ctx, owner, 'GET', at(`/webhooks/${endpoint.id}/deliveries`));
    expect(deliveries.json().data.map((d: { eventType: string }) => d.eventType)).toEqual(['webhook.test']);
  });

  describe('who may write', () => {
    it('needs the resource’s write permission; read is not enough', async () => {
      const reader = await signedInMember(ctx, workspaceId, ['tags:read']);
      const refused = await send(ctx, reader, 'POST', at('/tags'), { name: 'Not mine to make' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().details.permission).toBe('tags:write');

      const writer = await signedInMember(ctx, workspaceId, ['tags:write']);
      expect((await send(ctx, writer, 'POST', at('/tags'), { name: 'Mine to make' })).statusCode).toBe(201);
    });

    it('needs the session’s CSRF token on every write', async () => {
      const forged = await send(ctx, owner, 'POST', at('/tags'), { name: 'Forged' }, { 'x-csrf-token': 'nope' });
      expect(forged.statusCode).toBe(403);
      expect(forged.json().details.reason).toBe('csrf');
    });

    it('answers 404 in a workspace the user is not a member of, and the API key is no way in', async () => {
      const other = await signedInOwner(ctx);
      const foreign = await send(ctx, other.owner, 'POST', at('/tags'), { name: 'Trespass' });
      expect(foreign.statusCode).toBe(404);
      const byKey = await ctx.app.inject({
        method: 'POST',
        url: `${DASHBOARD}${at('/tags')}`,
        headers: { 'x-api-key': key },
        payload: { name: 'By key' },
      });
      expect(byKey.statusCode).toBe(401);
      expect((await external('/tags?q=Trespass')).json().total).toBe(0);
    });
  });
});
