import type { DialectHelpers, ForeignKeyViolation, UniqueViolation } from '../dialect.js';

/** Node's socket errors: the server's address refuses, resets or does not answer. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * The server is away: shutting down or starting up (57P01–57P03), out of resources (class 53: disk full, too many
 * connections), the connection lost (class 08, or pg's own "Connection terminated" and "not queryable" errors),
 * or no connection to be had within the pool's connect timeout.
 */
function postgresUnavailable(error: unknown): string | undefined {
  // A name that resolves to several addresses fails with one error for each, gathered.
  if (error instanceof AggregateError && error.errors.length > 0) return postgresUnavailable(error.errors[0]);
  const { code, message } = (error ?? {}) as PgError & { message?: unknown };
  if (typeof code === 'string') {
    if (code === '57P01' || code === '57P02') return 'shutting_down';
    if (code === '57P03') return 'starting_up';
    if (code === '53100') return 'disk_full';
    if (code.startsWith('53')) return 'out_of_resources';
    if (code.startsWith('08')) return 'connection_lost';
    if (SOCKET_ERRORS.has(code)) return 'unreachable';
  }
  if (typeof message !== 'string') return undefined;
  if (/^Connection terminated|not queryable|Connection ended/i.test(message)) return 'connection_lost';
  if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message))
    return 'connect_timeout';
  return undefined;
}

interface PgError {
  code?: string;
  table?: string;
  detail?: string;
}

/** `Key (workspace_id, slug)=(…) already exists.` names the index's columns; the error names the table. */
function postgresUniqueViolation(error: unknown): UniqueViolation | undefined {
  const { code, table, detail } = (error ?? {}) as PgError;
  if (code !== '23505') return undefined;
  const columns = /^Key \(([^)]*)\)=/.exec(detail ?? '')?.[1]?.split(', ') ?? [];
  return { table: table ?? '', columns: columns.map((column) => column.replace(/^"|"$/g, '')) };
}

/**
 * `Key (author_id)=(…) is not present in table "authors".` names the referencing columns, and the error the
 * referencing table; `Key (id)=(…) is still referenced from table "posts".` is a delete of a referenced row.
 */
function postgresForeignKeyViolation(error: unknown): ForeignKeyViolation | undefined {
  const { code, table, detail } = (error ?? {}) as PgError;
  if (code !== '23503') return undefined;
  const missing = /^Key \(([^)]*)\)=\(.*\) is not present in table/.exec(detail ?? '');
  if (!missing) return { table: '', columns: [], missing: false };
  const columns = missing[1]!.split(', ').map((column) => column.replace(/^"|"$/g, ''));
  return { table: table ?? '', columns, missing: true };
}

export const postgresErrors: Pick<DialectHelpers, 'uniqueViolation' | 'foreignKeyViolation' | 'unavailable'> = {
  uniqueViolation: postgresUniqueViolation,
  foreignKeyViolation: postgresForeignKeyViolation,
  unavailable: postgresUnavailable,
};
