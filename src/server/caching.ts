import type { FastifyReply, FastifyRequest } from 'fastify';
import { entityTag } from '../shared/entity-tag.js';
import { CONTENT_CACHE_CONTROL, etagMatches } from '../http/revalidation.js';
import { chooseEncoding, COMPRESS_THRESHOLD } from '../http/encodings.js';
import { splicedGzip } from '../shared/gzip-pieces.js';
import type { Edge } from './edge.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The ETag of an answer served from the response cache, which needs no hashing again. */
    cachedEtag?: string;
    /** The surrogate keys of the answer (content API): computed from it, or kept with its cached copy. */
    surrogateKeys?: readonly string[];
  }
}

/**
 * An answer served from the response cache, by the fast path or by Fastify: its bytes in the encoding the
 * client accepts (compressed once per entry and encoding, then kept with it), and the headers that go with them.
 */
export function cachedAnswer(
  cache: ResponseCache,
  hit: CachedResponse,
  acceptEncoding: string | string[] | undefined,
): { body: Buffer; headers: Record<string, string> } {
  const headers: Record<string, string> = {
    'content-type': hit.contentType,
    etag: hit.etag,
    'cache-control': CONTENT_CACHE_CONTROL,
  };
  if (hit.payload.length >= COMPRESS_THRESHOLD) headers.vary = 'Accept-Encoding';
  const encoding = chooseEncoding(acceptEncoding, hit.payload.length);
  if (encoding === undefined) return { body: hit.payload, headers };
  return { body: cache.encoded(hit, encoding), headers: { ...headers, 'content-encoding': encoding } };
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
  if (hit.surrogateKeys) request.surrogateKeys = hit.surrogateKeys;
  const { body, headers } = cachedAnswer(cache, hit, request.headers['accept-encoding']);
  const { vary, ...rest } = headers;
  reply.headers(rest);
  // Added to what the scope set before (the content API's Origin), not in its place.
  if (vary !== undefined) varyOnEncoding(reply);
  return reply.send(body);
}

/**
 * Content GETs carry a strong ETag (a hash of the exact bytes) and `Cache-Control: private, no-cache`,
 * so a client may keep a copy but must revalidate; a matching If-None-Match answers 304 with no body.
 * A fresh 200 GET is kept in the response cache under the key its request was given.
 */
export function cacheHeaders(cache: ResponseCache, cacheControl: string = CONTENT_CACHE_CONTROL) {
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
      etag = entityTag(bytes);
      const key = request.responseCacheKey;
      if (key !== undefined) {
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
        cache.set(key, {
          payload: bytes,
          etag,
          contentType,
          permission: request.routeOptions.config.permission,
          ...(request.surrogateKeys ? { surrogateKeys: request.surrogateKeys } : {}),
        });
      }
      // The bytes go out as they are: they are already encoded, and the cache holds the same ones.
      payload = bytes;
    }
    reply.header('ETag', etag);
    reply.header('Cache-Control', cacheControl);
    if (etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304).removeHeader('content-encoding');
      return '';
    }
    return payload;
  };
}

/**
 * After cacheHeaders: an answer whose deflated form was kept (posts from their stored renders) goes out as gzip
 * spliced from it when gzip is what the client takes, instead of being compressed by @fastify/compress, which
 * leaves an answer with a Content-Encoding alone.
 */
export async function splicedGzipAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (!Buffer.isBuffer(payload) || reply.statusCode !== 200 || reply.hasHeader('content-encoding')) return payload;
  if (request.headers['x-no-compression'] !== undefined) return payload;
  if (chooseEncoding(request.headers['accept-encoding'], payload.length) !== 'gzip') return payload;
  const gzip = splicedGzip(payload);
  if (gzip === undefined) return payload;
  varyOnEncoding(reply);
  reply.header('content-encoding', 'gzip');
  return gzip;
}

/** Adds Accept-Encoding to the answer's Vary, keeping what is there (the content API's Origin). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const kept = vary === undefined ? '' : String(vary);
  if (/accept-encoding/i.test(kept)) return;
  reply.header('vary', kept === '' ? 'Accept-Encoding' : `${kept}, Accept-Encoding`);
}
