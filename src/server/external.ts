import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorize } from './auth.js';
import { cacheHeaders, splicedGzipAnswer, serveFromCache } from './caching.js';
import type { Edge } from './edge.js';
import { selectFields } from '../http/fields.js';
import { sealWriteAnswers } from './sealed-answer.js';
import type { ResponseCache } from './response-cache.js';
import { routeMissHandler, type RouteTable } from './route-table.js';

export const EXTERNAL_PREFIX = '/api/v1/external';

export interface ExternalApiOptions {
  edge: Edge;
  routeTable: RouteTable;
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
  const { edge } = options;
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // Decided already when the cached-GET fast path looked at this request first.
    const decision = await edge.decide(request.raw, request.ip);
    reply.headers(decision.headers);
    if (decision.refusal !== undefined) throw decision.refusal;
    request.actor = decision.actor!;
    authorize(request.actor, request.routeOptions.config.permission, request.routeOptions.config.draft);
    return serveFromCache(edge, options.responseCache, request, reply);
  });

  sealWriteAnswers(scope);
  // Before cacheHeaders: the ETag and the cache see the answer as cut to `?fields=`.
  selectFields(scope);
  scope.addHook('onSend', cacheHeaders(options.responseCache));
  // After cacheHeaders, so the observer sees the final status (304) and body.
  const observe = options.observeResponse;
  if (observe) {
    scope.addHook('onSend', async (request, reply, payload) => {
      observe(request, reply, payload);
      return payload;
    });
  }

  // After the observer, which sees the answer as its bytes are; before @fastify/compress, which it spares.
  scope.addHook('onSend', splicedGzipAnswer);

  // Set here, inside the scope, so that the hooks above (rate limit, key) run before a 404 or 405.
  scope.setNotFoundHandler(routeMissHandler(options.routeTable));

  await options.routes(scope);
}
