import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/metrics/metrics.js';
import { EXTERNAL, buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

const TOKEN = 'metrics-token-0123456789';

/** The value of the sample of `name` whose labels include every pair of `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describeEachDialect('GET /metrics', (dialect) => {
  describe('without QUIRE_METRICS_TOKEN or QUIRE_METRICS_PORT', () => {
    let ctx: TestContext;
    beforeAll(async () => (ctx = await buildTestApp(dialect)));
    afterAll(() => ctx?.close());

    it('does not exist: a 404 like any unknown path', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(ctx.app.quireMetrics).toBeNull();
    });
  });

  describe('with QUIRE_METRICS_TOKEN', () => {
    let ctx: TestContext;
    let key: string;
    let metricsServer: http.Server | undefined;
    beforeAll(async () => {
      ctx = await buildTestApp(dialect, { env: { QUIRE_METRICS_TOKEN: TOKEN } });
      ({ key } = await ctx.ownerKey());
    });
    afterAll(async () => {
      metricsServer?.close();
      await ctx?.close();
    });

    const scrape = async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return response.body;
    };

    it('refuses a request without the bearer token, or with another', async () => {
      for (const authorization of [undefined, 'Bearer nope-nope-nope-nope', TOKEN]) {
        const response = await ctx.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', details: null });
      }
    });

    it('counts requests by route pattern and status, with latencies, and the response cache’s hits and misses', async () => {
      const get = (url: string) =>
        ctx.app.inject({ method: 'GET', url: `${EXTERNAL}${url}`, headers: { 'x-api-key': key } });
      expect((await get('/tags')).statusCode).toBe(200); // built: a miss
      expect((await get('/tags')).statusCode).toBe(200); // from the cache: a hit
      expect((await get('/tags/no-such-tag')).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: '/no/such/path' })).statusCode).toBe(404);
      // Over HTTP, a cached answer is given before Fastify routes it, and counted all the same.
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.app.server.address() as AddressInfo;
      const fetched = await fetch(`http://127.0.0.1:${port}${EXTERNAL}/tags`, { headers: { 'x-api-key': key } });
      expect(fetched.status).toBe(200);
      await fetched.arrayBuffer();

      const text = await scrape();
      const tags = { method: 'GET', route: `${EXTERNAL}/tags`, status: '200' };
      expect(sample(text, 'quire_http_requests_total', tags)).toBe(3);
      expect(sample(text, 'quire_http_request_duration_seconds_count', tags)).toBe(3);
      expect(sample(text, 'quire_http_request_duration_seconds_bucket', { ...tags, le: '+Inf' })).toBe(3);
      expect(sample(text, 'quire_http_requests_total', { route: `${EXTERNAL}/tags/:idOrSlug`, status: '404' })).toBe(1);
      expect(sample(text, 'quire_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
      // The first /tags and the 404, each looked up and built.
      expect(sample(text, 'quire_response_cache_lookups_total', { result: 'miss' })).toBe(2);
      expect(sample(text, 'quire_response_cache_lookups_total', { result: 'hit' })).toBe(2);
      expect(sample(text, 'quire_response_cache_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'quire_db_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'quire_db_connections', { state: 'waiting' })).toBe(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    });

    it('answers on a port of its own when QUIRE_METRICS_PORT is set, and nothing else there', async () => {
      metricsServer = await startMetricsServer(ctx.app.quireMetrics!, { token: null, port: 0, host: '127.0.0.1' });
      const { port } = metricsServer.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(sample(await response.text(), 'quire_http_requests_total', { route: `${EXTERNAL}/tags` })).toBe(3);
      expect((await fetch(`http://127.0.0.1:${port}${EXTERNAL}/tags`)).status).toBe(404);
    });
  });
});
