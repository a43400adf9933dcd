import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { etagMatches } from '../http/revalidation.js';
import { cachedAnswer } from './caching.js';
import type { Edge } from './edge.js';
import { logRequest, logsRequests } from './logging.js';
import { requestId } from './request-id.js';
import type { ResponseCache } from './response-cache.js';

export interface CachedGetOptions {
  /** The external API's prefix, with its trailing slash. */
  prefix: string;
  edge: Edge;
  cache: ResponseCache;
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
  cache,
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
    // Every request is logged in one line at its answer; so is this one, as Fastify's hook logs the others.
    const logged = logsRequests(logger);
    const started = logged ? performance.now() : 0;
    const notModified = etagMatches(request.headers['if-none-match'], hit.etag);
    const answer = cachedAnswer(cache, hit, notModified ? undefined : request.headers['accept-encoding']);
    response.writeHead(notModified ? 304 : 200, {
      'x-request-id': id,
      'x-content-type-options': 'nosniff',
      ...decision.headers,
      ...answer.headers,
      'content-length': notModified ? 0 : answer.body.length,
    });
    response.end(notModified ? undefined : answer.body);
    if (logged) logRequest(logger, request, response.statusCode, performance.now() - started, id);
    return true;
  };
}
