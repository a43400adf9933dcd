import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import { selectFields } from '../http/fields.js';
import type { Actor } from '../security/actor.js';
import { CONTENT_KEY_BRAND, hashKey, isWellFormedKey } from '../security/key-token.js';
import type { Permission } from '../security/permissions.js';
import { contentKeysRepository } from '../modules/content-keys/content-keys.repository.js';
import { collectionKeys, contentAnswerKeys, itemAnswerKeys } from '../modules/cdn/surrogate-keys.js';
import { authorize } from './auth.js';
import { cacheHeaders, splicedGzipAnswer, serveFromCache } from './caching.js';
import type { Edge } from './edge.js';
import type { ResponseObserver } from './external.js';
import { limitHeaders, resetSeconds, type RateLimitStore } from './rate-limit.js';
import type { ResponseCache } from './response-cache.js';
import { routeMissHandler, type RouteTable } from './route-table.js';

export const CONTENT_PREFIX = '/api/v1/content';

/** What a content key may read: published content and the public parts of what it embeds, nothing else. */
const CONTENT_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'posts:read',
  'pages:read',
  'authors:read',
  'tags:read',
  'categories:read',
  'media:read',
  'redirects:read',
  'site-settings:read',
]);

/** Headers a browser script may read from a content answer. */
const EXPOSED = 'ETag, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

export interface ContentApiOptions {
  db: Db;
  edge: Edge;
  routeTable: RouteTable;
  responseCache: ResponseCache;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
  /** `s-maxage` of content answers: how long a shared cache may keep one between purges. */
  sharedMaxAge: number;
  routes: (scope: FastifyInstance) => Promise<void> | void;
  /** Sees every answer of the scope (the tests check each against the content API's OpenAPI document). */
  observeResponse?: ResponseObserver;
}

interface ContentKeyDecision {
  actor: Actor;
  allowedOrigins: string[];
}

/** The `key` query parameter of a content request, read from the raw URL (a preflight has no parsed query). */
function keyOf(url: string): string | undefined {
  const query = url.indexOf('?');
  if (query < 0) return undefined;
  return new URLSearchParams(url.slice(query + 1)).get('key') ?? undefined;
}

async function authenticateContentKey(db: Db, key: string | undefined): Promise<ContentKeyDecision> {
  if (key === undefined || !isWellFormedKey(key, CONTENT_KEY_BRAND)) throw unauthorized();
  const row = await contentKeysRepository.findForAuthentication(db, hashKey(key));
  if (!row || row.revoked_at !== null) throw unauthorized();
  return {
    actor: {
      workspaceId: row.workspace_id,
      userId: '',
      apiKeyId: null,
      isOwner: false,
      permissions: CONTENT_PERMISSIONS,
      contentVersion: Number(row.content_version),
    },
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
  };
}

/** The CORS headers an answer to `origin` carries, when the key lets that origin read. */
function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> | undefined {
  if (origin === undefined) return undefined;
  if (allowed.length === 0) return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  if (!allowed.includes(origin)) return undefined;
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED };
}

/** The answer's surrogate keys, from the whole answer before `?fields=` cuts it. */
function surrogateKeysOf(request: FastifyRequest, payload: unknown): string[] | undefined {
  const source = request.routeOptions.config.surrogate;
  const workspaceId = request.actor?.workspaceId;
  if (source === undefined || workspaceId === undefined) return undefined;
  if ('collection' in source) return collectionKeys(workspaceId, ...source.collection);
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : typeof payload === 'string' ? payload : undefined;
  if (text === undefined) return undefined;
  const answer = JSON.parse(text) as Record<string, unknown>;
  return source.item === 'post' || source.item === 'page'
    ? contentAnswerKeys(source.item, workspaceId, answer)
    : itemAnswerKeys(source.item, workspaceId, answer);
}

/**
 * The content API `/api/v1/content` (docs/content-api.md): read-only, for sites and browsers, authenticated by a
 * content key in the `key` query parameter (no header, so a browser's GET needs no preflight). Its order: rate limit
 * → key (401) → a write, whatever the path (403) → route (404/405). Answers are cacheable by shared caches and name
 * their surrogate keys; refusals are not (a 404 has no key a purge could name, and the post it stood for may be
 * published next); the CORS headers follow the key's origins.
 */
export async function contentApi(scope: FastifyInstance, options: ContentApiOptions): Promise<void> {
  const { store, max, windowMs } = options.rateLimit;
  const cacheControl =
    `public, max-age=0, must-revalidate, s-maxage=${options.sharedMaxAge}, ` +
    'stale-while-revalidate=60, stale-if-error=86400';

  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await store.hit(request.ip, windowMs);
    reply.headers(limitHeaders(max, limit));
    if (limit.count > max) {
      const retryAfterSeconds = resetSeconds(limit.resetMs);
      reply.header('retry-after', retryAfterSeconds);
      throw new AppError('RATE_LIMITED', 'Too many requests; retry after the time in Retry-After', {
        retryAfterSeconds,
      });
    }
    const decision = await authenticateContentKey(options.db, keyOf(request.url));
    request.actor = decision.actor;
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const cors = corsHeaders(origin, decision.allowedOrigins);
    if (decision.allowedOrigins.length > 0) reply.header('vary', 'Origin');
    if (cors) reply.headers(cors);
    if (request.method === 'OPTIONS') {
      // A preflight: answered here, for any path of the scope; without CORS headers the browser refuses.
      if (cors)
        reply.headers({
          'access-control-allow-methods': 'GET, HEAD, OPTIONS',
          'access-control-allow-headers': 'Accept, If-None-Match, If-Modified-Since',
          'access-control-max-age': '86400',
        });
      return reply.code(204).send();
    }
    // The key is read-only whatever the path: a write is refused as such, before any route question.
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw forbidden('A content key reads published content only; writes go through the admin API with an API key');
    authorize(request.actor, request.routeOptions.config.permission);
    return serveFromCache(options.edge, options.responseCache, request, reply);
  });

  // Before `?fields=` cuts the answer: its keys name everything the whole answer holds.
  scope.addHook('onSend', async (request, reply, payload) => {
    if (request.surrogateKeys === undefined && reply.statusCode === 200 && request.method === 'GET')
      request.surrogateKeys = surrogateKeysOf(request, payload);
    return payload;
  });
  selectFields(scope);
  scope.addHook('onSend', cacheHeaders(options.responseCache, cacheControl));
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400) {
      reply.header('cache-control', 'no-store');
      return payload;
    }
    const keys = request.surrogateKeys;
    if (keys !== undefined && !request.routeOptions.config.noStore) {
      reply.header('surrogate-key', keys.join(' '));
      reply.header('cache-tag', keys.join(','));
    }
    return payload;
  });
  // Last but the gzip splice, so the observer sees the final status (304), headers and body.
  const observe = options.observeResponse;
  if (observe)
    scope.addHook('onSend', async (request, reply, payload) => {
      observe(request, reply, payload);
      return payload;
    });

  // After the observer, which sees the answer as its bytes are; before @fastify/compress, which it spares.
  scope.addHook('onSend', splicedGzipAnswer);

  scope.setNotFoundHandler(routeMissHandler(options.routeTable));
  await options.routes(scope);
}
