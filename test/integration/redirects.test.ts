import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Permission } from '../../src/security/permissions.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Json = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  details: { issues: Json[]; chain?: string[] };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const FIELDS = ['createdAt', 'fromPath', 'id', 'statusCode', 'toPath', 'updatedAt', 'workspaceId'];

describeEachDialect('redirects routes', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const call = (key: string, method: Method, path = '', payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}/redirects${path}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const create = (key: string, payload: Json) => call(key, 'POST', '', payload);
  const patch = (key: string, id: string, payload: Json) => call(key, 'PATCH', `/${id}`, payload);
  const list = (key: string, query = '') => call(key, 'GET', query ? `?${query}` : '');
  const resolve = (key: string, path: string) => call(key, 'GET', `/resolve?path=${encodeURIComponent(path)}`);

  async function created(key: string, fromPath: string, toPath: string, statusCode?: number): Promise<Json> {
    const response = await create(key, { fromPath, toPath, ...(statusCode === undefined ? {} : { statusCode }) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  /** Every issue points at `pointer` (a union can report one per branch), and one says `message`. */
  function expectPointers(issues: Json[], pointer: string, message?: RegExp): void {
    expect(issues.length).toBeGreaterThan(0);
    expect([...new Set(issues.map((issue) => issue.path))]).toEqual([pointer]);
    if (message) expect(issues.map((issue) => issue.message)).toContainEqual(expect.stringMatching(message));
  }

  function expectIssue(response: LightMyRequestResponse, pointer: string, message?: RegExp): ErrorBody {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<ErrorBody>();
    expect(body.code).toBe('BAD_REQUEST');
    expectPointers(body.details.issues, pointer, message);
    return body;
  }

  describe('create, read, update, delete', () => {
    it('creates with statusCode 301 by default and answers every field', async () => {
      const { key, workspace } = await ctx.ownerKey();
      const response = await create(key, { fromPath: 'old-page/', toPath: '/new-page' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(FIELDS);
      expect(body).toMatchObject({
        workspaceId: workspace.id,
        fromPath: '/old-page',
        toPath: '/new-page',
        statusCode: 301,
      });
      expect(body.createdAt).toMatch(ISO);
      expect(body.updatedAt).toBe(body.createdAt);
      expect((await call(key, 'GET', `/${body.id}`)).json()).toEqual(body);
      expect((await call(key, 'GET', `/${body.id.toUpperCase()}`)).json()).toEqual(body);
    });

    it('accepts each of 301, 302, 307 and 308, and an absolute http(s) URL or a path with query and fragment as target', async () => {
      const { key } = await ctx.ownerKey();
      for (const statusCode of [301, 302, 307, 308])
        expect((await created(key, `/s${statusCode}`, '/x', statusCode)).statusCode).toBe(statusCode);
      expect((await created(key, '/elsewhere', 'HTTPS://Example.COM/a b')).toPath).toBe('https://example.com/a%20b');
      expect((await created(key, '/docs', '/manual/?v=2#install')).toPath).toBe('/manual?v=2#install');
    });

    it('patches any of the three fields and leaves the others alone', async () => {
      const { key } = await ctx.ownerKey();
      const redirect = await created(key, '/p', '/q');
      const status = await patch(key, redirect.id as string, { statusCode: 308 });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toMatchObject({
        id: redirect.id,
        fromPath: '/p',
        toPath: '/q',
        statusCode: 308,
        createdAt: redirect.createdAt,
      });
      expect(status.json().updatedAt >= (redirect.createdAt as string)).toBe(true);
      const moved = (await patch(key, redirect.id as string, { fromPath: 'p2/', toPath: 'q2' })).json();
      expect(moved).toMatchObject({ fromPath: '/p2', toPath: '/q2', statusCode: 308 });
      expect((await call(key, 'GET', `/${redirect.id}`)).json()).toEqual(moved);
    });

    it('deletes, answering the redirect as it was; the row is gone and its fromPath free again', async () => {
      const { key } = await ctx.ownerKey();
      const redirect = await created(key, '/gone', '/here');
      const response = await call(key, 'DELETE', `/${redirect.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(redirect);
      expect((await call(key, 'GET', `/${redirect.id}`)).statusCode).toBe(404);
      expect((await call(key, 'DELETE', `/${redirect.id}`)).statusCode).toBe(404);
      expect((await resolve(key, '/gone')).statusCode).toBe(404);
      await created(key, '/gone', '/there');
    });

    it('answers 404 for an absent id and for a redirect of another workspace, and leaves the other one untouched', async () => {
      const { key } = await ctx.ownerKey();
      const other = await ctx.ownerKey();
      const theirs = await created(other.key, '/theirs', '/x');
      for (const id of [NO_SUCH_ID, theirs.id as string]) {
        for (const response of [
          await call(key, 'GET', `/${id}`),
          await patch(key, id, { statusCode: 302 }),
          await call(key, 'DELETE', `/${id}`),
        ]) {
          expect(response.statusCode).toBe(404);
          expect(response.json()).toMatchObject({ code: 'NOT_FOUND', details: null });
        }
      }
      expect((await call(other.key, 'GET', `/${theirs.id}`)).json()).toEqual(theirs);
    });

    it('refuses an id that is no UUID', async () => {
      const { key } = await ctx.ownerKey();
      expect((await call(key, 'GET', '/not-a-uuid')).json().details.issues).toEqual([
        expect.objectContaining({ path: '/id', in: 'params' }),
      ]);
      expect((await patch(key, 'resolve', { statusCode: 302 })).statusCode).toBe(400);
    });
  });

  describe('validation', () => {
    it('refuses a missing, unknown or read-only field by name', async () => {
      const { key } = await ctx.ownerKey();
      expectIssue(await create(key, { fromPath: '/a' }), '/toPath', /toPath is required/);
      expectIssue(await create(key, { toPath: '/a' }), '/fromPath', /fromPath is required/);
      expectIssue(await create(key, { fromPath: '/a', toPath: '/b', target: '/c' }), '/target', /not a known field/);
      for (const field of ['id', 'workspaceId', 'createdAt', 'updatedAt']) {
        expectIssue(await create(key, { fromPath: '/a', toPath: '/b', [field]: NO_SUCH_ID }), `/${field}`, /read-only/);
      }
      const redirect = await created(key, '/a', '/b');
      expectIssue(await patch(key, redirect.id as string, { id: NO_SUCH_ID }), '/id', /read-only/);
      expectIssue(await patch(key, redirect.id as string, {}), '', /at least one field/);
      expect((await list(key)).json().total).toBe(1);
    });

    it('refuses a status code other than 301, 302, 307 and 308, and values of the wrong type', async () => {
      const { key } = await ctx.ownerKey();
      for (const statusCode of [300, 303, 404, '301', null])
        expectIssue(await create(key, { fromPath: '/a', toPath: '/b', statusCode }), '/statusCode');
      expectIssue(await create(key, { fromPath: 7, toPath: '/b' }), '/fromPath');
      expectIssue(await create(key, { fromPath: '', toPath: '/b' }), '/fromPath');
      expectIssue(await create(key, { fromPath: '/a', toPath: `/${'x'.repeat(2000)}` }), '/toPath');
    });

    it('refuses a fromPath that is no plain path', async () => {
      const { key } = await ctx.ownerKey();
      for (const fromPath of ['/a?x=1', '/a#top', 'https://example.com/a', '/a/../b', '/a%zz', '/a\nb']) {
        expectIssue(await create(key, { fromPath, toPath: '/b' }), '/fromPath', /^fromPath /);
      }
    });

    it('refuses a target that is neither a path nor an http(s) URL, or that carries credentials', async () => {
      const { key } = await ctx.ownerKey();
      for (const toPath of [
        'javascript:alert(1)',
        'data:text/html,hi',
        'ftp://example.com/',
        'https://trusted.example@evil.example/',
        '/a\r\nSet-Cookie: x=1',
      ]) {
        expectIssue(await create(key, { fromPath: '/a', toPath }), '/toPath', /^toPath /);
      }
      expect((await list(key)).json().total).toBe(0);
    });

    it('refuses fromPath equal to toPath after normalisation, on create and on patch', async () => {
      const { key } = await ctx.ownerKey();
      for (const [fromPath, toPath] of [
        ['/a', '/a'],
        ['a', '/a/'],
        ['/a', '/a?ref=old'],
        ['/', '//'],
      ]) {
        expectIssue(await create(key, { fromPath, toPath }), '/toPath');
      }
      const redirect = await created(key, '/a', '/b');
      expectIssue(await patch(key, redirect.id as string, { toPath: 'a/' }), '/toPath');
      expectIssue(await patch(key, redirect.id as string, { fromPath: '/b/' }), '/fromPath');
      expect((await call(key, 'GET', `/${redirect.id}`)).json()).toEqual(redirect);
    });
  });

  describe('normalisation and conflicts', () => {
    it('stores one canonical form: /a/, a and /a are the same path; case is kept; escapes are normalised', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/a', '/x');
      for (const fromPath of ['/a/', 'a', 'a/', '//a//']) {
        const response = await create(key, { fromPath, toPath: '/y' });
        expect(response.statusCode, fromPath).toBe(409);
        expect(response.json()).toMatchObject({ code: 'CONFLICT', details: { field: 'fromPath', fromPath: '/a' } });
      }
      expect((await created(key, '/A', '/x')).fromPath).toBe('/A');
      expect((await created(key, '/café', '/x')).fromPath).toBe('/caf%C3%A9');
      expect((await create(key, { fromPath: '/caf%c3%a9/', toPath: '/y' })).statusCode).toBe(409);
      expect((await created(key, '/', '/home')).fromPath).toBe('/');
    });

    it('refuses a patch onto a fromPath another redirect holds, and allows writing its own fromPath again', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/taken', '/x');
      const mine = await created(key, '/mine', '/x');
      const response = await patch(key, mine.id as string, { fromPath: 'taken/' });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('CONFLICT');
      expect((await patch(key, mine.id as string, { fromPath: '/mine/', statusCode: 302 })).statusCode).toBe(200);
    });

    it('concurrent creates of one fromPath: exactly one 201, every other a 409, never a 500', async () => {
      const { key } = await ctx.ownerKey();
      const spellings = ['/race', 'race', '/race/', 'race/', '//race'];
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          create(key, { fromPath: spellings[i % spellings.length], toPath: `/t${i}` }),
        ),
      );
      const codes = responses.map((response) => response.statusCode);
      expect(codes.filter((code) => code === 201)).toHaveLength(1);
      expect(codes.filter((code) => code === 409)).toHaveLength(19);
      expect((await list(key)).json().total).toBe(1);
    });
  });

  describe('loops', () => {
    it('refuses a create that closes a loop, naming the chain', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/a', '/b');
      await created(key, '/b', '/c');
      const body = expectIssue(await create(key, { fromPath: 'c/', toPath: '/a?from=c' }), '/toPath', /loop/);
      expect(body.details.chain).toEqual(['/c', '/a', '/b', '/c']);
      expect(body.message).toContain('/c → /a → /b → /c');
      expect((await list(key)).json().total).toBe(2);
      // Joining the chain without closing it is fine.
      await created(key, '/b2', '/a');
    });

    it('refuses the two-step loop', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/m', '/n');
      expect(expectIssue(await create(key, { fromPath: '/n', toPath: '/m' }), '/toPath').details).toMatchObject({
        chain: ['/n', '/m', '/n'],
      });
    });

    it('refuses a patch of toPath or of fromPath that closes a loop, and keeps the row as it was', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/x1', '/x2');
      await created(key, '/x2', '/x3');
      const last = await created(key, '/x3', '/elsewhere');
      const byTarget = expectIssue(await patch(key, last.id as string, { toPath: '/x1' }), '/toPath', /loop/);
      expect(byTarget.details.chain).toEqual(['/x3', '/x1', '/x2', '/x3']);

      const tail = await created(key, '/z', '/x1');
      const bySource = expectIssue(await patch(key, tail.id as string, { fromPath: '/x3' }), '/fromPath', /loop/);
      expect(bySource.details.chain).toEqual(['/x3', '/x1', '/x2', '/x3']);
      expect((await call(key, 'GET', `/${last.id}`)).json()).toEqual(last);
      expect((await call(key, 'GET', `/${tail.id}`)).json()).toEqual(tail);
    });

    it('two concurrent creates cannot close a loop between them: one of each pair is refused', async () => {
      const { key } = await ctx.ownerKey();
      const pairs = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          Promise.all([
            create(key, { fromPath: `/c${i}a`, toPath: `/c${i}b` }),
            create(key, { fromPath: `/c${i}b`, toPath: `/c${i}a` }),
          ]),
        ),
      );
      for (const pair of pairs) expect(pair.map((response) => response.statusCode).sort()).toEqual([201, 400]);
      expect((await list(key)).json().total).toBe(10);
    });

    it('judges a patch against the chain as it will be, not as it was', async () => {
      const { key } = await ctx.ownerKey();
      // Reversed in place: s2 → s1 would loop with the old s1 → s2, which this very patch replaces.
      const single = await created(key, '/s1', '/s2');
      const reversed = await patch(key, single.id as string, { fromPath: '/s2', toPath: '/s1' });
      expect(reversed.statusCode, reversed.body).toBe(200);
      const head = await created(key, '/r1', '/s2');
      expect((await patch(key, head.id as string, { statusCode: 307, toPath: '/s2/' })).statusCode).toBe(200);
      expect((await resolve(key, '/r1')).json()).toMatchObject({ finalPath: '/s1', hops: 2, statusCode: 307 });
    });
  });

  describe('resolve', () => {
    it('follows a three-hop chain to its final target', async () => {
      const { key } = await ctx.ownerKey();
      const first = await created(key, '/h1', '/h2', 302);
      await created(key, '/h2', '/h3');
      await created(key, '/h3', '/h4');
      const response = await resolve(key, '/h1');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...first, finalPath: '/h4', hops: 3 });
      expect((await resolve(key, 'h2/')).json()).toMatchObject({ fromPath: '/h2', finalPath: '/h4', hops: 2 });
      expect((await resolve(key, '/h3?utm_source=x#top')).json()).toMatchObject({
        fromPath: '/h3',
        finalPath: '/h4',
        hops: 1,
      });
    });

    it('stops at an absolute URL, and matches a target with a query string by its path', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/u1', '/u2?x=1');
      await created(key, '/u2', 'https://example.com/landing');
      await created(key, '/example.com/landing', '/never');
      expect((await resolve(key, '/u1')).json()).toMatchObject({ finalPath: 'https://example.com/landing', hops: 2 });
    });

    it('answers 404 when no redirect matches, and never follows or matches another workspace', async () => {
      const { key } = await ctx.ownerKey();
      const other = await ctx.ownerKey();
      await created(key, '/w1', '/w2');
      await created(other.key, '/w2', '/w3');
      await created(other.key, '/only-theirs', '/w3');
      expect((await resolve(key, '/w1')).json()).toMatchObject({ finalPath: '/w2', hops: 1 });
      const missing = await resolve(key, '/only-theirs');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'NOT_FOUND', details: null });
    });

    it('refuses a missing or unusable path', async () => {
      const { key } = await ctx.ownerKey();
      expect((await call(key, 'GET', '/resolve')).json().details.issues).toEqual([
        expect.objectContaining({ in: 'query', path: '/path' }),
      ]);
      expect((await resolve(key, '/a/../b')).json().details.issues).toEqual([
        expect.objectContaining({ in: 'query', path: '/path' }),
      ]);
    });
  });

  describe('permissions', () => {
    const routes = (id: string): Array<{ method: Method; path: string; payload?: Json; needs: Permission }> => [
      { method: 'GET', path: '', needs: 'redirects:read' },
      { method: 'GET', path: `/${id}`, needs: 'redirects:read' },
      { method: 'GET', path: '/resolve?path=/a', needs: 'redirects:read' },
      { method: 'POST', path: '', payload: { fromPath: '/new', toPath: '/b' }, needs: 'redirects:write' },
      { method: 'PATCH', path: `/${id}`, payload: { statusCode: 302 }, needs: 'redirects:write' },
      { method: 'DELETE', path: `/${id}`, needs: 'redirects:write' },
    ];

    it('each route needs exactly its permission: write does not imply read, nor read write', async () => {
      for (const held of [
        ['redirects:read'],
        ['redirects:write'],
        ['posts:read', 'posts:write', 'link-health:read'],
      ] as Permission[][]) {
        const owner = await ctx.ownerKey();
        const { key } = await ctx.memberKey(held, owner.workspace);
        const redirect = await created(owner.key, '/a', '/b');
        for (const route of routes(redirect.id as string)) {
          const response = await call(key, route.method, route.path, route.payload);
          if (held.includes(route.needs))
            expect(response.statusCode, `${route.method} ${route.path} with ${held}`).toBeLessThan(300);
          else {
            expect(response.statusCode, `${route.method} ${route.path} with ${held}`).toBe(403);
            expect(response.json().code).toBe('FORBIDDEN');
          }
        }
      }
    });
  });

  describe('list', () => {
    it('pages newest first by default, omits orderBy when none was asked for, and shows only the own workspace', async () => {
      const { key } = await ctx.ownerKey();
      const other = await ctx.ownerKey();
      await created(other.key, '/not-mine', '/x');
      const ids: string[] = [];
      for (let i = 0; i < 12; i += 1)
        ids.push((await created(key, `/l${String(i).padStart(2, '0')}`, '/target')).id as string);
      const body = (await list(key)).json();
      expect(body).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 12, totalPages: 2 });
      expect(body).not.toHaveProperty('orderBy');
      expect(body.data).toHaveLength(10);
      expect(body.data.every((r: Json) => r.fromPath !== '/not-mine')).toBe(true);
      expect((await list(key, 'page=3')).json()).toMatchObject({ data: [], page: 3, total: 12, totalPages: 2 });

      const byPath = (await list(key, 'orderBy=fromPath&order=asc&pageSize=5')).json();
      expect(byPath).toMatchObject({ orderBy: 'fromPath', order: 'asc', pageSize: 5, totalPages: 3 });
      expect(byPath.data.map((r: Json) => r.fromPath)).toEqual(['/l00', '/l01', '/l02', '/l03', '/l04']);

      // Rows created in one millisecond tie on createdAt; the id tiebreak keeps a walk free of repeats.
      const seen: string[] = [];
      for (let page = 1; page <= 4; page += 1)
        seen.push(...(await list(key, `orderBy=createdAt&pageSize=4&page=${page}`)).json().data.map((r: Json) => r.id));
      expect(seen.sort()).toEqual([...ids].sort());
      expect((await list(key, 'orderBy=updatedAt')).json()).toMatchObject({ orderBy: 'updatedAt', order: 'desc' });
    });

    it('filters with q over both paths, literally and case-sensitively', async () => {
      const { key } = await ctx.ownerKey();
      await created(key, '/blog/one', '/posts/one');
      await created(key, '/news', '/blog/news');
      await created(key, '/Blog', '/x');
      await created(key, '/100%25-off', '/sale');
      expect((await list(key, 'q=/blog/&orderBy=fromPath&order=asc')).json().data.map((r: Json) => r.fromPath)).toEqual(
        ['/blog/one', '/news'],
      );
      expect((await list(key, `q=${encodeURIComponent('%25')}`)).json().data.map((r: Json) => r.fromPath)).toEqual([
        '/100%25-off',
      ]);
      expect((await list(key, 'q=_')).json().total).toBe(0);
    });

    it('refuses bad pagination, order without orderBy, unknown sort keys and parameters', async () => {
      const { key } = await ctx.ownerKey();
      expect((await list(key, 'pageSize=100')).statusCode).toBe(200);
      for (const [query, pointer] of [
        ['pageSize=101', '/pageSize'],
        ['pageSize=0', '/pageSize'],
        ['page=0', '/page'],
        ['order=asc', '/order'],
        ['orderBy=toPath', '/orderBy'],
        ['orderBy=fromPath&order=up', '/order'],
        ['pagesize=5', '/pagesize'],
      ] as const) {
        const response = await list(key, query);
        expect(response.statusCode, query).toBe(400);
        expectPointers(response.json().details.issues, pointer);
      }
    });
  });
});
