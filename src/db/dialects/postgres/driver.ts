import { PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';

const OID = { int8: 20, json: 114, timestamp: 1114, timestamptz: 1184, jsonb: 3802 } as const;

/**
 * Type parsers for this pool only (never pg's global table): timestamps come back as the same ISO
 * strings SQLite stores, JSON as text (parsed where the presenter needs it), counts as numbers.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case OID.timestamptz:
      case OID.timestamp:
        return (value: string) => new Date(oid === OID.timestamp ? `${value}Z` : value).toISOString();
      case OID.json:
      case OID.jsonb:
        return (value: string) => value;
      case OID.int8:
        return (value: string) => Number(value);
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
};

export function createPgPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  // An idle connection the server drops (restart, failover, pg_terminate_backend) makes the pool emit
  // 'error'; unheard, that is an uncaught exception that kills the process. The pool has already
  // discarded the client, and the next query opens a new one, so there is nothing more to do.
  pool.on('error', () => undefined);
  // A client checked out of the pool has no listener of the pool's: one whose connection ends mid-transaction
  // (a restart, a failover) emits 'error' on itself too. Its query or transaction already fails with that error,
  // which the caller answers (a 503), and the pool discards the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export function postgresDialect(connectionString: string): { dialect: Dialect; pool: pg.Pool } {
  const pool = createPgPool(connectionString);
  return { dialect: new PostgresDialect({ pool }), pool };
}
