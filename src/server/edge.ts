import type { IncomingMessage } from 'node:http';
import { DERIVED_FIELDS_VERSION } from '../blocks/derive.js';
import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import { can, type Actor } from '../security/actor.js';
import type { Permission } from '../security/permissions.js';
import { authenticate } from './auth.js';
import { limitHeaders, resetSeconds, type RateLimitDecision, type RateLimitStore } from './rate-limit.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

/** What the edge decided about one request of the external API: counted, and its key resolved or refused. */
export interface EdgeDecision {
  limit: RateLimitDecision;
  /** The key's actor; absent when the request is over the limit or its key was refused. */
  actor?: Actor;
  /** Why the request may go no further (429, 401, or the error the key's lookup met), when it may not. */
  refusal?: unknown;
  /** The headers every answer to the request carries from the edge on. */
  headers: Record<string, string | number>;
}

export interface EdgeOptions {
  db: Db;
  cache: ResponseCache;
  rateLimit: { store: RateLimitStore; max: number; windowMs: number };
}

/**
 * The external API's front door, the one place its order of contract §7 starts: the rate limit counts the
 * request (refused ones too), then the key is resolved afresh by the one authentication query. The cached-GET
 * fast path (cached-get.ts) and Fastify's hook (external.ts) both ask it; a request is decided once, by
 * whichever asks first, so it is never counted or looked up twice.
 */
export function createEdge({ db, cache, rateLimit: { store, max, windowMs } }: EdgeOptions) {
  const decisions = new WeakMap<IncomingMessage, Promise<EdgeDecision>>();

  async function decideNow(request: IncomingMessage, address: string): Promise<EdgeDecision> {
    const limit = await store.hit(address, windowMs);
    const headers = { 'quire-derived-version': DERIVED_FIELDS_VERSION, ...limitHeaders(max, limit) };
    if (limit.count > max) {
      const retryAfterSeconds = resetSeconds(limit.resetMs);
      const refusal = new AppError('RATE_LIMITED', 'Too many requests; retry after the time in Retry-After', {
        retryAfterSeconds,
      });
      return { limit, refusal, headers: { ...headers, 'retry-after': retryAfterSeconds } };
    }
    try {
      return { limit, actor: await authenticate(db, request.headers['x-api-key'], address), headers };
    } catch (refusal) {
      // A failing lookup is answered by Fastify (a 500), with the headers the edge owes every answer.
      return { limit, refusal, headers };
    }
  }

  return {
    /** This request's decision; `address` is the client's (the socket's, or the one a trusted proxy names). */
    decide(request: IncomingMessage, address: string): Promise<EdgeDecision> {
      let decision = decisions.get(request);
      if (decision === undefined) {
        decision = decideNow(request, address);
        decisions.set(request, decision);
      }
      return decision;
    },

    /**
     * The cached answer for `url` that this actor may be given: one stored under the workspace's current content
     * version, by a route whose permission the actor holds (checked again for every key it is served to).
     */
    cached(actor: Actor, url: string, permission?: Permission): CachedResponse | undefined {
      if (!cache.enabled) return undefined;
      const hit = cache.get(cache.key(actor, url));
      const needed = permission ?? hit?.permission;
      return hit && (needed === undefined || can(actor, needed)) ? hit : undefined;
    },
  };
}

export type Edge = ReturnType<typeof createEdge>;
