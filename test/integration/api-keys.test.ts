import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptKey, encryptKey } from '../../src/modules/api-keys/key-cipher.js';
import { hashKey } from '../../src/security/key-token.js';
import { masterKeyFrom } from '../../src/security/master-key.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Json = Record<string, unknown>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY_FIELDS = [
  'createdAt',
  'createdBy',
  'expiresAt',
  'id',
  'keyPrefix',
  'name',
  'revokedAt',
  'status',
  'updatedAt',
  'workspaceId',
];
const FORBIDDEN_FIELDS = /keyHash|keyEncrypted|key_hash|key_encrypted|masterKeyId|master_key_id/;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();
const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDialect('api-keys routes', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const call = (key: string, method: Method, path = '', payload?: Json) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}/api-keys${path}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload }),
    });
  const list = (key: string, query = '') => call(key, 'GET', query ? `?${query}` : '');
  const create = (key: string, payload: Json) => call(key, 'POST', '', payload);
  const patch = (key: string, id: string, payload: Json) => call(key, 'PATCH', `/${id}`, payload);
  const reveal = (key: string, id: string) => call(key, 'POST', `/${id}/reveal`);
  const revoke = (key: string, id: string) => call(key, 'POST', `/${id}/revoke`);
  const canList = async (key: string) => (await list(key)).statusCode;

  /** A response body may name a key only by id and prefix: never its plaintext, hash or ciphertext. */
  async function expectNoSecrets(body: string, ...plaintexts: string[]): Promise<void> {
    expect(body).not.toMatch(FORBIDDEN_FIELDS);
    for (const plaintext of plaintexts) {
      expect(body).not.toContain(plaintext);
      expect(body).not.toContain(hashKey(plaintext));
    }
    const stored = await ctx.runtime.database.db.selectFrom('api_keys').select('key_encrypted').execute();
    for (const { key_encrypted } of stored) expect(body).not.toContain(key_encrypted);
  }

  function expectIssue(response: { statusCode: number; json(): Json }, path: string, pattern?: RegExp): void {
    expect(response.statusCode).toBe(400);
    const body = response.json() as { code: string; details: { issues: Array<{ path: string; message: string }> } };
    expect(body.code).toBe('BAD_REQUEST');
    const issue = body.details.issues.find((candidate) => candidate.path === path);
    expect(issue, JSON.stringify(body)).toBeDefined();
    if (pattern) expect(issue!.message).toMatch(pattern);
  }

  describe('create', () => {
    it('answers 201 with the plaintext once; it authenticates and never shows up again', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const response = await create(key, { name: 'Deploy bot', expiresAt: inOneHour() });
      expect(response.statusCode).toBe(201);
      const created = response.json() as Json & { key: string; createdBy: Json };
      expect(Object.keys(created).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
      expect(created.key).toMatch(/^quire_live_[0-9A-Za-z]{38}$/);
      expect(created).toMatchObject({
        name: 'Deploy bot',
        status: 'Active',
        revokedAt: null,
        workspaceId: workspace.id,
        keyPrefix: created.key.slice(0, 18),
      });
      expect(created.createdBy).toEqual({ userId: workspace.owner.id, email: workspace.owner.email });
      for (const field of ['createdAt', 'updatedAt', 'expiresAt']) expect(created[field]).toMatch(ISO);
      expect(response.body.split(created.key)).toHaveLength(2);
      await expectNoSecrets(response.body.replace(created.key, ''), created.key);

      expect(await canList(created.key)).toBe(200);
      const listed = await list(key);
      expect(listed.json().data.map((k: Json) => k.id)).toContain(created.id);
      for (const item of listed.json().data as Json[]) expect(Object.keys(item).sort()).toEqual(KEY_FIELDS);
      await expectNoSecrets(listed.body, created.key, key);
      const edited = await patch(key, created.id as string, { name: 'Renamed' });
      await expectNoSecrets(edited.body, created.key);
      const revoked = await revoke(key, created.id as string);
      await expectNoSecrets(revoked.body, created.key);
    });

    it('a member creates keys as themselves; the key carries their permissions', async () => {
      const { user, key } = await ctx.memberKey(['api-keys:write']);
      const created = await create(key, { name: 'mine' });
      expect(created.statusCode).toBe(201);
      expect(created.json().createdBy).toEqual({ userId: user.id, email: user.email });
      // The new key inherits the member's rights exactly: write, but not read.
      expect(await canList(created.json().key)).toBe(403);
    });

    it('trims the name, accepts 100 characters and refuses 101, blank or missing names', async () => {
      const { key } = await ctx.ownerKey();
      expect((await create(key, { name: '  CI  ' })).json().name).toBe('CI');
      expect((await create(key, { name: 'n'.repeat(100) })).statusCode).toBe(201);
      expectIssue(await create(key, { name: 'n'.repeat(101) }), '/name');
      expectIssue(await create(key, { name: '' }), '/name');
      expectIssue(await create(key, { name: ' \t ' }), '/name');
      expectIssue(await create(key, { name: 42 }), '/name');
      expectIssue(await create(key, {}), '/name', /required/);
    });

    it('expiresAt: a past or malformed value is a 400; an offset is stored as UTC; null means never', async () => {
      const { key } = await ctx.ownerKey();
      expectIssue(await create(key, { name: 'late', expiresAt: anHourAgo() }), '/expiresAt');
      expectIssue(await create(key, { name: 'odd', expiresAt: 'tomorrow' }), '/expiresAt');
      const offset = await create(key, { name: 'offset', expiresAt: '2999-01-01T02:00:00+02:00' });
      expect(offset.json().expiresAt).toBe('2999-01-01T00:00:00.000Z');
      const never = await create(key, { name: 'forever', expiresAt: null });
      expect(never.json()).toMatchObject({ expiresAt: null, status: 'Active' });
    });

    it('unknown and read-only fields are a 400 naming the field by JSON Pointer', async () => {
      const { key, keyId } = await ctx.ownerKey();
      for (const body of [create(key, { name: 'x', scopes: ['all'] }), patch(key, keyId, { scopes: ['all'] })]) {
        expectIssue(await body, '/scopes', /scopes/);
      }
      for (const field of [
        'id',
        'workspaceId',
        'keyPrefix',
        'status',
        'revokedAt',
        'createdAt',
        'createdBy',
        'key',
        'keyHash',
      ]) {
        expectIssue(await create(key, { name: 'x', [field]: 'v' }), `/${field}`, new RegExp(field));
        expectIssue(await patch(key, keyId, { [field]: 'v' }), `/${field}`, new RegExp(field));
      }
      expectIssue(await patch(key, keyId, { 'a/b~c': 1 }), '/a~1b~0c');
      const after = await list(key);
      expect(after.json().total).toBe(1);
    });
  });

  describe('list', () => {
    async function workspaceWithEveryStatus() {
      const owner = await ctx.ownerKey();
      const expired = (await create(owner.key, { name: 'expired', expiresAt: inOneHour() })).json().id as string;
      expect((await patch(owner.key, expired, { expiresAt: anHourAgo() })).json().status).toBe('Expired');
      const revoked = (await create(owner.key, { name: 'revoked', expiresAt: inOneHour() })).json().id as string;
      expect((await revoke(owner.key, revoked)).json().status).toBe('Revoked');
      const future = (await create(owner.key, { name: 'future', expiresAt: inOneHour() })).json().id as string;
      return { ...owner, expired, revoked, future };
    }

    it('isActive=true lists Active keys, false Expired and Revoked ones, absent all of them', async () => {
      const ws = await workspaceWithEveryStatus();
      const statuses = async (query: string) => {
        const response = await list(ws.key, query);
        expect(response.statusCode).toBe(200);
        return Object.fromEntries((response.json().data as Json[]).map((k) => [k.id, k.status]));
      };
      expect(await statuses('isActive=true')).toEqual({ [ws.keyId]: 'Active', [ws.future]: 'Active' });
      expect(await statuses('isActive=false')).toEqual({ [ws.expired]: 'Expired', [ws.revoked]: 'Revoked' });
      expect(Object.keys(await statuses(''))).toHaveLength(4);
      expectIssue(await list(ws.key, 'isActive=maybe'), '/isActive');
    });

    it('defaults to page 1 of 10, newest first, and omits orderBy when none was asked for', async () => {
      const { key } = await ctx.ownerKey();
      for (let i = 0; i < 11; i += 1) {
        // Distinct milliseconds, so "newest first" has one right answer.
        await sleep(2);
        await create(key, { name: `k${String(i).padStart(2, '0')}` });
      }
      const body = (await list(key)).json();
      expect(body).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 12, totalPages: 2 });
      expect(body).not.toHaveProperty('orderBy');
      expect(body.data).toHaveLength(10);
      expect(body.data[0].name).toBe('k10');

      const sorted = (await list(key, 'orderBy=name&order=asc&pageSize=3')).json();
      expect(sorted).toMatchObject({ orderBy: 'name', order: 'asc', pageSize: 3, totalPages: 4 });
      expect(sorted.data.map((k: Json) => k.name)).toEqual(['k00', 'k01', 'k02']);
      expect((await list(key, 'orderBy=name')).json()).toMatchObject({ orderBy: 'name', order: 'desc' });
    });

    it('a page past the end is empty but tells the true total; an empty list still has one page', async () => {
      const { key } = await ctx.ownerKey();
      await create(key, { name: 'second' });
      expect((await list(key, 'page=5&pageSize=1')).json()).toMatchObject({
        data: [],
        page: 5,
        pageSize: 1,
        total: 2,
        totalPages: 2,
      });
      expect((await list(key, 'isActive=false')).json()).toMatchObject({ data: [], total: 0, totalPages: 1 });
    });

    it('refuses out-of-range pagination, order without orderBy, unknown sort keys and parameters', async () => {
      const { key } = await ctx.ownerKey();
      expect((await list(key, 'pageSize=100')).statusCode).toBe(200);
      expect((await list(key, 'pageSize=1')).statusCode).toBe(200);
      for (const [query, path] of [
        ['pageSize=101', '/pageSize'],
        ['pageSize=0', '/pageSize'],
        ['page=0', '/page'],
        ['page=-1', '/page'],
        ['page=two', '/page'],
        ['order=asc', '/order'],
        ['orderBy=keyHash', '/orderBy'],
        ['order=sideways&orderBy=name', '/order'],
        ['pagesize=50', '/pagesize'],
      ] as const) {
        expectIssue(await list(key, query), path);
      }
    });

    it('keeps a stable order when sort values tie, so paging neither repeats nor skips a key', async () => {
      const { workspace, key } = await ctx.ownerKey();
      for (let i = 0; i < 11; i += 1) await create(key, { name: 'same' });
      await ctx.runtime.database.db
        .updateTable('api_keys')
        .set({ created_at: '2030-01-01T00:00:00.000Z', name: 'same' })
        .where('workspace_id', '=', workspace.id)
        .execute();
      const ids = (
        await ctx.runtime.database.db
          .selectFrom('api_keys')
          .select('id')
          .where('workspace_id', '=', workspace.id)
          .execute()
      ).map((r) => r.id);
      const walk = async (query: string) => {
        const seen: string[] = [];
        for (let page = 1; page <= 3; page += 1) {
          seen.push(...(await list(key, `${query}&pageSize=5&page=${page}`)).json().data.map((k: Json) => k.id));
        }
        return seen;
      };
      const descending = [...ids].sort().reverse();
      expect(await walk('order=desc&orderBy=createdAt')).toEqual(descending);
      expect(await walk('isActive=true')).toEqual(descending);
      expect(await walk('orderBy=name&order=asc')).toEqual([...ids].sort());
    });
  });

  describe('edit', () => {
    it('renames (trimmed), sets and clears expiresAt; the response carries no plaintext', async () => {
      const { key, keyId } = await ctx.ownerKey();
      const renamed = await patch(key, keyId, { name: '  Production  ' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).not.toHaveProperty('key');
      expect(renamed.json()).toMatchObject({ id: keyId, name: 'Production', status: 'Active', expiresAt: null });
      const expiry = inOneHour();
      expect((await patch(key, keyId, { expiresAt: expiry })).json()).toMatchObject({
        expiresAt: expiry,
        name: 'Production',
      });
      expect((await patch(key, keyId, { expiresAt: null })).json()).toMatchObject({
        expiresAt: null,
        status: 'Active',
      });
      expect((await list(key)).json().data[0]).toMatchObject({ name: 'Production', expiresAt: null });
      expectIssue(await patch(key, keyId, { name: 'n'.repeat(101) }), '/name');
      expect((await patch(key, keyId, {})).statusCode).toBe(400);
    });

    it('a past expiresAt expires the key at once; clearing it brings the key back', async () => {
      const { key } = await ctx.ownerKey();
      const other = (await create(key, { name: 'short-lived' })).json() as { id: string; key: string };
      expect(await canList(other.key)).toBe(200);
      expect((await patch(key, other.id, { expiresAt: anHourAgo() })).json().status).toBe('Expired');
      expect(await canList(other.key)).toBe(401);
      expect((await patch(key, other.id, { expiresAt: null })).json().status).toBe('Active');
      expect(await canList(other.key)).toBe(200);
    });

    it('a Revoked key may still be renamed and re-dated, and stays Revoked', async () => {
      const { key } = await ctx.ownerKey();
      const other = (await create(key, { name: 'old' })).json() as { id: string; key: string };
      const { revokedAt } = (await revoke(key, other.id)).json();
      const edited = await patch(key, other.id, { name: 'retired', expiresAt: inOneHour() });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ name: 'retired', status: 'Revoked', revokedAt });
      expect(await canList(other.key)).toBe(401);
    });
  });

  describe('reveal', () => {
    it('returns the very plaintext that create returned, for an Active key only', async () => {
      const { key } = await ctx.ownerKey();
      const created = (await create(key, { name: 'to reveal', expiresAt: inOneHour() })).json() as {
        id: string;
        key: string;
      };
      const revealed = await reveal(key, created.id);
      expect(revealed.statusCode).toBe(200);
      expect(revealed.json()).toMatchObject({ id: created.id, key: created.key, status: 'Active' });
      expect(Object.keys(revealed.json()).sort()).toEqual([...KEY_FIELDS, 'key'].sort());

      await patch(key, created.id, { expiresAt: anHourAgo() });
      const expired = await reveal(key, created.id);
      expect(expired.statusCode).toBe(400);
      expect(expired.json().code).toBe('BAD_REQUEST');
      expect(expired.body).not.toContain(created.key);

      await patch(key, created.id, { expiresAt: null });
      await revoke(key, created.id);
      const revoked = await reveal(key, created.id);
      expect(revoked.statusCode).toBe(400);
      expect(revoked.body).not.toContain(created.key);
    });

    it('a ciphertext copied onto another key row does not decrypt: never a 200 with the wrong key', async () => {
      const { workspace, key, keyId } = await ctx.ownerKey();
      const victim = await ctx.createKey(workspace, workspace.owner, { name: 'victim' });
      const { db } = ctx.runtime.database;
      const source = await db
        .selectFrom('api_keys')
        .select('key_encrypted')
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('api_keys')
        .set({ key_encrypted: source.key_encrypted })
        .where('id', '=', victim.id)
        .execute();

      const logsBefore = ctx.logs.length;
      const response = await reveal(key, victim.id);
      // The row is corrupt, not the request: a 500 (never a 4xx the client could "fix"), with nothing in it.
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: 'INTERNAL', message: expect.any(String), details: null });
      expect(response.body).not.toContain(key);
      expect(response.body).not.toContain(victim.key);
      expect(response.body).not.toMatch(/\bat .+:\d+|stack|decrypt|authenticate data/i);
      const logged = JSON.stringify(ctx.logs.slice(logsBefore));
      expect(logged).toContain(response.headers['x-request-id']);
      expect(logged).not.toContain(key);
      expect(logged).not.toContain(victim.key);

      expect((await reveal(key, keyId)).json().key).toBe(key);
    });

    it('the cipher binds the ciphertext to its key id, its workspace and the master key', () => {
      const master = ctx.runtime.masterKey;
      const [id, otherId, ws, otherWs] = [
        crypto.randomUUID(),
        crypto.randomUUID(),
        crypto.randomUUID(),
        crypto.randomUUID(),
      ];
      const plaintext = 'quire_live_0123456789abcdefghijABCDEFGHIJxyzXYZ';
      const sealed = encryptKey(master, plaintext, id, ws);
      expect(sealed).not.toContain(plaintext.slice(11));
      expect(encryptKey(master, plaintext, id, ws)).not.toBe(sealed);
      expect(decryptKey(master, sealed, id, ws)).toBe(plaintext);
      expect(() => decryptKey(master, sealed, otherId, ws)).toThrow();
      expect(() => decryptKey(master, sealed, id, otherWs)).toThrow();
      expect(() => decryptKey(masterKeyFrom(crypto.randomBytes(32)), sealed, id, ws)).toThrow();
      const flipped = Buffer.from(sealed, 'base64');
      flipped[14] = flipped[14]! ^ 1;
      expect(() => decryptKey(master, flipped.toString('base64'), id, ws)).toThrow();
    });
  });

  describe('revoke', () => {
    it('is idempotent and shuts the key out from the next request', async () => {
      const { key } = await ctx.ownerKey();
      const other = (await create(key, { name: 'to revoke' })).json() as { id: string; key: string };
      const first = await revoke(key, other.id);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ id: other.id, status: 'Revoked', revokedAt: expect.stringMatching(ISO) });
      expect(first.json()).not.toHaveProperty('key');
      expect(await canList(other.key)).toBe(401);
      // A later clock, so a second revoke that stamped a new time would show.
      await sleep(5);
      const second = await revoke(key, other.id);
      expect(second.statusCode).toBe(200);
      expect(second.json().revokedAt).toBe(first.json().revokedAt);
    });

    it('a key may revoke itself: that request succeeds, the next one is a 401', async () => {
      const { key, keyId } = await ctx.ownerKey();
      expect((await revoke(key, keyId)).statusCode).toBe(200);
      expect(await canList(key)).toBe(401);
    });
  });

  describe('permissions', () => {
    const FORBIDDEN = { code: 'FORBIDDEN', message: expect.any(String), details: null };

    it('api-keys:read opens the list only; api-keys:write opens the rest but not the list', async () => {
      const { workspace, key: ownerKey, keyId: ownerKeyId } = await ctx.ownerKey();
      const reader = await ctx.memberKey(['api-keys:read'], workspace);
      expect(await canList(reader.key)).toBe(200);
      for (const response of [
        await create(reader.key, { name: 'x' }),
        await patch(reader.key, reader.keyId, { name: 'x' }),
        await reveal(reader.key, reader.keyId),
        await revoke(reader.key, ownerKeyId),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(FORBIDDEN);
      }
      const writer = await ctx.memberKey(['api-keys:write', 'posts:read'], workspace);
      expect(await canList(writer.key)).toBe(403);
      expect((await create(writer.key, { name: 'writer made' })).statusCode).toBe(201);
      expect(await canList(ownerKey)).toBe(200);
    });

    it("a member reveals and edits only their own keys; the owner reveals and edits anyone's", async () => {
      const { workspace, key: ownerKey, keyId: ownerKeyId } = await ctx.ownerKey();
      const alice = await ctx.memberKey(['api-keys:write'], workspace);
      const bob = await ctx.memberKey(['api-keys:write', 'api-keys:read'], workspace);

      expect((await reveal(alice.key, alice.keyId)).json().key).toBe(alice.key);
      expect((await patch(alice.key, alice.keyId, { name: 'alice renamed' })).statusCode).toBe(200);
      for (const target of [ownerKeyId, bob.keyId]) {
        const revealed = await reveal(alice.key, target);
        expect(revealed.statusCode).toBe(403);
        expect(revealed.json()).toEqual(FORBIDDEN);
        expect(revealed.body).not.toMatch(/quire_live_/);
        expect((await patch(alice.key, target, { name: 'hijacked' })).statusCode).toBe(403);
      }
      const names = (await list(ownerKey)).json().data.map((k: Json) => k.name);
      expect(names).not.toContain('hijacked');

      expect((await reveal(ownerKey, bob.keyId)).json().key).toBe(bob.key);
      expect((await patch(ownerKey, bob.keyId, { name: 'set by owner' })).json().name).toBe('set by owner');
    });

    it("any member with api-keys:write may revoke any key, the owner's included", async () => {
      const { workspace, key: ownerKey, keyId: ownerKeyId } = await ctx.ownerKey();
      const member = await ctx.memberKey(['api-keys:write'], workspace);
      const other = await ctx.memberKey(['api-keys:read'], workspace);
      expect((await revoke(member.key, other.keyId)).json().status).toBe('Revoked');
      expect((await revoke(member.key, ownerKeyId)).json().status).toBe('Revoked');
      expect(await canList(ownerKey)).toBe(401);
      expect(await canList(other.key)).toBe(401);
    });
  });

  describe('ids', () => {
    it("another workspace's key is a 404 on every route, and stays untouched", async () => {
      const mine = await ctx.ownerKey();
      const theirs = await ctx.ownerKey();
      for (const response of [
        await patch(mine.key, theirs.keyId, { name: 'taken' }),
        await reveal(mine.key, theirs.keyId),
        await revoke(mine.key, theirs.keyId),
        await reveal(mine.key, NO_SUCH_ID),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String), details: null });
      }
      expect((await list(theirs.key)).json().data[0]).toMatchObject({
        id: theirs.keyId,
        name: 'test key',
        status: 'Active',
      });
    });

    it('a non-uuid id is a 400 on /id, checked before the lookup', async () => {
      const { key, workspace } = await ctx.ownerKey();
      for (const response of [
        await reveal(key, 'not-a-uuid'),
        await revoke(key, '123'),
        await patch(key, workspace.slug, { name: 'x' }),
      ]) {
        expectIssue(response, '/id');
      }
    });
  });

  it('every api-keys response, error or not, says Cache-Control: no-store', async () => {
    const { workspace, key, keyId } = await ctx.ownerKey();
    const member = await ctx.memberKey(['api-keys:read'], workspace);
    const created = await create(key, { name: 'cached?' });
    const responses = [
      await list(key),
      created,
      await patch(key, keyId, { name: 'renamed' }),
      await reveal(key, keyId),
      await revoke(key, created.json().id),
      await create(key, {}),
      await create(member.key, { name: 'x' }),
      await reveal(key, NO_SUCH_ID),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 201, 200, 200, 200, 400, 403, 404]);
    for (const response of responses) expect(response.headers['cache-control']).toBe('no-store');
  });
});
