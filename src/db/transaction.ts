import type { Kysely } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { translateDriverError } from './errors.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in one transaction. A driver error a client caused (a unique value a concurrent write took
 * between our check and our write) becomes the answer the check would have given (db/errors.ts).
 * Content writes go through contentWrite (src/writes), which opens its transaction here.
 */
export async function writeTransaction<T>(
  { db, dialect }: DatabaseHandle,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    throw translateDriverError(dialect, error) ?? error;
  }
}
