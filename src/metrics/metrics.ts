import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsConfig } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { AppError, envelope } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics, when configured (main.ts serves them on QUIRE_METRICS_PORT). */
    quireMetrics: Metrics | null;
  }
}

/** Seconds; from a cached answer (tens of µs) to a slow write or upload. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A request no route matched: one label, so that scanners probing paths cannot grow the label set. */
const UNMATCHED = 'unmatched';

export interface MetricsSources {
  database: DatabaseHandle;
  responseCacheBytes(): number;
}

/**
 * The Prometheus metrics of one process (prom-client, a registry of its own): requests by route and status
 * with their latencies, response-cache hits and misses, database connections in use, event-loop lag and
 * Node's process figures. Loaded only when QUIRE_METRICS_TOKEN or QUIRE_METRICS_PORT is set.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'quire_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time from a request to the end of its answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'quire_response_cache_lookups_total',
    help: 'Cacheable GETs answered from the response cache (hit) or built afresh (miss)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'quire_response_cache_bytes',
    help: 'Bytes of serialized answers the response cache holds',
    registers: [registry],
    collect() {
      this.set(sources.responseCacheBytes());
    },
  });
  new Gauge({
    name: 'quire_db_connections',
    help: 'Database connections: open, idle, and callers waiting for one (SQLite has one connection)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { open, idle, waiting } = sources.database.connections();
      this.set({ state: 'open' }, open);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });

  // Route patterns for answers given before Fastify routes them (server/cached-get.ts).
  const router = FindMyWay({ ignoreTrailingSlash: true });
  const observe = (method: string, route: string, status: number, seconds: number) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    latency.observe(labels, seconds);
  };

  return {
    registry,
    /** Registers the hooks that count what Fastify answers; call before any route is added. */
    instrument(app: FastifyInstance): void {
      app.addHook('onRoute', (route) => {
        for (const method of [route.method].flat())
          if (!router.hasRoute(method as HTTPMethod, route.url))
            router.on(method as HTTPMethod, route.url, () => undefined, { url: route.url });
      });
      app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
        const route = request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
        observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
        if (request.cachedEtag !== undefined) cache.inc({ result: 'hit' });
        else if (request.responseCacheKey !== undefined) cache.inc({ result: 'miss' });
      });
    },
    /** An answer the response cache gave before Fastify saw the request (the fast path of cached GETs). */
    answeredEarly(request: http.IncomingMessage, response: http.ServerResponse, started: number): void {
      cache.inc({ result: 'hit' });
      const path = (request.url ?? '/').split('?')[0]!;
      const found = router.find((request.method ?? 'GET') as HTTPMethod, path);
      const route = (found?.store as { url?: string } | undefined)?.url ?? UNMATCHED;
      const finish = () =>
        observe(request.method ?? 'GET', route, response.statusCode, (performance.now() - started) / 1000);
      if (response.writableFinished) finish();
      else response.once('finish', finish);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Whether a request carries the bearer token; compared in constant time. */
export function hasToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  return match !== null && crypto.timingSafeEqual(sha256(match[1]!), sha256(token));
}

/** GET /metrics on the server's own port, for a request with the token (else the generic 401). */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!hasToken(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer')
        .send(
          envelope(
            new AppError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer and the QUIRE_METRICS_TOKEN'),
          ),
        );
    }
    return reply
      .type(metrics.registry.contentType)
      .header('Cache-Control', 'no-store')
      .send(await metrics.registry.metrics());
  });
}

/**
 * GET /metrics on a listener of its own (QUIRE_METRICS_PORT), off the public port: what reaches it is for
 * the network to decide (loopback by default). With a token set, it is asked for here too.
 */
export function startMetricsServer(metrics: Metrics, config: MetricsConfig): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (config.token !== null && !hasToken(request.headers.authorization, config.token)) {
      response
        .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
        .end('Unauthorized\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) =>
        response
          .writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
          .end(text),
      () => response.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port ?? 0, config.host, () => resolve(server));
  });
}
