import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DERIVED_FIELDS_VERSION } from '../blocks/derive.js';
import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import { authenticate, authorize } from './auth.js';
import { takeEarlyWork } from './cached-get.js';
import { cacheHeaders, serveFromCache } from './caching.js';
import type { ResponseCache } from './response-cache.js';
import { limitHeaders, resetSeconds, type RateLimitStore } from './rate-limit.js';
import { routeMissHandler, type RouteTable } from './route-table.js';

export const EXTERNAL_PREFIX = '/api/v1/external';

export interface ExternalApiOptions {
  db: Db;
  routeTable: RouteTable;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
  responseCache: ResponseCache;
  /** Registers the resource modules inside the external scope. */
  routes: (scope: FastifyInstance) => Promise<void> | void;
  /** Sees every answer of the scope as it leaves; the tests check each against the OpenAPI document. */
  observeResponse?: ResponseObserver;
}

export type ResponseObserver = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;

/**
 * The key-authenticated scope `/api/v1/external`. Its hooks run in the order of contract §7:
 * rate limit (every request counts, refused ones too) → key (401, also for paths that do not
 * exist) → route (404 or 405) → permission (403); validation, lookup and conflict follow in the routes.
 */
export async function externalApi(scope: FastifyInstance, options: ExternalApiOptions): Promise<void> {
  const { store, max, windowMs } = options.rateLimit;
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // A request the cached-GET fast path handed on was counted there, and its key maybe resolved.
    const early = takeEarlyWork(request.raw);
    const limit = early?.limit ?? (await store.hit(request.ip, windowMs));
    reply.headers({ 'quire-derived-version': DERIVED_FIELDS_VERSION, ...limitHeaders(max, limit) });
    if (limit.count > max) {
      const retryAfterSeconds = resetSeconds(limit.resetMs);
      reply.header('Retry-After', retryAfterSeconds);
      throw new AppError('RATE_LIMITED', 'Too many requests; retry after the time in Retry-After', {
        retryAfterSeconds,
      });
    }
    if (early?.refusal !== undefined) throw early.refusal;
    request.actor = early?.actor ?? (await authenticate(options.db, request.headers['x-api-key']));
    authorize(request.actor, request.routeOptions.config.permission);
    return serveFromCache(options.responseCache, request, reply);
  });

  scope.addHook('onSend', cacheHeaders(options.responseCache));
  // After cacheHeaders, so the observer sees the final status (304) and body.
  const observe = options.observeResponse;
  if (observe) {
    scope.addHook('onSend', async (request, reply, payload) => {
      observe(request, reply, payload);
      return payload;
    });
  }

  // Set here, inside the scope, so that the hooks above (rate limit, key) run before a 404 or 405.
  scope.setNotFoundHandler(routeMissHandler(options.routeTable));

  await options.routes(scope);
}
