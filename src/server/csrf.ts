import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export const CSRF_HEADER = 'x-csrf-token';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * A signed-in write must echo the session's CSRF token in a header: a cross-site page can make the
 * browser send the cookie, but it cannot read the token to put beside it.
 */
export function checkCsrf(request: FastifyRequest, expected: string): void {
  if (!isStateChanging(request.method)) return;
  const given = request.headers[CSRF_HEADER];
  if (typeof given !== 'string' || !sameSecret(given, expected)) {
    throw new AppError('FORBIDDEN', 'This request needs the X-CSRF-Token header of the session', { reason: 'csrf' });
  }
}

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Sign-in and setup have no session, hence no CSRF token: a browser's write must instead come from
 * our own pages. Our origin is the configured public URL or the one the request was addressed to
 * (behind a trusted proxy, as the proxy reports it). A request naming neither Origin nor Referer
 * (curl, scripts) passes; a cross-site form cannot send the JSON content type these routes require.
 */
export function checkSameOrigin(request: FastifyRequest, publicUrl: string): void {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : undefined;
  if (claimed === undefined) return;
  const ours = new Set([originOf(publicUrl), originOf(`${request.protocol}://${request.host}`)]);
  const theirs = originOf(claimed);
  if (theirs === null || !ours.has(theirs)) {
    throw new AppError('FORBIDDEN', 'This request must come from the dashboard itself', { reason: 'origin' });
  }
}
