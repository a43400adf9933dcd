import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { cachedAnswerHeaders, etagMatches } from './caching.js';
import type { Edge } from './edge.js';
import { requestId } from './request-id.js';

const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

export interface CachedGetOptions {
  /** The external API's prefix, with its trailing slash. */
  prefix: string;
  edge: Edge;
  log: () => FastifyBaseLogger;
}

/**
 * Answers a GET whose answer the response cache holds straight from Node's request event, without
 * Fastify's routing, hooks and reply: these cost more than the rest of a cached answer together, and
 * cached reads are most of a CMS's traffic. The edge decides the request as Fastify's hook would (the
 * same call, remembered for the request), and the answer carries the headers Fastify's hooks write. A
 * request the cache cannot answer goes on to Fastify, whose hook finds the edge's decision already made.
 * Only without trustProxy: the rate-limit bucket is the socket's address.
 *
 * Resolves true when it answered.
 */
export function cachedGetFastPath({
  prefix,
  edge,
  log,
}: CachedGetOptions): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  return async (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || !url.startsWith(prefix)) return false;
    const decision = await edge.decide(request, request.socket.remoteAddress ?? '');
    const hit = decision.actor && edge.cached(decision.actor, url);
    if (!hit) return false;

    const id = requestId(request);
    const logger = log();
    // Fastify logs every request at info; so does this path, in the same two lines.
    const logged = REQUEST_LOG_LEVELS.has(logger.level) ? logger.child({ reqId: id }) : undefined;
    logged?.info({ req: request }, 'incoming request');
    const started = logged ? performance.now() : 0;
    const notModified = etagMatches(request.headers['if-none-match'], hit.etag);
    response.writeHead(notModified ? 304 : 200, {
      'x-request-id': id,
      'x-content-type-options': 'nosniff',
      ...decision.headers,
      ...cachedAnswerHeaders(hit),
      'content-length': notModified ? 0 : hit.payload.length,
    });
    response.end(notModified ? undefined : hit.payload);
    logged?.info({ res: response, responseTime: performance.now() - started }, 'request completed');
    return true;
  };
}
