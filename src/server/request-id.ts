import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** A caller's X-Request-Id is kept when it is sane (so traces join up across services), else a new one. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTABLE_ID.test(incoming) ? incoming : crypto.randomUUID();
}
