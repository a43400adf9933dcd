import type { Kysely } from 'kysely';
import { conflict } from '../errors.js';
import type { DatabaseHandle } from './database.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in one transaction. A concurrent writer can take a slug between our check and our
 * write; the unique index then says so, and the caller gets the same 409 the check would have given.
 */
export async function writeTransaction<T>(
  { db, dialect }: DatabaseHandle,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (dialect.isUniqueViolation(error)) throw conflict('The slug was taken by a concurrent write', { field: 'slug' });
    throw error;
  }
}
