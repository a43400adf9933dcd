/** The error catalog of the specification: every error the API answers carries one of these codes. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  // Beyond the specification's table (docs/decisions.md): a dependency (the database, media storage) is away.
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One problem with a request, located by a JSON Pointer into the part of the request named by `in`. */
export interface ValidationIssue {
  path: string;
  message: string;
  in?: 'body' | 'query' | 'params' | 'headers';
}

export type ErrorDetails = Record<string, unknown> | null;

/**
 * An error that services throw and the HTTP layer turns into the envelope `{code, message, details}`.
 * Services know nothing of HTTP; the status comes from the catalog.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = null,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string, details: ErrorDetails = null) =>
  new AppError('BAD_REQUEST', message, details);
export const invalid = (issues: ValidationIssue[], message = issues[0]?.message ?? 'Invalid request') =>
  new AppError('BAD_REQUEST', message, { issues });
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details: ErrorDetails = null) => new AppError('CONFLICT', message, details);
export const forbidden = (message = 'This key lacks the permission this route needs') =>
  new AppError('FORBIDDEN', message);

/** What a 503 names as away: the answer's `details.dependency`, and what /healthz reports by name. */
export type Dependency = 'database' | 'storage';

/** Seconds a 503 asks the client to wait before it tries again (`Retry-After`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_MESSAGES: Record<Dependency, string> = {
  database: 'The database is not answering; retry after the time in Retry-After',
  storage: 'Media storage is not answering; retry after the time in Retry-After',
};

/**
 * A dependency is away (down, restarting, unreachable, out of space): the request was fine, nothing of it was
 * written, and the same request may be sent again later.
 */
export const unavailable = (dependency: Dependency, reason: string) =>
  new AppError('UNAVAILABLE', UNAVAILABLE_MESSAGES[dependency], {
    dependency,
    reason,
    retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
  });

/** The one 401 body: every kind of bad key gets exactly this, so the cases cannot be told apart. */
export const unauthorized = () => new AppError('UNAUTHORIZED', 'A valid API key is required in the X-API-Key header');

export interface ErrorEnvelope {
  code: ErrorCode;
  message: string;
  details: ErrorDetails;
}

export function envelope(error: AppError): ErrorEnvelope {
  return { code: error.code, message: error.message, details: error.details };
}
