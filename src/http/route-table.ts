import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The not-found handler: 405 with `Allow` when the path exists under other methods, else 404. */
export function routeMissHandler(table: RouteTable) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<never> => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = table.allowedMethods(path);
    // The path is not echoed back: a key pasted into a URL by mistake must not be sent back out.
    if (allowed.length === 0) throw notFound(`Route ${request.method}`);
    reply.header('Allow', allowed.join(', '));
    throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not supported on this path`, { allow: allowed });
  };
}
