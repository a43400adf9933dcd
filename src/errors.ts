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
