import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { send, signedInMember, signedInOwner, type Browser } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';

interface KeyBody {
  id: string;
  name: string;
  keyPrefix: string;
  status: string;
  expiresAt: string | null;
  revokedAt: string | null;
  createdBy: { userId: string; email: string };
  key?: string;
}

describeEachDialect('dashboard api keys and content', (dialect) => {
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ owner, workspaceId } = await signedInOwner(ctx));
  });
  afterAll(() => ctx?.close());

  const keys = () => `/workspaces/${workspaceId}/api-keys`;
  const external = (
    key: string,
    method: 'GET' | 'POST' = 'GET',
    path = '/api-keys',
    payload?: Record<string, unknown>,
  ) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key },
      ...(payload ? { payload } : {}),
    });

  describe('the key lifecycle through the dashboard', () => {
    let created: KeyBody;

    it('creates a key and shows its plaintext exactly once, never cached', async () => {
      const response = await send(ctx, owner, 'POST', keys(), { name: 'Site build' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      created = response.json();
      expect(created.key).toMatch(/^quire_live_[0-9A-Za-z]{38}$/);
      expect(created).toMatchObject({
        name: 'Site build',
        status: 'Active',
        createdBy: { userId: owner.user.id, email: owner.user.email },
      });
      expect(created.keyPrefix).toBe(created.key!.slice(0, 18));
    });

    it('the created key works against the external API', async () => {
      const listed = await external(created.key!);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data.map((k: KeyBody) => k.id)).toContain(created.id);
      const post = await external(created.key!, 'POST', '/posts', { title: 'Written with a dashboard key' });
      expect(post.statusCode, post.body).toBe(201);
    });

    it('lists keys with status and creator, without the plaintext', async () => {
      const response = await send(ctx, owner, 'GET', keys());
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const page = response.json();
      expect(page).toMatchObject({ page: 1, pageSize: 10, total: 1, totalPages: 1 });
      expect(page.data[0]).toMatchObject({ id: created.id, status: 'Active', createdBy: { email: owner.user.email } });
      expect(page.data[0]).not.toHaveProperty('key');
      expect(response.body).not.toContain(created.key);
      expect((await send(ctx, owner, 'GET', `${keys()}?isActive=false`)).json().total).toBe(0);
      expect((await send(ctx, owner, 'GET', `${keys()}?pageSize=101`)).statusCode).toBe(400);
    });

    it('reveals an Active key to the owner', async () => {
      const response = await send(ctx, owner, 'POST', `${keys()}/${created.id}/reveal`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json().key).toBe(created.key);
    });

    it('edits the name and sets, then clears, the expiry', async () => {
      const future = new Date(Date.now() + 86_400_000).toISOString();
      const renamed = await send(ctx, owner, 'PATCH', `${keys()}/${created.id}`, {
        name: 'Renamed',
        expiresAt: future,
      });
      expect(renamed.json()).toMatchObject({ name: 'Renamed', expiresAt: future, status: 'Active' });
      const cleared = await send(ctx, owner, 'PATCH', `${keys()}/${created.id}`, { expiresAt: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toMatchObject({ name: 'Renamed', expiresAt: null });
    });

    it('revokes idempotently; the key then gets 401 and cannot be revealed', async () => {
      const first = await send(ctx, owner, 'POST', `${keys()}/${created.id}/revoke`);
      expect(first.statusCode).toBe(200);
      expect(first.json().status).toBe('Revoked');
      const second = await send(ctx, owner, 'POST', `${keys()}/${created.id}/revoke`);
      expect(second.statusCode).toBe(200);
      expect(second.json().revokedAt).toBe(first.json().revokedAt);
      expect((await external(created.key!)).statusCode).toBe(401);
      const reveal = await send(ctx, owner, 'POST', `${keys()}/${created.id}/reveal`);
      expect(reveal.statusCode).toBe(400);
      expect((await send(ctx, owner, 'GET', `${keys()}?isActive=false`)).json().data[0].status).toBe('Revoked');
    });

    it('an Expired key cannot be revealed', async () => {
      const key: KeyBody = (await send(ctx, owner, 'POST', keys(), { name: 'Short-lived' })).json();
      await send(ctx, owner, 'PATCH', `${keys()}/${key.id}`, { expiresAt: new Date(Date.now() - 1000).toISOString() });
      const reveal = await send(ctx, owner, 'POST', `${keys()}/${key.id}/reveal`);
      expect(reveal.statusCode).toBe(400);
      expect((await external(key.key!)).statusCode).toBe(401);
    });
  });

  describe('members and keys', () => {
    it('api-keys:read lists but cannot create; write does not imply read', async () => {
      const reader = await signedInMember(ctx, workspaceId, ['api-keys:read']);
      expect((await send(ctx, reader, 'GET', keys())).statusCode).toBe(200);
      const create = await send(ctx, reader, 'POST', keys(), { name: 'Mine' });
      expect(create.statusCode).toBe(403);
      expect(create.json().code).toBe('FORBIDDEN');
      const writer = await signedInMember(ctx, workspaceId, ['api-keys:write']);
      expect((await send(ctx, writer, 'GET', keys())).statusCode).toBe(403);
    });

    it('a member reveals and edits only their own keys; the owner any; anyone with write may revoke', async () => {
      const member = await signedInMember(ctx, workspaceId, ['api-keys:read', 'api-keys:write', 'posts:read']);
      const own: KeyBody = (await send(ctx, member, 'POST', keys(), { name: 'Member key' })).json();
      expect(own.createdBy.userId).toBe(member.user.id);
      const ownersKey: KeyBody = (await send(ctx, owner, 'POST', keys(), { name: 'Owner key' })).json();

      expect((await send(ctx, member, 'POST', `${keys()}/${own.id}/reveal`)).json().key).toBe(own.key);
      expect((await send(ctx, member, 'POST', `${keys()}/${ownersKey.id}/reveal`)).statusCode).toBe(403);
      expect((await send(ctx, member, 'PATCH', `${keys()}/${ownersKey.id}`, { name: 'Taken over' })).statusCode).toBe(
        403,
      );
      expect((await send(ctx, owner, 'POST', `${keys()}/${own.id}/reveal`)).json().key).toBe(own.key);
      expect((await send(ctx, owner, 'PATCH', `${keys()}/${own.id}`, { name: 'Named by owner' })).json().name).toBe(
        'Named by owner',
      );

      // The member's key carries the member's permissions, live.
      expect((await external(own.key!, 'GET', '/posts')).statusCode).toBe(200);
      expect((await external(own.key!, 'GET', '/pages')).statusCode).toBe(403);

      expect((await send(ctx, member, 'POST', `${keys()}/${ownersKey.id}/revoke`)).json().status).toBe('Revoked');
    });

    it('a key of another workspace is not found here', async () => {
      const other = await ctx.ownerKey();
      expect((await send(ctx, owner, 'POST', `${keys()}/${other.keyId}/revoke`)).statusCode).toBe(404);
      expect((await external(other.key)).statusCode).toBe(200);
    });
  });

  describe('content reads', () => {
    it('lists every resource with the external API’s query parameters and response', async () => {
      const { key } = (await send(ctx, owner, 'POST', keys(), { name: 'Content' })).json();
      const post = await external(key, 'POST', '/posts', { title: 'Dashboard reads this', status: 'published' });
      expect(post.statusCode).toBe(201);
      const { id, slug } = post.json();

      const listed = await send(
        ctx,
        owner,
        'GET',
        `/workspaces/${workspaceId}/posts?status=published&orderBy=title&order=asc`,
      );
      expect(listed.statusCode, listed.body).toBe(200);
      const fromExternal = (await external(key, 'GET', '/posts?status=published&orderBy=title&order=asc')).json();
      expect(listed.json()).toEqual(fromExternal);
      expect(listed.json().data.map((p: { id: string }) => p.id)).toContain(id);

      const one = await send(ctx, owner, 'GET', `/workspaces/${workspaceId}/posts/${slug}`);
      expect(one.json()).toEqual((await external(key, 'GET', `/posts/${id}`)).json());
      expect((await send(ctx, owner, 'GET', `/workspaces/${workspaceId}/posts/no-such-post`)).statusCode).toBe(404);

      for (const resource of ['pages', 'media', 'authors', 'categories', 'tags', 'redirects', 'link-health']) {
        const response = await send(ctx, owner, 'GET', `/workspaces/${workspaceId}/${resource}`);
        expect(response.statusCode, `${resource}: ${response.body}`).toBe(200);
        expect(response.json()).toMatchObject({ page: 1, pageSize: 10, order: 'desc' });
        expect(response.headers['cache-control']).toBe('no-store');
      }
      expect((await send(ctx, owner, 'GET', `/workspaces/${workspaceId}/posts?pageSize=500`)).statusCode).toBe(400);
      expect((await send(ctx, owner, 'GET', `/workspaces/${workspaceId}/posts?order=asc`)).statusCode).toBe(400);
    });

    it('needs the resource’s read permission', async () => {
      const member = await signedInMember(ctx, workspaceId, ['pages:read']);
      expect((await send(ctx, member, 'GET', `/workspaces/${workspaceId}/pages`)).statusCode).toBe(200);
      for (const resource of [
        'posts',
        'posts/anything',
        'media',
        'authors',
        'categories',
        'tags',
        'redirects',
        'link-health',
      ]) {
        const response = await send(ctx, member, 'GET', `/workspaces/${workspaceId}/${resource}`);
        expect(response.statusCode, resource).toBe(403);
      }
    });
  });
});
