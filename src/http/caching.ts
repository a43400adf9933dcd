import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Responses that must never be stored anywhere (key material): `Cache-Control: no-store`, no ETag. */
    noStore?: boolean;
  }
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * Content GETs carry a strong ETag (a hash of the exact bytes) and `Cache-Control: private, no-cache`,
 * so a client may keep a copy but must revalidate; a matching If-None-Match answers 304 with no body.
 */
export async function cacheHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (request.routeOptions.config.noStore) {
    reply.header('Cache-Control', 'no-store');
    return payload;
  }
  if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const etag = `"${crypto.createHash('sha1').update(payload).digest('base64url')}"`;
  reply.header('ETag', etag);
  reply.header('Cache-Control', 'private, no-cache');
  if (matches(request.headers['if-none-match'], etag)) {
    reply.code(304);
    return '';
  }
  return payload;
}
