import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/security/permissions.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';

const UNAUTHORIZED_BODY = {
  code: 'UNAUTHORIZED',
  message: 'A valid API key is required in the X-API-Key header',
  details: null,
};

describeEachDialect('authentication', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const get = (key: string | undefined, url = `${EXTERNAL}/api-keys`) =>
    ctx.app.inject({ method: 'GET', url, headers: key === undefined ? {} : { 'x-api-key': key } });

  describe('every kind of bad key gets the same 401 body', () => {
    it('missing, empty, malformed, bad checksum and unknown keys', async () => {
      const { key } = await ctx.ownerKey();
      const wrongChecksum = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
      const unknown = (await ctx.ownerKey()).key;
      await ctx.runtime.database.db.deleteFrom('api_keys').where('key_prefix', '=', unknown.slice(0, 18)).execute();
      for (const candidate of [
        undefined,
        '',
        'nonsense',
        `quire_test_${key.slice(11)}`,
        wrongChecksum,
        `${key} `,
        unknown,
      ]) {
        const response = await get(candidate);
        expect(response.statusCode, String(candidate)).toBe(401);
        expect(response.json()).toEqual(UNAUTHORIZED_BODY);
      }
    });

    it('refuses a malformed key before any database work', async () => {
      const before = ctx.runtime.database.stats.queries;
      const response = await get('quire_live_short');
      expect(response.statusCode).toBe(401);
      expect(ctx.runtime.database.stats.queries).toBe(before);
    });

    it('revoked and expired keys', async () => {
      const { workspace, key, keyId } = await ctx.ownerKey();
      expect((await get(key)).statusCode).toBe(200);
      await ctx.runtime.services.apiKeys.revokeKey(workspace.id, keyId, COMMAND_LINE);
      expect((await get(key)).json()).toEqual(UNAUTHORIZED_BODY);

      const expiring = await ctx.createKey(workspace, workspace.owner, {
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect((await get(expiring.key)).statusCode).toBe(200);
      await ctx.runtime.database.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1).toISOString() })
        .where('id', '=', expiring.id)
        .execute();
      const response = await get(expiring.key);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED_BODY);
    });

    it('a key is accepted only in the X-API-Key header', async () => {
      const { key } = await ctx.ownerKey();
      const inQuery = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/api-keys?apiKey=${key}` });
      expect(inQuery.statusCode).toBe(401);
      const asBearer = await ctx.app.inject({
        method: 'GET',
        url: `${EXTERNAL}/api-keys`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(asBearer.statusCode).toBe(401);
    });

    it('answers 401 before 404 for paths that do not exist', async () => {
      expect((await get(undefined, `${EXTERNAL}/no-such-thing`)).json()).toEqual(UNAUTHORIZED_BODY);
      const { key } = await ctx.ownerKey();
      expect((await get(key, `${EXTERNAL}/no-such-thing`)).json().code).toBe('NOT_FOUND');
    });
  });

  describe('permissions apply live, on the very next request', () => {
    it('a member without the permission gets 403; granting it opens the route; removing it closes it', async () => {
      const { workspace, user, key } = await ctx.memberKey(['posts:read']);
      const denied = await get(key);
      expect(denied.statusCode).toBe(403);
      expect(denied.json().code).toBe('FORBIDDEN');

      await ctx.setPermissions(workspace, user, ['posts:read', 'api-keys:read']);
      expect((await get(key)).statusCode).toBe(200);

      await ctx.setPermissions(workspace, user, []);
      expect((await get(key)).statusCode).toBe(403);
    });

    it('write does not imply read', async () => {
      const { key } = await ctx.memberKey(['api-keys:write']);
      expect((await get(key)).statusCode).toBe(403);
    });

    it('removing the membership disables the key with a 401; restoring it brings the key back', async () => {
      const { workspace, user, key, keyId } = await ctx.memberKey(['api-keys:read']);
      expect((await get(key)).statusCode).toBe(200);
      await ctx.runtime.services.accounts.removeMember(workspace.id, user.email, COMMAND_LINE);
      expect((await get(key)).json()).toEqual(UNAUTHORIZED_BODY);
      const row = await ctx.runtime.database.db
        .selectFrom('api_keys')
        .select('id')
        .where('id', '=', keyId)
        .executeTakeFirst();
      expect(row?.id).toBe(keyId);
      await ctx.addMember(workspace, user, ['api-keys:read']);
      expect((await get(key)).statusCode).toBe(200);
    });

    it('an owner demoted by a transfer keeps every permission until an edit reduces them', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const heir = await ctx.createUser();
      await ctx.runtime.services.accounts.transferWorkspace(workspace.id, heir.email, COMMAND_LINE);
      expect((await get(key)).statusCode).toBe(200);
      const member = await ctx.runtime.services.accounts.getMember(workspace.id, workspace.owner.email);
      expect(member.isOwner).toBe(false);
      expect(member.permissions).toEqual(ALL_PERMISSIONS);

      await ctx.setPermissions(workspace, workspace.owner, ['posts:read']);
      expect((await get(key)).statusCode).toBe(403);
    });

    it('the owner holds every permission implicitly, whatever the membership row says', async () => {
      const { workspace, key } = await ctx.ownerKey();
      await ctx.runtime.database.db
        .updateTable('memberships')
        .set({ permissions: '[]' })
        .where('workspace_id', '=', workspace.id)
        .execute();
      expect((await get(key)).statusCode).toBe(200);
    });
  });

  it('a key only ever sees its own workspace', async () => {
    const first = await ctx.ownerKey();
    const second = await ctx.ownerKey();
    const listed = (await get(first.key)).json();
    expect(listed.data.map((k: { id: string }) => k.id)).toEqual([first.keyId]);
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/api-keys/${second.keyId}/revoke`,
      headers: { 'x-api-key': first.key },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await get(second.key)).statusCode).toBe(200);
  });
});
