import type { components } from './schema.js';

/** The codes of the API's error envelope, and the client's own for failures that never reached it. */
export type QuireErrorCode =
  components['schemas']['ErrorEnvelope']['code'] | 'NETWORK_ERROR' | 'TIMEOUT' | 'INVALID_RESPONSE';

/**
 * Every failure of a call: an error answer of the API (its envelope's `code`, `message` and `details`),
 * or a call that got no usable answer (`NETWORK_ERROR`, `TIMEOUT`, `INVALID_RESPONSE`; `status` 0 when
 * nothing answered). Branch on `code`; `message` is for people and may change.
 */
export class QuireError extends Error {
  override readonly name = 'QuireError';
  readonly code: QuireErrorCode;
  /** The HTTP status, or 0 when no answer arrived. */
  readonly status: number;
  /** The envelope's details: `{issues: [{in, path, message}]}` for validation errors, else code-specific or null. */
  readonly details: Record<string, unknown> | null;
  /** The server's X-Request-Id of the failed attempt, to quote when reporting a problem. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfter: number | null;

  constructor(
    code: QuireErrorCode,
    message: string,
    init: {
      status?: number;
      details?: Record<string, unknown> | null;
      requestId?: string | null;
      retryAfter?: number | null;
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.status = init.status ?? 0;
    this.details = init.details ?? null;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }

  /** The error of a non-2xx answer; a body that is not the envelope is an INVALID_RESPONSE. */
  static fromAnswer({ status, headers, text }: { status: number; headers: Headers; text: string }): QuireError {
    const requestId = headers.get('x-request-id');
    const retryAfter = retryAfterSeconds(headers.get('retry-after'));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (isEnvelope(body)) {
      return new QuireError(body.code, body.message, { status, details: body.details, requestId, retryAfter });
    }
    return new QuireError('INVALID_RESPONSE', `HTTP ${status} without an error envelope: ${text.slice(0, 200)}`, {
      status,
      requestId,
      retryAfter,
    });
  }
}

function isEnvelope(
  body: unknown,
): body is { code: QuireErrorCode; message: string; details: Record<string, unknown> | null } {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message, details } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && (details === null || typeof details === 'object');
}

/** `Retry-After` in seconds: delta-seconds, or an HTTP date turned into the seconds until it. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
