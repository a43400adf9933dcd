import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/security/permissions.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { send, signedInMember, signedInOwner, signIn, userWithPassword, type Browser } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { insertMedia } from '../helpers/content.js';
import { contentVersion } from '../helpers/resources.js';

describeEachDialect('dashboard workspaces, settings and members', (dialect) => {
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  let member: Browser;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ owner, workspaceId } = await signedInOwner(ctx));
    member = await signedInMember(ctx, workspaceId, ['posts:read']);
  });
  afterAll(() => ctx?.close());

  const w = () => `/workspaces/${workspaceId}`;

  describe('workspaces', () => {
    it('lists the user’s workspaces as each sees them', async () => {
      const mine = (await send(ctx, owner, 'GET', '/workspaces')).json();
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ id: workspaceId, isOwner: true, ownerUserId: owner.user.id });
      expect(mine[0].permissions).toEqual(ALL_PERMISSIONS);
      const theirs = (await send(ctx, member, 'GET', '/workspaces')).json();
      expect(theirs).toEqual([{ ...mine[0], isOwner: false, permissions: ['posts:read'] }]);
      expect((await send(ctx, member, 'GET', '/session')).json().workspaces).toEqual(theirs);
    });

    it('creates a workspace the user owns, with a slug of its own', async () => {
      const created = await send(ctx, member, 'POST', '/workspaces', { name: '  Side project  ' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        name: 'Side project',
        slug: 'side-project',
        isOwner: true,
        ownerUserId: member.user.id,
      });
      expect((await send(ctx, member, 'POST', '/workspaces', { name: 'Side project' })).json().slug).toBe(
        'side-project-2',
      );
      expect((await send(ctx, member, 'POST', '/workspaces', { name: '   ' })).statusCode).toBe(400);
      expect((await send(ctx, member, 'GET', '/workspaces')).json()).toHaveLength(3);
    });

    it('renames for the owner only; the slug stays', async () => {
      const before = (await send(ctx, owner, 'GET', '/workspaces')).json()[0];
      const renamed = await send(ctx, owner, 'PATCH', w(), { name: 'Renamed site' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Renamed site', slug: before.slug });
      const denied = await send(ctx, member, 'PATCH', w(), { name: 'Mine now' });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().code).toBe('FORBIDDEN');
    });

    it('a workspace the user is not a member of does not exist for them', async () => {
      const stranger = await signIn(ctx, await userWithPassword(ctx));
      for (const [method, path] of [
        ['GET', `${w()}/settings`],
        ['GET', `${w()}/members`],
        ['PATCH', w()],
        ['GET', `${w()}/posts`],
        ['GET', `/workspaces/${crypto.randomUUID()}/settings`],
        ['GET', '/workspaces/not-a-uuid/settings'],
      ] as const) {
        const response = await send(ctx, stranger, method, path, method === 'PATCH' ? { name: 'x' } : undefined);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
      }
    });
  });

  describe('site settings', () => {
    it('are readable by any member and start mostly empty', async () => {
      const settings = await send(ctx, member, 'GET', `${w()}/settings`);
      expect(settings.statusCode).toBe(200);
      expect(settings.json()).toMatchObject({ siteUrl: null, logoMediaId: null, postUrlPattern: null });
      expect(settings.headers['cache-control']).toBe('no-store');
    });

    it('are changed by the owner only, and a change bumps the content version', async () => {
      expect((await send(ctx, member, 'PATCH', `${w()}/settings`, { siteName: 'Nope' })).statusCode).toBe(403);
      const version = await contentVersion(ctx, workspaceId);
      const patch = {
        siteName: 'The Blog',
        siteUrl: 'https://blog.example.com',
        publisherName: 'Example Ltd',
        publisherUrl: 'https://example.com/',
        postUrlPattern: '/blog/{slug}',
        pageUrlPattern: '/{slug}',
        authorUrlPattern: '/authors/{slug}/',
        categoryUrlPattern: '/topics/{path}',
      };
      const saved = await send(ctx, owner, 'PATCH', `${w()}/settings`, patch);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ ...patch, logoMediaId: null, previewUrlPattern: null });
      expect(await contentVersion(ctx, workspaceId)).toBe(version + 1);

      const cleared = await send(ctx, owner, 'PATCH', `${w()}/settings`, {
        publisherUrl: null,
        categoryUrlPattern: '/c/{slug}',
      });
      expect(cleared.json()).toMatchObject({
        publisherUrl: null,
        categoryUrlPattern: '/c/{slug}',
        siteName: 'The Blog',
      });
      expect((await send(ctx, member, 'GET', `${w()}/settings`)).json()).toEqual(cleared.json());
    });

    it('refuses a URL that is not absolute http(s) and patterns that are not site paths with their placeholder', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ siteUrl: 'blog.example.com' }, '/siteUrl'],
        [{ siteUrl: '/relative' }, '/siteUrl'],
        [{ siteUrl: 'ftp://example.com' }, '/siteUrl'],
        [{ siteUrl: 'javascript:alert(1)' }, '/siteUrl'],
        [{ publisherUrl: 'https://user:pw@example.com' }, '/publisherUrl'],
        [{ postUrlPattern: '/blog/' }, '/postUrlPattern'],
        [{ postUrlPattern: 'blog/{slug}' }, '/postUrlPattern'],
        [{ postUrlPattern: '//evil.example/{slug}' }, '/postUrlPattern'],
        [{ pageUrlPattern: '/\\evil.example/{slug}' }, '/pageUrlPattern'],
        [{ authorUrlPattern: '/authors/{path}' }, '/authorUrlPattern'],
        [{ categoryUrlPattern: '/c/{name}' }, '/categoryUrlPattern'],
        [{ previewUrlPattern: '/preview/{id}' }, '/previewUrlPattern'],
        [{ previewUrlPattern: 'preview/{token}' }, '/previewUrlPattern'],
        [{ previewUrlPattern: 'ftp://preview.example/{token}' }, '/previewUrlPattern'],
        [{ siteName: '   ' }, '/siteName'],
        [{ logoMediaId: 'not-a-uuid' }, '/logoMediaId'],
        [{ theme: 'dark' }, '/theme'],
        [{}, ''],
      ];
      for (const [body, path] of cases) {
        const response = await send(ctx, owner, 'PATCH', `${w()}/settings`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().details.issues[0].path, JSON.stringify(body)).toBe(path);
      }
    });

    it('takes as logo only a media item of this workspace', async () => {
      const db = ctx.runtime.database.db;
      const other = await ctx.createWorkspace();
      const media = (inWorkspace: string) => insertMedia(db, inWorkspace);
      const foreign = await send(ctx, owner, 'PATCH', `${w()}/settings`, { logoMediaId: await media(other.id) });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().details.issues[0].path).toBe('/logoMediaId');
      const mine = await media(workspaceId);
      const saved = await send(ctx, owner, 'PATCH', `${w()}/settings`, { logoMediaId: mine });
      expect(saved.json().logoMediaId).toBe(mine);
      expect((await send(ctx, owner, 'PATCH', `${w()}/settings`, { logoMediaId: null })).json().logoMediaId).toBeNull();
    });
  });

  describe('members', () => {
    it('lists members for any member, the owner with every permission', async () => {
      const list = await send(ctx, member, 'GET', `${w()}/members`);
      expect(list.statusCode).toBe(200);
      const members = list.json();
      expect(members).toHaveLength(2);
      expect(members[0]).toMatchObject({
        userId: owner.user.id,
        email: owner.user.email,
        isOwner: true,
        permissions: ALL_PERMISSIONS,
      });
      expect(members[1]).toMatchObject({ userId: member.user.id, isOwner: false, permissions: ['posts:read'] });
    });

    it('the owner adds an existing user, edits their permissions and removes them', async () => {
      const user = await userWithPassword(ctx);
      const added = await send(ctx, owner, 'POST', `${w()}/members`, {
        email: user.email.toUpperCase(),
        permissions: ['posts:write', 'posts:read'],
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({
        userId: user.id,
        email: user.email,
        isOwner: false,
        permissions: ['posts:read', 'posts:write'],
      });
      expect(
        (await send(ctx, owner, 'POST', `${w()}/members`, { email: user.email, permissions: [] })).statusCode,
      ).toBe(409);

      const edited = await send(ctx, owner, 'PATCH', `${w()}/members/${user.id}`, { permissions: ['pages:read'] });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().permissions).toEqual(['pages:read']);

      const removed = await send(ctx, owner, 'DELETE', `${w()}/members/${user.id}`);
      expect(removed.json()).toEqual({ removed: true });
      expect((await send(ctx, owner, 'DELETE', `${w()}/members/${user.id}`)).statusCode).toBe(404);
      expect((await send(ctx, owner, 'GET', `${w()}/members`)).json()).toHaveLength(2);
    });

    it('refuses unknown users and unknown permissions', async () => {
      const unknown = await send(ctx, owner, 'POST', `${w()}/members`, {
        email: 'nobody-here@example.com',
        permissions: [],
      });
      expect(unknown.statusCode).toBe(404);
      const badPermission = await send(ctx, owner, 'POST', `${w()}/members`, {
        email: member.user.email,
        permissions: ['posts:delete'],
      });
      expect(badPermission.statusCode).toBe(400);
      expect(badPermission.json().details.issues[0].path).toMatch(/^\/permissions/);
      const badEmail = await send(ctx, owner, 'POST', `${w()}/members`, {
        email: 'nope',
        permissions: [],
      });
      expect(badEmail.json().details.issues[0].path).toBe('/email');
    });

    it('no longer makes accounts with a one-time password: a new person is invited (docs/team.md)', async () => {
      const email = `new-${crypto.randomBytes(4).toString('hex')}@example.com`;
      const refused = await send(ctx, owner, 'POST', `${w()}/members`, {
        email,
        permissions: ['posts:read'],
        createUser: true,
      });
      expect(refused.statusCode).toBe(400);
      expect(
        await ctx.runtime.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
      ).toBe(undefined);
    });

    it('the owner cannot be edited or removed', async () => {
      expect((await send(ctx, owner, 'PATCH', `${w()}/members/${owner.user.id}`, { permissions: [] })).statusCode).toBe(
        400,
      );
      expect((await send(ctx, owner, 'DELETE', `${w()}/members/${owner.user.id}`)).statusCode).toBe(400);
    });

    it('a member without members:write and site-settings:write gets 403 on every change of them', async () => {
      const contentOnly = ALL_PERMISSIONS.filter((p) => p !== 'members:write' && p !== 'site-settings:write');
      const writer = await signedInMember(ctx, workspaceId, contentOnly);
      const attempts: Array<['POST' | 'PATCH' | 'DELETE', string, unknown]> = [
        ['POST', `${w()}/members`, { email: owner.user.email, permissions: [] }],
        ['PATCH', `${w()}/members/${member.user.id}`, { permissions: [...ALL_PERMISSIONS] }],
        ['DELETE', `${w()}/members/${member.user.id}`, undefined],
        ['POST', `${w()}/transfer`, { userId: writer.user.id }],
        ['PATCH', `${w()}/settings`, { siteName: 'x' }],
        ['POST', `${w()}/invitations`, { email: 'someone@example.com', permissions: [] }],
      ];
      for (const [method, path, body] of attempts) {
        const response = await send(ctx, writer, method, path, body);
        expect(response.statusCode, `${method} ${path}`).toBe(403);
      }
      expect(
        (await send(ctx, owner, 'GET', `${w()}/members`))
          .json()
          .find((m: { userId: string }) => m.userId === member.user.id).permissions,
      ).toEqual(['posts:read']);
      await send(ctx, owner, 'DELETE', `${w()}/members/${writer.user.id}`);
    });

    it('an admin (members:write) manages members up to their own permissions, never the owner or a transfer', async () => {
      const adminPermissions = ['posts:read', 'posts:write', 'members:write', 'site-settings:write'];
      const admin = await signedInMember(ctx, workspaceId, adminPermissions);
      const someone = await userWithPassword(ctx);
      const added = await send(ctx, admin, 'POST', `${w()}/members`, {
        email: someone.email,
        permissions: ['posts:read'],
      });
      expect(added.statusCode, added.body).toBe(201);
      const edited = await send(ctx, admin, 'PATCH', `${w()}/members/${someone.id}`, { permissions: adminPermissions });
      expect(edited.json().permissions).toEqual(adminPermissions);

      const beyond = await send(ctx, admin, 'PATCH', `${w()}/members/${someone.id}`, {
        permissions: ['posts:read', 'api-keys:write'],
      });
      expect(beyond.statusCode).toBe(403);
      expect(beyond.json().details).toEqual({ permissions: ['api-keys:write'] });
      // What the member holds already and the admin does not may stay, or go.
      await send(ctx, owner, 'PATCH', `${w()}/members/${someone.id}`, { permissions: ['posts:read', 'webhooks:read'] });
      const kept = await send(ctx, admin, 'PATCH', `${w()}/members/${someone.id}`, {
        permissions: ['posts:read', 'posts:write', 'webhooks:read'],
      });
      expect(kept.statusCode, kept.body).toBe(200);
      const dropped = await send(ctx, admin, 'PATCH', `${w()}/members/${someone.id}`, { permissions: ['posts:read'] });
      expect(dropped.json().permissions).toEqual(['posts:read']);
      const invitedBeyond = await send(ctx, admin, 'POST', `${w()}/invitations`, {
        email: 'stronger@example.com',
        permissions: ['webhooks:write'],
      });
      expect(invitedBeyond.statusCode).toBe(403);
      const invited = await send(ctx, admin, 'POST', `${w()}/invitations`, {
        email: 'weaker@example.com',
        permissions: ['posts:read'],
      });
      expect(invited.statusCode, invited.body).toBe(201);
      expect(invited.json().invitation.invitedByEmail).toBe(admin.user.email);
      expect((await send(ctx, admin, 'DELETE', `${w()}/invitations/${invited.json().invitation.id}`)).statusCode).toBe(
        200,
      );

      expect((await send(ctx, admin, 'PATCH', `${w()}/members/${owner.user.id}`, { permissions: [] })).statusCode).toBe(
        400,
      );
      expect((await send(ctx, admin, 'DELETE', `${w()}/members/${owner.user.id}`)).statusCode).toBe(400);
      expect((await send(ctx, admin, 'POST', `${w()}/transfer`, { userId: admin.user.id })).statusCode).toBe(403);
      const settings = await send(ctx, admin, 'PATCH', `${w()}/settings`, { publisherName: 'Admin Press' });
      expect(settings.statusCode, settings.body).toBe(200);
      expect((await send(ctx, admin, 'DELETE', `${w()}/members/${someone.id}`)).json()).toEqual({ removed: true });
      await send(ctx, owner, 'PATCH', `${w()}/settings`, { publisherName: null });
      await send(ctx, owner, 'DELETE', `${w()}/members/${admin.user.id}`);
    });

    it('a permission change applies to the member’s very next request', async () => {
      const reader = await signedInMember(ctx, workspaceId, []);
      expect((await send(ctx, reader, 'GET', `${w()}/posts`)).statusCode).toBe(403);
      await send(ctx, owner, 'PATCH', `${w()}/members/${reader.user.id}`, { permissions: ['posts:read'] });
      expect((await send(ctx, reader, 'GET', `${w()}/posts`)).statusCode).toBe(200);
      await send(ctx, owner, 'DELETE', `${w()}/members/${reader.user.id}`);
      // Removed, and signed out with it (docs/team.md, "Sessions").
      expect((await send(ctx, reader, 'GET', `${w()}/posts`)).statusCode).toBe(401);
    });

    it('transfers ownership to a member; the old owner keeps every permission explicitly', async () => {
      const { owner: first, workspaceId: id } = await signedInOwner(ctx);
      const heir = await signedInMember(ctx, id, ['posts:read']);
      expect(
        (await send(ctx, first, 'POST', `/workspaces/${id}/transfer`, { userId: crypto.randomUUID() })).statusCode,
      ).toBe(404);
      const outsider = await userWithPassword(ctx);
      expect((await send(ctx, first, 'POST', `/workspaces/${id}/transfer`, { userId: outsider.id })).statusCode).toBe(
        404,
      );

      const moved = await send(ctx, first, 'POST', `/workspaces/${id}/transfer`, { userId: heir.user.id });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({
        id,
        ownerUserId: heir.user.id,
        isOwner: false,
        permissions: ALL_PERMISSIONS,
      });
      const row = await ctx.runtime.database.db
        .selectFrom('memberships')
        .select('permissions')
        .where('workspace_id', '=', id)
        .where('user_id', '=', first.user.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.permissions)).toEqual(ALL_PERMISSIONS);

      // Ownership moved with the very next request: the old owner is now a member like any other.
      expect((await send(ctx, first, 'PATCH', `/workspaces/${id}`, { name: 'Still mine?' })).statusCode).toBe(403);
      expect((await send(ctx, heir, 'GET', '/workspaces')).json()[0]).toMatchObject({ id, isOwner: true });
      const demoted = await send(ctx, heir, 'PATCH', `/workspaces/${id}/members/${first.user.id}`, {
        permissions: ['posts:read'],
      });
      expect(demoted.json()).toMatchObject({ isOwner: false, permissions: ['posts:read'] });
    });
  });
});
