import type { ErrorCode } from '../errors.js';
import { ERROR_EXAMPLES } from './examples.js';
import type { Json, JsonObject } from './components.js';

/*
 * The responses every operation shares: the error envelope per status (its `code` fixed to the one
 * the status carries) and the headers the external scope sets on every answer.
 */

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Every header documented on a response is sent on every such response, so each is `required`. */
export const HEADERS: Record<string, JsonObject> = {
  XRequestId: {
    description: 'The id of this request, also on its log line; an incoming sane `X-Request-Id` is kept.',
    required: true,
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: 'Requests allowed per window for this client address (the limit is global, never per key).',
    required: true,
    schema: { type: 'integer' },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current window.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'Seconds until the current window ends.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  RetryAfter: {
    description: 'Seconds to wait before the next request.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  ETag: {
    description: 'A strong validator of the exact bytes; send it back in `If-None-Match` to revalidate.',
    required: true,
    schema: { type: 'string' },
  },
  XContentTypeOptions: {
    description: 'Always `nosniff`: an answer is never to be read as anything but its declared content type.',
    required: true,
    schema: { type: 'string', const: 'nosniff' },
  },
  CacheControl: {
    description: '`private, no-cache` on content reads (keep a copy, revalidate it); `no-store` on api-keys.',
    required: true,
    schema: { type: 'string' },
  },
};

/** The headers of every answer of the external API. */
export const COMMON_HEADERS: JsonObject = {
  'X-Request-Id': header('XRequestId'),
  'X-Content-Type-Options': header('XContentTypeOptions'),
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
};

export const CACHE_HEADERS: JsonObject = { ETag: header('ETag'), 'Cache-Control': header('CacheControl') };

interface ErrorResponse {
  name: string;
  code: ErrorCode;
  description: string;
}

const ERRORS: Record<number, ErrorResponse> = {
  400: {
    name: 'BadRequest',
    code: 'BAD_REQUEST',
    description:
      'BAD_REQUEST: validation failure (`details.issues` holds JSON Pointers), malformed or oversized body, wrong content type (`details.reason`), invalid state transition, or a reference to a row outside the workspace.',
  },
  401: {
    name: 'Unauthorized',
    code: 'UNAUTHORIZED',
    description:
      'UNAUTHORIZED: the key is missing, malformed, unknown, revoked or expired (the cases cannot be told apart).',
  },
  403: {
    name: 'Forbidden',
    code: 'FORBIDDEN',
    description: "FORBIDDEN: the key is valid but its creator lacks the operation's permission.",
  },
  404: { name: 'NotFound', code: 'NOT_FOUND', description: 'NOT_FOUND: no such row in the workspace of the key.' },
  409: {
    name: 'Conflict',
    code: 'CONFLICT',
    description: 'CONFLICT: a duplicate slug or `fromPath`, or a delete blocked by references (`details` says which).',
  },
  429: {
    name: 'RateLimited',
    code: 'RATE_LIMITED',
    description:
      'RATE_LIMITED: the global rate limit of this client address is spent. Wait `Retry-After` seconds; the refused request did nothing, so any method may be retried.',
  },
  500: {
    name: 'Internal',
    code: 'INTERNAL',
    description: 'INTERNAL: an unexpected server error. Treat it as transient and retry with backoff.',
  },
  503: {
    name: 'Unavailable',
    code: 'UNAVAILABLE',
    description:
      'UNAVAILABLE: a dependency is away (`details.dependency`: `database` or `storage`; `details.reason` says how). The request was refused as a whole: no write is half-applied. Retry after `Retry-After` seconds; a write whose connection failed mid-commit may have landed, so retry writes as you would after a timeout.',
  },
};

export const errorResponseRef = (status: number): Json => ({ $ref: `#/components/responses/${ERRORS[status]!.name}` });

/** `components/responses`: one per error status, each the envelope with that status's code. */
export function errorResponses(): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const [status, { name, code, description }] of Object.entries(ERRORS)) {
    const headers: JsonObject = { ...COMMON_HEADERS };
    if (status === '429' || status === '503') headers['Retry-After'] = header('RetryAfter');
    responses[name] = {
      description,
      headers,
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/ErrorEnvelope' },
              { type: 'object', properties: { code: { const: code } } },
            ],
          },
          example: ERROR_EXAMPLES[status]!,
        },
      },
    };
  }
  return responses;
}
