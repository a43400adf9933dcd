import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../src/app.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { DASHBOARD, signIn, userWithPassword } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';

type Response = Awaited<ReturnType<TestContext['app']['inject']>>;
type Envelope = { code: string; message: string; details: Record<string, unknown> | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const KEYS = `${EXTERNAL}/api-keys`;
// A JSON body one byte over the limit.
const OVERSIZED = `{"name":"${'a'.repeat(JSON_BODY_LIMIT - '{"name":""}'.length + 1)}"}`;
// What must never leak from a 500: a stack frame, a file path, or SQL.
const LEAKS = /\n\s+at |\.ts:\d+|node_modules|select |from "|memberships|sqlite|relation|driver/i;

/** The one error shape of the specification: exactly code, message and details, as JSON. */
function expectEnvelope(response: Response, status: number, code: string): Envelope {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as Envelope;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message']);
  expect(body.code).toBe(code);
  expect(body.message).toEqual(expect.any(String));
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

function expectReason(response: Response, reason: string): void {
  expect(expectEnvelope(response, 400, 'BAD_REQUEST').details).toEqual({ reason });
}

function expectInternal(response: Response): void {
  expect(expectEnvelope(response, 500, 'INTERNAL').details).toBeNull();
  expect(response.body).not.toMatch(LEAKS);
  expect(response.headers['x-request-id']).toMatch(UUID);
}

describeEachDialect('errors, request ids, logs and health', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const send = (
    method: string,
    url: string,
    options: { key?: string; headers?: Record<string, string>; payload?: string | object } = {},
  ) =>
    ctx.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(options.key === undefined ? {} : { 'x-api-key': options.key }), ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
  const json = { 'content-type': 'application/json' };

  describe('every error is the envelope; details is null when there is nothing to add', () => {
    it('401, 403 and 404 carry details: null', async () => {
      const { key: ownerKey } = await ctx.ownerKey();
      const { key: noRights } = await ctx.memberKey([]);
      expect(expectEnvelope(await send('GET', KEYS), 401, 'UNAUTHORIZED').details).toBeNull();
      expect(expectEnvelope(await send('GET', KEYS, { key: noRights }), 403, 'FORBIDDEN').details).toBeNull();
      expect(
        expectEnvelope(await send('GET', `${EXTERNAL}/nothing`, { key: ownerKey }), 404, 'NOT_FOUND').details,
      ).toBeNull();
      expect(
        expectEnvelope(await send('POST', `${KEYS}/${NO_SUCH_ID}/reveal`, { key: ownerKey }), 404, 'NOT_FOUND').details,
      ).toBeNull();
    });

    it('validation errors list issues with JSON Pointer paths', async () => {
      const { key } = await ctx.ownerKey();
      const body = expectEnvelope(
        await send('POST', KEYS, { key, payload: { name: 'x', extra: true } }),
        400,
        'BAD_REQUEST',
      );
      expect(body.details).toEqual({
        issues: [expect.objectContaining({ path: '/extra', message: expect.stringContaining('extra') })],
      });
      const query = expectEnvelope(await send('GET', `${KEYS}?pageSize=1000`, { key }), 400, 'BAD_REQUEST');
      expect(query.details).toEqual({ issues: [expect.objectContaining({ path: '/pageSize' })] });
      const notAnObject = expectEnvelope(
        await send('POST', KEYS, { key, headers: json, payload: '[]' }),
        400,
        'BAD_REQUEST',
      );
      expect(notAnObject.details).toHaveProperty('issues');
    });

    it('a GET of an unknown route outside /api is a 404 envelope, no key needed; a wrong method there is a 405', async () => {
      expect(expectEnvelope(await send('GET', '/nothing'), 404, 'NOT_FOUND').details).toBeNull();
      expectEnvelope(await send('GET', '/api/v2/external/posts'), 404, 'NOT_FOUND');
      const wrongMethod = await send('POST', '/healthz');
      expectEnvelope(wrongMethod, 405, 'METHOD_NOT_ALLOWED');
      expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    });

    it('a URL that cannot be decoded is a 400 envelope with a request id', async () => {
      const response = await send('GET', '/%E0%A4%A');
      expectReason(response, 'bad_url');
      expect(response.headers['x-request-id']).toMatch(UUID);
    });
  });

  describe('order of checks: key, route, permission, validation, lookup', () => {
    it('no key is a 401 whatever else is wrong: unknown path, wrong method, bad body', async () => {
      for (const response of [
        await send('GET', `${EXTERNAL}/nothing`),
        await send('DELETE', KEYS),
        await send('POST', KEYS, { headers: json, payload: '{"name":' }),
        await send('POST', KEYS, { headers: { 'content-type': 'text/plain' }, payload: 'hi' }),
        await send('POST', `${KEYS}/not-a-uuid/reveal`),
      ]) {
        expect(expectEnvelope(response, 401, 'UNAUTHORIZED').details).toBeNull();
        expect(response.headers.allow).toBeUndefined();
      }
    });

    it('with a valid key: an unknown path is a 404 and a known path with the wrong method a 405 with Allow, before any permission', async () => {
      const { key: noRights } = await ctx.memberKey([]);
      expectEnvelope(await send('GET', `${EXTERNAL}/nothing`, { key: noRights }), 404, 'NOT_FOUND');
      const cases: Array<[string, string, string]> = [
        ['DELETE', KEYS, 'GET, HEAD, POST'],
        ['PUT', `${KEYS}/${NO_SUCH_ID}`, 'PATCH'],
        ['GET', `${KEYS}/${NO_SUCH_ID}/reveal`, 'POST'],
        ['DELETE', `${KEYS}/${NO_SUCH_ID}/revoke`, 'POST'],
      ];
      for (const [method, url, allow] of cases) {
        const response = await send(method, url, { key: noRights });
        expect(expectEnvelope(response, 405, 'METHOD_NOT_ALLOWED').details).toEqual({ allow: allow.split(', ') });
        expect(response.headers.allow).toBe(allow);
      }
    });

    it('the route comes before the body: a malformed or oversized body to no route is a 404, to a wrong method a 405', async () => {
      const { key: noRights } = await ctx.memberKey([]);
      for (const payload of ['{"name":', OVERSIZED]) {
        expectEnvelope(
          await send('POST', `${EXTERNAL}/nothing`, { key: noRights, headers: json, payload }),
          404,
          'NOT_FOUND',
        );
        const wrongMethod = await send('PUT', KEYS, { key: noRights, headers: json, payload });
        expectEnvelope(wrongMethod, 405, 'METHOD_NOT_ALLOWED');
        expect(wrongMethod.headers.allow).toBe('GET, HEAD, POST');
        expectEnvelope(await send('PUT', KEYS, { headers: json, payload }), 401, 'UNAUTHORIZED');
      }
    });

    it('outside the external API too (root, /docs, a signed-in dashboard): the route comes before the body', async () => {
      const browser = await signIn(ctx, await userWithPassword(ctx));
      const signedIn = { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken };
      const cases: Array<[string, string, Record<string, string>, string | null]> = [
        ['POST', '/nothing', {}, null],
        ['POST', '/healthz', {}, 'GET, HEAD'],
        ['PUT', '/docs/openapi.json', {}, 'GET, HEAD'],
        ['POST', `${DASHBOARD}/nothing`, signedIn, null],
        ['DELETE', `${DASHBOARD}/setup`, signedIn, 'GET, HEAD, POST'],
      ];
      for (const payload of ['{"name":', OVERSIZED]) {
        for (const [method, url, headers, allow] of cases) {
          const response = await send(method, url, { headers: { ...json, ...headers }, payload });
          if (allow === null) expectEnvelope(response, 404, 'NOT_FOUND');
          else
            expect(expectEnvelope(response, 405, 'METHOD_NOT_ALLOWED').details).toEqual({ allow: allow.split(', ') });
        }
      }
    });

    it('a key without the permission gets 403 even when the request is also invalid', async () => {
      const { key: readOnly } = await ctx.memberKey(['api-keys:read']);
      const { key: writeOnly } = await ctx.memberKey(['api-keys:write']);
      for (const response of [
        await send('POST', KEYS, { key: readOnly, payload: { bogus: 1 } }),
        await send('POST', KEYS, { key: readOnly, headers: json, payload: '{"name":' }),
        await send('POST', KEYS, { key: readOnly, headers: { 'content-type': 'text/plain' }, payload: 'name' }),
        await send('PATCH', `${KEYS}/not-a-uuid`, { key: readOnly, payload: { name: 'x' } }),
        await send('GET', `${KEYS}?pageSize=0&bogus=1`, { key: writeOnly }),
      ]) {
        expect(expectEnvelope(response, 403, 'FORBIDDEN').details).toBeNull();
      }
    });

    it('validation comes before the lookup: an invalid body for a missing key is a 400, a valid one a 404', async () => {
      const { key } = await ctx.ownerKey();
      expectEnvelope(await send('PATCH', `${KEYS}/${NO_SUCH_ID}`, { key, payload: { name: '' } }), 400, 'BAD_REQUEST');
      expectEnvelope(
        await send('PATCH', `${KEYS}/${NO_SUCH_ID}`, { key, payload: { name: 'fine' } }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('request bodies', () => {
    it('malformed JSON is a 400 with reason malformed_json', async () => {
      const { key } = await ctx.ownerKey();
      for (const payload of ['{"name":', '{name: "x"}', "{'name':'x'}", '{"name":"x"}}']) {
        expectReason(await send('POST', KEYS, { key, headers: json, payload }), 'malformed_json');
      }
    });

    it('a body over 16 MiB is a 400 with reason too_large; one just under the limit is read and validated', async () => {
      const { key } = await ctx.ownerKey();
      const wrapper = '{"name":""}'.length;
      const over = `{"name":"${'a'.repeat(JSON_BODY_LIMIT - wrapper + 1)}"}`;
      expect(Buffer.byteLength(over)).toBe(JSON_BODY_LIMIT + 1);
      expectReason(await send('POST', KEYS, { key, headers: json, payload: over }), 'too_large');
      const under = `{"name":"${'a'.repeat(JSON_BODY_LIMIT - wrapper)}"}`;
      const response = await send('POST', KEYS, { key, headers: json, payload: under });
      expect(expectEnvelope(response, 400, 'BAD_REQUEST').details).toEqual({
        issues: [expect.objectContaining({ path: '/name' })],
      });
    });

    it('a body that is not application/json, or has no content type at all, is a 400 unsupported_media_type', async () => {
      const { key } = await ctx.ownerKey();
      const body = '{"name":"x"}';
      expectReason(
        await send('POST', KEYS, { key, headers: { 'content-type': 'text/plain' }, payload: body }),
        'unsupported_media_type',
      );
      expectReason(
        await send('POST', KEYS, { key, headers: { 'content-type': 'application/xml' }, payload: '<name>x</name>' }),
        'unsupported_media_type',
      );
      expectReason(await send('POST', KEYS, { key, payload: body }), 'unsupported_media_type');
      expect((await send('GET', KEYS, { key })).json().total).toBe(1);
      const accepted = await send('POST', KEYS, {
        key,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: body,
      });
      expect(accepted.statusCode).toBe(201);
    });
  });

  describe('X-Request-Id', () => {
    it('is on every response, a fresh UUID each time when none was sent', async () => {
      const { key } = await ctx.ownerKey();
      const responses = [
        await send('GET', '/healthz'),
        await send('GET', KEYS, { key }),
        await send('GET', KEYS),
        await send('GET', `${EXTERNAL}/nothing`, { key }),
        await send('DELETE', KEYS, { key }),
        await send('GET', `${KEYS}?page=0`, { key }),
        await send('GET', '/nothing'),
      ];
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 401, 404, 405, 400, 404]);
      const ids = responses.map((r) => r.headers['x-request-id']);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('keeps a sane incoming id, replaces anything else, and tags that request’s log lines with it', async () => {
      const { key } = await ctx.ownerKey();
      for (const incoming of ['trace-1.2:abc_XYZ', 'a'.repeat(128)]) {
        for (const response of [
          await send('GET', KEYS, { key, headers: { 'x-request-id': incoming } }),
          await send('GET', KEYS, { headers: { 'x-request-id': incoming } }),
        ]) {
          expect(response.headers['x-request-id']).toBe(incoming);
        }
        const lines = ctx.logs.filter((line) => line.reqId === incoming);
        expect(lines.map((line) => line.msg)).toEqual(['request completed', 'request completed']);
        expect(
          lines.map((line) => (line.res as { statusCode?: number } | undefined)?.statusCode).filter(Boolean),
        ).toEqual([200, 401]);
      }
      for (const insane of ['a'.repeat(129), 'has space', 'semi;colon', '<script>', 'new\\nline']) {
        const response = await send('GET', KEYS, { key, headers: { 'x-request-id': insane } });
        expect(response.headers['x-request-id']).toMatch(UUID);
      }
    });
  });

  describe('secrets never reach a log line', () => {
    it('neither a key (in the header, the query string or encoded there), nor a revealed key, nor the master key', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const other = await ctx.createKey(workspace, workspace.owner, { name: 'second' });
      const before = ctx.logs.length;
      const requests = [
        () => send('GET', KEYS, { key }),
        () => send('GET', `${KEYS}?apiKey=${key}`, { key }),
        () => send('GET', `${KEYS}?apiKey=${key}`),
        () => send('GET', `${KEYS}?apiKey=${key.replace(/_/g, '%5F')}`),
        () => send('GET', `${KEYS}?x=${key.replace(/_/g, '%5f')}`),
        () => send('GET', `${EXTERNAL}/${key}`, { key }),
        () => send('POST', `${KEYS}/${other.id}/reveal`, { key }),
        () => send('POST', KEYS, { key, payload: { name: 'fresh' } }),
        () => send('POST', KEYS, { key, headers: json, payload: `{"name":"${other.key}` }),
        () => send('GET', KEYS, { key: `${other.key}x` }),
      ];
      const responses = [];
      for (const request of requests) responses.push(await request());
      expect(responses.map((r) => r.statusCode)).toEqual([200, 400, 401, 401, 401, 404, 200, 201, 400, 401]);
      expect(responses[6]!.json().key).toBe(other.key);
      const fresh = responses[7]!.json().key as string;

      const logged = JSON.stringify(ctx.logs.slice(before));
      // Every request was logged, so the absence below is not for want of log lines.
      expect(ctx.logs.slice(before).filter((line) => line.msg === 'request completed')).toHaveLength(requests.length);
      expect(logged).toContain('[REDACTED]');
      for (const secret of [key, other.key, fresh]) expect(logged).not.toContain(secret.slice('quire_live_'.length));
      expect(logged).not.toContain(ctx.runtime.masterKey.key.toString('base64'));
      expect(logged).not.toContain(ctx.runtime.masterKey.key.toString('hex'));
    });
  });

  describe('health', () => {
    it('/healthz and /readyz answer 200 without a key, and are not rate limited', async () => {
      const healthz = await send('GET', '/healthz');
      expect(healthz.statusCode).toBe(200);
      expect(healthz.json()).toEqual({ status: 'ok', checks: { database: { status: 'up' } } });
      expect(healthz.headers['ratelimit-limit']).toBeUndefined();
      const readyz = await send('GET', '/readyz');
      expect(readyz.statusCode).toBe(200);
      expect(readyz.json()).toEqual({ status: 'ready', checks: { database: { status: 'up' } } });
    });
  });

  describe('429', () => {
    let limited: TestContext;
    beforeAll(async () => {
      limited = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '2' } });
    });
    afterAll(() => limited?.close());

    it('is the envelope, with Retry-After and a request id, and counts refused requests too', async () => {
      const { key } = await limited.ownerKey();
      const codes = [];
      for (let i = 0; i < 3; i += 1) codes.push((await limited.app.inject({ method: 'GET', url: KEYS })).statusCode);
      expect(codes).toEqual([401, 401, 429]);
      const response = await limited.app.inject({ method: 'GET', url: KEYS, headers: { 'x-api-key': key } });
      const body = expectEnvelope(response, 429, 'RATE_LIMITED');
      expect(body.details).toEqual({ retryAfterSeconds: expect.any(Number) });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.headers['ratelimit-remaining']).toBe('0');
      expect(response.headers['x-request-id']).toMatch(UUID);
    });
  });

  if (dialect === 'postgres') {
    it('a server-side kill of idle PostgreSQL connections does not take the process down', async () => {
      const { key } = await ctx.ownerKey();
      const { db } = ctx.runtime.database;
      // Two connections at once, so the pool holds an idle one that a third party can kill.
      await Promise.all([sql`select pg_sleep(0.05)`.execute(db), sql`select pg_sleep(0.05)`.execute(db)]);
      // In the select list, so it only runs for rows the filter kept (never on this very connection).
      const killed = await sql<{ killed: boolean }>`
        select pg_terminate_backend(pid) as killed from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`.execute(db);
      expect(killed.rows.filter((row) => row.killed).length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await send('GET', '/readyz')).statusCode).toBe(200);
      expect((await send('GET', KEYS, { key })).statusCode).toBe(200);
    });
  }

  describe('when the database fails', () => {
    let broken: TestContext;
    let key: string;
    beforeAll(async () => {
      broken = await buildTestApp(dialect);
      key = (await broken.ownerKey()).key;
    });
    afterAll(() => broken?.close());

    it('a failing SQL statement is a 500 INTERNAL envelope: no stack, no SQL, and the log line has the request id', async () => {
      // Other tables' foreign keys name it (notifications): PostgreSQL drops them along only when told.
      const drop = broken.runtime.database.db.schema.dropTable('memberships');
      await (dialect === 'postgres' ? drop.cascade() : drop).execute();
      const before = broken.logs.length;
      const response = await broken.app.inject({ method: 'GET', url: KEYS, headers: { 'x-api-key': key } });
      expectInternal(response);
      const errorLine = broken.logs.slice(before).find((line) => line.level === 50);
      expect(errorLine?.reqId).toBe(response.headers['x-request-id']);
      // The log keeps what the body leaves out.
      expect(JSON.stringify(errorLine)).toContain('memberships');
      expect(JSON.stringify(broken.logs)).not.toContain(key.slice('quire_live_'.length));
    });

    it('a destroyed database: requests get the 500 envelope, /readyz 503, /healthz still 200', async () => {
      await broken.runtime.database.db.destroy();
      const response = await broken.app.inject({
        method: 'GET',
        url: KEYS,
        headers: { 'x-api-key': key, 'x-request-id': 'down-1' },
      });
      expect(expectEnvelope(response, 500, 'INTERNAL').details).toBeNull();
      expect(response.body).not.toMatch(LEAKS);
      expect(response.headers['x-request-id']).toBe('down-1');
      expect(broken.logs.some((line) => line.reqId === 'down-1' && line.level === 50)).toBe(true);
      const readyz = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(readyz.statusCode).toBe(503);
      expect(readyz.headers['x-request-id']).toMatch(UUID);
      expect((await broken.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
});
