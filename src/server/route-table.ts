import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { AppError, notFound } from '../errors.js';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A second router holding the same routes, asked only when Fastify's finds no match: it tells a
 * path that exists under another method (405 with Allow) from one that does not exist (404).
 */
export function createRouteTable() {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  return {
    add(method: string | string[], url: string): void {
      for (const m of Array.isArray(method) ? method : [method]) {
        if (!router.hasRoute(m as HTTPMethod, url)) router.on(m as HTTPMethod, url, () => undefined);
      }
    },
    allowedMethods(path: string): string[] {
      return METHODS.filter((method) => router.find(method, path) !== null);
    },
  };
}

export type RouteTable = ReturnType<typeof createRouteTable>;

/** A request no route matched: 405 with `Allow` when the path exists under other methods, else 404. */
function routeMiss(table: RouteTable, request: FastifyRequest, reply: FastifyReply): AppError {
  const path = request.url.split('?')[0] ?? request.url;
  const allowed = table.allowedMethods(path);
  // The path is not echoed back: a key pasted into a URL by mistake must not be sent back out.
  if (allowed.length === 0) return notFound(`Route ${request.method}`);
  reply.header('Allow', allowed.join(', '));
  return new AppError('METHOD_NOT_ALLOWED', `${request.method} is not supported on this path`, { allow: allowed });
}

/**
 * The route is decided before the body is read (contract §7: route, then validation): a malformed or
 * oversized body sent to a path that does not exist is a 404 (405 on a wrong method), never a 400.
 * A preParsing hook runs after every onRequest hook, so a scope's own checks (rate limit, key,
 * session) still come first.
 */
export function refuseRouteMissBeforeBody(table: RouteTable): preParsingHookHandler {
  return (request, reply, _payload, done) => (request.is404 ? done(routeMiss(table, request, reply)) : done());
}

/**
 * The not-found handler each scope sets, so that the scope's hooks run for paths it does not have.
 * The hook above has normally answered by then; this gives the same answer wherever it has not.
 */
export function routeMissHandler(table: RouteTable) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<never> => {
    throw routeMiss(table, request, reply);
  };
}
