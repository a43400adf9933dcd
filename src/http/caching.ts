import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Edge } from './edge.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Responses that must never be stored anywhere (key material): `Cache-Control: no-store`, no ETag. */
    noStore?: boolean;
  }
  interface FastifyRequest {
    /** The ETag of an answer served from the response cache, which needs no hashing again. */
    cachedEtag?: string;
  }
}

/** Content GETs may be kept by a client, which must revalidate them (the ETag makes that cheap). */
export const CONTENT_CACHE_CONTROL = 'private, no-cache';

export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** The headers of an answer served from the response cache, by the fast path or by Fastify. */
export function cachedAnswerHeaders(hit: CachedResponse): Record<string, string> {
  return { 'content-type': hit.contentType, etag: hit.etag, 'cache-control': CONTENT_CACHE_CONTROL };
}

/** After authentication: answers a GET from the cache when this version of the workspace has it. */
export function serveFromCache(
  edge: Edge,
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | undefined {
  const key = cache.keyFor(request);
  if (key === undefined) return undefined;
  const hit = edge.cached(request.actor, request.url, request.routeOptions.config.permission);
  if (!hit) {
    request.responseCacheKey = key;
    return undefined;
  }
  request.cachedEtag = hit.etag;
  return reply.type(hit.contentType).send(hit.payload);
}

/**
 * Content GETs carry a strong ETag (a hash of the exact bytes) and `Cache-Control: private, no-cache`,
 * so a client may keep a copy but must revalidate; a matching If-None-Match answers 304 with no body.
 * A fresh 200 GET is kept in the response cache under the key its request was given.
 */
export function cacheHeaders(cache: ResponseCache) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (request.routeOptions.config.noStore) {
      reply.header('Cache-Control', 'no-store');
      return payload;
    }
    let etag = request.cachedEtag;
    if (etag === undefined) {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
      // A serialized answer, or one sent as bytes already (sendSerialized); never a stream (a file).
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
      etag = `"${crypto.hash('sha1', bytes, 'base64url')}"`;
      const key = request.responseCacheKey;
      if (key !== undefined) {
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
        cache.set(key, { payload: bytes, etag, contentType, permission: request.routeOptions.config.permission });
      }
      // The bytes go out as they are: they are already encoded, and the cache holds the same ones.
      payload = bytes;
    }
    reply.header('ETag', etag);
    reply.header('Cache-Control', CONTENT_CACHE_CONTROL);
    if (etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  };
}
