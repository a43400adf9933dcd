import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { lostRace, translateDriverError } from './errors.js';
import type { Database } from './schema.js';

/**
 * Times a write that lost a race runs again. Twenty writers deriving the same slug at once can each lose to
 * the ones that commit before them, so it takes as many attempts as writers that race for one value.
 */
const ATTEMPTS = 30;

/**
 * Runs `work` in one transaction. A write that loses a race to a concurrent one (a unique value taken between
 * our check and our insert, a PostgreSQL deadlock) is rolled back and run again: its check then sees what
 * the other committed, so a derived slug takes the next free suffix and an explicit one gets the check's 409.
 * When it keeps losing, the error is the answer the check would have given (db/errors.ts).
 * Content writes go through contentWrite (src/writes), which opens its transaction here.
 */
export async function writeTransaction<T>(
  { db, dialect }: DatabaseHandle,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt < ATTEMPTS && lostRace(dialect, error)) {
        // A little jitter, so writers that collided do not all come back at the same moment.
        await sleep(Math.random() * Math.min(50, 2 * attempt));
        continue;
      }
      throw translateDriverError(dialect, error) ?? error;
    }
  }
}
