import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DialectHelpers } from '../db/dialects/dialect.js';
import { AppError, envelope, invalid, unavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors.js';
import { toIssue } from '../http/validation.js';

/** Fastify's own client errors, mapped to the specification's catalog: everything the client did wrong is a 400. */
const FRAMEWORK_REASONS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'empty_json_body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_content_length',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_BAD_URL: 'bad_url',
  FST_ERR_ASYNC_CONSTRAINT: 'bad_request',
};

const REASON_MESSAGES: Record<string, string> = {
  malformed_json: 'The request body is not valid JSON',
  empty_json_body: 'The request declares a JSON body but sends none',
  too_large: 'The request body is larger than this route accepts',
  unsupported_media_type: 'Send the request body as application/json',
  invalid_content_length: 'The Content-Length header does not match the body',
  bad_url: 'The URL could not be decoded',
};

/** File-system errors of the data dir's media: the disk is full or mounted read-only. */
const STORAGE_ERRORS: Record<string, string> = { ENOSPC: 'disk_full', EDQUOT: 'disk_full', EROFS: 'read_only' };

/**
 * An error of a dependency that is away, as the 503 the client should see: the database (the dialect's verdict)
 * or the data dir's disk. Null for any other error.
 */
export function unavailableError(dialect: DialectHelpers, error: unknown): AppError | null {
  if (error instanceof AppError) return error.code === 'UNAVAILABLE' ? error : null;
  const database = dialect.unavailable(error);
  if (database) return unavailable('database', database);
  const code = (error as { code?: unknown } | null)?.code;
  const storage = typeof code === 'string' ? STORAGE_ERRORS[code] : undefined;
  return storage ? unavailable('storage', storage) : null;
}

export function toAppError(error: FastifyError | Error, dialect: DialectHelpers): AppError | null {
  if (error instanceof AppError) return error;
  const away = unavailableError(dialect, error);
  if (away) return away;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return invalid(fastifyError.validation.map((issue) => toIssue(issue, fastifyError.validationContext)));
  }
  const reason = fastifyError.code ? FRAMEWORK_REASONS[fastifyError.code] : undefined;
  if (reason) return new AppError('BAD_REQUEST', REASON_MESSAGES[reason] ?? fastifyError.message, { reason });
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new AppError('BAD_REQUEST', REASON_MESSAGES.malformed_json!, { reason: 'malformed_json' });
  }
  // PostgreSQL's "invalid byte sequence" / "untranslatable character": text the client sent.
  if (fastifyError.code === '22021' || fastifyError.code === '22P05') {
    return new AppError('BAD_REQUEST', 'The request holds text the database cannot store', {
      reason: 'invalid_character',
    });
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('BAD_REQUEST', 'The request could not be processed', { reason: 'bad_request' });
  }
  return null;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  // Fastify asks to close the connection after a body it refused; the unread rest is discarded
  // instead (server/unread-body.ts), as closing under an upload would lose this answer for the client.
  if (reply.request.raw.complete === false) reply.removeHeader('connection');
  if (error.code === 'UNAVAILABLE') reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return reply.code(error.status).type('application/json; charset=utf-8').send(envelope(error));
}

/** Every error leaves as the envelope; a 500 says nothing of stacks or SQL, and the log line keeps them. */
export function registerErrorHandler(app: FastifyInstance, dialect: DialectHelpers): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toAppError(error, dialect);
    if (known) {
      // A dependency that is away is the operator's news, once per request, without a stack to read through.
      if (known.code === 'UNAVAILABLE')
        request.log.warn({ details: known.details, cause: error.message }, known.message);
      else if (known.status >= 500) request.log.error({ err: error }, known.message);
      return sendError(reply, known);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new AppError('INTERNAL', 'Internal server error; retry with backoff'));
  });
}
