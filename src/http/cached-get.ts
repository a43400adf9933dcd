import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { DERIVED_FIELDS_VERSION } from '../blocks/derive.js';
import type { Db } from '../db/database.js';
import { can, type Actor } from '../modules/accounts/actor.js';
import { authenticate } from './auth.js';
import { CONTENT_CACHE_CONTROL, etagMatches } from './caching.js';
import { limitHeaders, type RateLimitDecision, type RateLimitStore } from './rate-limit.js';
import { requestId } from './request-id.js';
import type { ResponseCache } from './response-cache.js';

/** What the fast path already did for a request it handed on: counted it, and maybe resolved or refused its key. */
export interface EarlyWork {
  limit: RateLimitDecision;
  actor?: Actor;
  /** The 401 the key got, when it got one. */
  refusal?: unknown;
}

const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

const earlyWork = new WeakMap<IncomingMessage, EarlyWork>();

/** The fast path's work for this request, for the external API's hook to reuse rather than repeat. */
export function takeEarlyWork(request: IncomingMessage): EarlyWork | undefined {
  const work = earlyWork.get(request);
  earlyWork.delete(request);
  return work;
}

export interface CachedGetOptions {
  /** The external API's prefix, with its trailing slash. */
  prefix: string;
  db: Db;
  cache: ResponseCache;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
  log: () => FastifyBaseLogger;
}

/**
 * Answers a GET whose answer the response cache holds straight from Node's request event, without
 * Fastify's routing, hooks and reply: these cost more than the rest of a cached answer together, and
 * cached reads are most of a CMS's traffic. It does what the external API's hooks do, in their order
 * (count the request, resolve the key afresh with the one authentication query, check the route's
 * permission) and writes the same headers. Anything else (a miss, a refused key, a permission the
 * key lacks, a request over the limit) goes on to Fastify, which takes over the count and the key
 * from here (takeEarlyWork), so nothing is counted or looked up twice. Only without trustProxy: the rate-limit bucket is the socket's address.
 *
 * Resolves true when it answered.
 */
export function cachedGetFastPath(
  options: CachedGetOptions,
): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  const { prefix, db, cache } = options;
  const { store, max, windowMs } = options.rateLimit;
  return async (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || !url.startsWith(prefix) || !cache.enabled) return false;
    const limit = await store.hit(request.socket.remoteAddress ?? '', windowMs);
    const early: EarlyWork = { limit };
    earlyWork.set(request, early);
    if (limit.count > max) return false;
    try {
      early.actor = await authenticate(db, request.headers['x-api-key']);
    } catch (refusal) {
      early.refusal = refusal;
      return false;
    }
    const hit = cache.get(cache.key(early.actor, url));
    if (!hit || (hit.permission !== undefined && !can(early.actor, hit.permission))) return false;
    earlyWork.delete(request);

    const id = requestId(request);
    const log = options.log();
    // Fastify logs every request at info; so does this path, in the same two lines.
    const logged = REQUEST_LOG_LEVELS.has(log.level) ? log.child({ reqId: id }) : undefined;
    logged?.info({ req: request }, 'incoming request');
    const started = logged ? performance.now() : 0;
    const notModified = etagMatches(request.headers['if-none-match'], hit.etag);
    response.writeHead(notModified ? 304 : 200, {
      'x-request-id': id,
      'x-content-type-options': 'nosniff',
      'quire-derived-version': DERIVED_FIELDS_VERSION,
      ...limitHeaders(max, limit),
      'content-type': hit.contentType,
      etag: hit.etag,
      'cache-control': CONTENT_CACHE_CONTROL,
      'content-length': notModified ? 0 : hit.payload.length,
    });
    response.end(notModified ? undefined : hit.payload);
    logged?.info({ res: response, responseTime: performance.now() - started }, 'request completed');
    return true;
  };
}
