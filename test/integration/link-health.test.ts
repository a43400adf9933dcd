import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Permission } from '../../src/security/permissions.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { createReportBatches, MAX_REPORTS_PER_BATCH } from '../../src/modules/link-health/link-health.batches.js';
import type { LinkHealthReport } from '../../src/modules/link-health/link-health.repository.js';

type Json = Record<string, unknown>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FIELDS = ['firstSeenAt', 'hitCount', 'id', 'lastSeenAt', 'path', 'referrer', 'statusCode', 'workspaceId'];
const CONCURRENT_REPORTS = 200;

describeEachDialect('link-health routes', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // The concurrency suites alone send 400 reports from one address; the default limit would trip.
    ctx = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '100000' } });
  });
  afterAll(() => ctx?.close());

  const report = (key: string, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/link-health`,
      headers: { 'x-api-key': key },
      payload: payload as Json,
    });
  const list = (key: string, query = '') =>
    ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/link-health${query ? `?${query}` : ''}`,
      headers: { 'x-api-key': key },
    });

  async function reported(key: string, payload: Json): Promise<Json> {
    const response = await report(key, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** Every issue points at `pointer` (a union can report one per branch), and one says `message`. */
  function expectIssue(response: LightMyRequestResponse, pointer: string, message?: RegExp): void {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(body.code).toBe('BAD_REQUEST');
    const issues = body.details.issues as Json[];
    expect([...new Set(issues.map((issue) => issue.path))]).toEqual([pointer]);
    if (message) expect(issues.map((issue) => issue.message)).toContainEqual(expect.stringMatching(message));
  }

  describe('reports', () => {
    it('the first report creates the record: hitCount 1, statusCode 404, firstSeenAt = lastSeenAt', async () => {
      const { key, workspace } = await ctx.ownerKey();
      const body = await reported(key, { path: 'missing/page/' });
      expect(Object.keys(body).sort()).toEqual(FIELDS);
      expect(body).toMatchObject({
        workspaceId: workspace.id,
        path: '/missing/page',
        referrer: null,
        statusCode: 404,
        hitCount: 1,
      });
      expect(body.firstSeenAt).toMatch(ISO);
      expect(body.lastSeenAt).toBe(body.firstSeenAt);
    });

    it('a repeat adds exactly 1 to the same record; the latest status and referrer win; firstSeenAt stays', async () => {
      const { key } = await ctx.ownerKey();
      const first = await reported(key, { path: '/a', referrer: 'https://search.example/?q=a', statusCode: 404 });
      const second = await reported(key, { path: 'a/?utm_source=mail#top', statusCode: 410 });
      expect(second).toMatchObject({
        id: first.id,
        path: '/a',
        hitCount: 2,
        statusCode: 410,
        referrer: 'https://search.example/?q=a',
        firstSeenAt: first.firstSeenAt,
      });
      expect((second.lastSeenAt as string) >= (first.lastSeenAt as string)).toBe(true);
      const third = await reported(key, { path: '//a', referrer: '/blog/links' });
      expect(third).toMatchObject({
        id: first.id,
        hitCount: 3,
        statusCode: 404,
        referrer: '/blog/links',
        firstSeenAt: first.firstSeenAt,
      });
      const listed = (await list(key)).json();
      expect(listed.total).toBe(1);
      expect(listed.data[0]).toEqual(third);
    });

    it('keeps case and normalises escapes like redirects: /A and /a are two records, /café and /caf%c3%a9 one', async () => {
      const { key } = await ctx.ownerKey();
      expect((await reported(key, { path: '/A' })).hitCount).toBe(1);
      expect((await reported(key, { path: '/a' })).hitCount).toBe(1);
      expect(await reported(key, { path: '/café' })).toMatchObject({ path: '/caf%C3%A9', hitCount: 1 });
      expect(await reported(key, { path: '/caf%c3%a9/' })).toMatchObject({ path: '/caf%C3%A9', hitCount: 2 });
    });

    it('counts per workspace: the same path in another workspace is another record', async () => {
      const mine = await ctx.ownerKey();
      const theirs = await ctx.ownerKey();
      await reported(mine.key, { path: '/shared' });
      await reported(mine.key, { path: '/shared' });
      expect(await reported(theirs.key, { path: '/shared' })).toMatchObject({
        workspaceId: theirs.workspace.id,
        hitCount: 1,
      });
      expect((await list(mine.key)).json().data).toEqual([
        expect.objectContaining({ path: '/shared', hitCount: 2, workspaceId: mine.workspace.id }),
      ]);
    });
  });

  describe('validation', () => {
    it('refuses a missing, unknown or read-only field by name', async () => {
      const { key } = await ctx.ownerKey();
      expectIssue(await report(key, {}), '/path', /path is required/);
      expectIssue(await report(key, { path: '/a', source: 'x' }), '/source', /not a known field/);
      for (const field of ['id', 'workspaceId', 'hitCount', 'firstSeenAt', 'lastSeenAt']) {
        expectIssue(await report(key, { path: '/a', [field]: 1 }), `/${field}`, new RegExp(`^${field} is read-only`));
      }
      expect((await list(key)).json().total).toBe(0);
    });

    it('refuses a path that is no path', async () => {
      const { key } = await ctx.ownerKey();
      for (const path of ['', 'https://example.com/a', '/a/../b', '/a%zz', '/a\nb', 42, `/${'x'.repeat(2000)}`])
        expectIssue(await report(key, { path }), '/path');
    });

    it('takes a status from 400 to 599 only, and a referrer that is an http(s) URL or a path', async () => {
      const { key } = await ctx.ownerKey();
      for (const statusCode of [200, 301, 399, 600, 404.5, '404'])
        expectIssue(await report(key, { path: '/a', statusCode }), '/statusCode');
      for (const referrer of ['javascript:alert(1)', 'search.example/page', '/a\r\nx', '', 7])
        expectIssue(await report(key, { path: '/a', referrer }), '/referrer');
      expect(await reported(key, { path: '/a', statusCode: 599, referrer: null })).toMatchObject({
        statusCode: 599,
        referrer: null,
      });
      expect(await reported(key, { path: '/a', statusCode: 400 })).toMatchObject({ statusCode: 400, hitCount: 2 });
    });
  });

  describe('exact counts under concurrency', () => {
    it(`${CONCURRENT_REPORTS} concurrent reports of one path leave hitCount = ${CONCURRENT_REPORTS}, each answer a distinct count`, async () => {
      const { key } = await ctx.ownerKey();
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT_REPORTS }, () => report(key, { path: '/hot' })),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(CONCURRENT_REPORTS).fill(200));
      // Each report's answer is its own increment, so the answers are exactly 1 … N in some order.
      const counts = responses.map((response) => response.json().hitCount as number).sort((a, b) => a - b);
      expect(counts).toEqual(Array.from({ length: CONCURRENT_REPORTS }, (_, i) => i + 1));
      expect(new Set(responses.map((response) => response.json().id)).size).toBe(1);
      const listed = (await list(key)).json();
      expect(listed.total).toBe(1);
      expect(listed.data[0]).toMatchObject({ path: '/hot', hitCount: CONCURRENT_REPORTS });
    });

    it(`${CONCURRENT_REPORTS} concurrent reports over five paths, spelt several ways, count exactly per path`, async () => {
      const { key } = await ctx.ownerKey();
      const spellings = (n: number) => [`/p${n}`, `p${n}`, `/p${n}/`, `/p${n}?ref=${n}`];
      const payloads = Array.from({ length: CONCURRENT_REPORTS }, (_, i) => ({ path: spellings(i % 5)[i % 4]! }));
      const responses = await Promise.all(payloads.map((payload) => report(key, payload)));
      expect(responses.every((response) => response.statusCode === 200)).toBe(true);
      const listed = (await list(key, 'orderBy=hitCount&order=asc')).json();
      expect(listed.total).toBe(5);
      expect(Object.fromEntries(listed.data.map((row: Json) => [row.path, row.hitCount]))).toEqual({
        '/p0': 40,
        '/p1': 40,
        '/p2': 40,
        '/p3': 40,
        '/p4': 40,
      });
    });
  });

  describe('batches', () => {
    const at = '2026-11-22T08:00:00.000Z';
    const reportOf = (path: string): LinkHealthReport => ({
      id: crypto.randomUUID(),
      path,
      referrer: null,
      status_code: 404,
      seen_at: at,
    });

    /** Batches over the test's database whose transactions are counted. */
    function countedBatches() {
      const database = ctx.runtime.database;
      const counted = { transactions: 0 };
      const db = new Proxy(database.db, {
        get(target, property) {
          if (property === 'transaction') {
            return () => {
              counted.transactions += 1;
              return target.transaction();
            };
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { batches: createReportBatches({ ...database, db }), counted };
    }

    it('reports that arrive together commit in one transaction, each answered with its own increment', async () => {
      const { workspace } = await ctx.ownerKey();
      const { batches, counted } = countedBatches();
      const rows = await Promise.all(
        Array.from({ length: 50 }, (_, i) => batches.record(workspace.id, reportOf(`/batch/${i % 2}`))),
      );
      expect(counted.transactions).toBe(1);
      for (const path of ['/batch/0', '/batch/1']) {
        expect(
          rows
            .filter((row) => row.path === path)
            .map((row) => row.hit_count)
            .sort((a, b) => a - b),
        ).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      }
    });

    it(`reports arriving while a batch commits form the next batches, of at most ${MAX_REPORTS_PER_BATCH}`, async () => {
      const { workspace } = await ctx.ownerKey();
      const { batches, counted } = countedBatches();
      const first = batches.record(workspace.id, reportOf('/waves'));
      await new Promise((resolve) => setImmediate(resolve));
      const rest = Array.from({ length: MAX_REPORTS_PER_BATCH + 1 }, () =>
        batches.record(workspace.id, reportOf('/waves')),
      );
      const rows = await Promise.all([first, ...rest]);
      expect(counted.transactions).toBe(3);
      expect(Math.max(...rows.map((row) => row.hit_count))).toBe(MAX_REPORTS_PER_BATCH + 2);
    });

    it('a report that fails fails alone: the others of its batch are recorded once each', async () => {
      const { workspace } = await ctx.ownerKey();
      const { batches } = countedBatches();
      const settled = await Promise.allSettled([
        batches.record(workspace.id, reportOf('/kept')),
        batches.record(crypto.randomUUID(), reportOf('/orphan')),
        batches.record(workspace.id, reportOf('/kept')),
      ]);
      expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const { key } = await ctx.createKey(workspace, workspace.owner);
      expect((await list(key)).json().data).toEqual([expect.objectContaining({ path: '/kept', hitCount: 2 })]);
    });
  });

  describe('permissions', () => {
    it('reporting needs link-health:write and listing link-health:read; neither implies the other', async () => {
      const owner = await ctx.ownerKey();
      const cases: Array<[Permission[], number, number]> = [
        [['link-health:write'], 200, 403],
        [['link-health:read'], 403, 200],
        [['redirects:read', 'redirects:write', 'posts:write'], 403, 403],
      ];
      for (const [held, reportStatus, listStatus] of cases) {
        const { key } = await ctx.memberKey(held, owner.workspace);
        const posted = await report(key, { path: '/perm' });
        expect(posted.statusCode, `report with ${held}`).toBe(reportStatus);
        const listed = await list(key);
        expect(listed.statusCode, `list with ${held}`).toBe(listStatus);
        for (const response of [posted, listed])
          if (response.statusCode === 403) expect(response.json().code).toBe('FORBIDDEN');
      }
    });
  });

  describe('list', () => {
    it('sorts by hitCount, most first, by default and omits orderBy; sorts by lastSeenAt on request', async () => {
      const { key } = await ctx.ownerKey();
      const other = await ctx.ownerKey();
      await reported(other.key, { path: '/not-mine' });
      for (const [path, hits] of [
        ['/one', 1],
        ['/three', 3],
        ['/two', 2],
      ] as const)
        for (let i = 0; i < hits; i += 1) await reported(key, { path });
      const body = (await list(key)).json();
      expect(body).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 3, totalPages: 1 });
      expect(body).not.toHaveProperty('orderBy');
      expect(body.data.map((row: Json) => row.path)).toEqual(['/three', '/two', '/one']);

      const byHits = (await list(key, 'orderBy=hitCount&order=asc')).json();
      expect(byHits).toMatchObject({ orderBy: 'hitCount', order: 'asc' });
      expect(byHits.data.map((row: Json) => row.path)).toEqual(['/one', '/two', '/three']);

      await reported(key, { path: '/one' });
      const byRecency = (await list(key, 'orderBy=lastSeenAt')).json();
      expect(byRecency).toMatchObject({ orderBy: 'lastSeenAt', order: 'desc' });
      const times = byRecency.data.map((row: Json) => row.lastSeenAt as string);
      expect(times).toEqual([...times].sort().reverse());
      expect(byRecency.data[0].path).toBe('/one');
    });

    it('pages with a stable tiebreak, filters with q, and shows an empty page past the end', async () => {
      const { key } = await ctx.ownerKey();
      const paths = Array.from({ length: 7 }, (_, i) => `/docs/page-${i}`);
      for (const path of paths) await reported(key, { path });
      await reported(key, { path: '/blog/x' });
      const seen: string[] = [];
      for (let page = 1; page <= 3; page += 1)
        seen.push(...(await list(key, `pageSize=3&page=${page}`)).json().data.map((row: Json) => row.path));
      expect(seen.sort()).toEqual([...paths, '/blog/x'].sort());
      expect((await list(key, 'q=/docs/&pageSize=100')).json()).toMatchObject({ total: 7, totalPages: 1 });
      expect((await list(key, 'q=/DOCS/')).json().total).toBe(0);
      expect((await list(key, 'page=9&pageSize=5')).json()).toMatchObject({
        data: [],
        page: 9,
        total: 8,
        totalPages: 2,
      });
    });

    it('refuses bad pagination, order without orderBy, unknown sort keys and parameters', async () => {
      const { key } = await ctx.ownerKey();
      expect((await list(key, 'pageSize=100')).statusCode).toBe(200);
      for (const [query, pointer] of [
        ['pageSize=101', '/pageSize'],
        ['pageSize=0', '/pageSize'],
        ['page=0', '/page'],
        ['order=desc', '/order'],
        ['orderBy=firstSeenAt', '/orderBy'],
        ['orderBy=hitCount&order=down', '/order'],
        ['statusCode=404', '/statusCode'],
      ] as const) {
        expectIssue(await list(key, query), pointer);
      }
    });
  });
});
