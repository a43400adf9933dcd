import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Writer } from '../security/writer.js';
import type { AlongsideWriter } from './content-write.js';

/** Carries a rehearsed write's answer out of its transaction, which throwing it rolls back. */
class Rehearsed {
  constructor(readonly answer: unknown) {}
}

/**
 * Runs a content write to its last step and rolls it back: its answer is exactly what the write would answer,
 * checked by every rule it runs (statuses, references, slugs, versions), and nothing of it stays: no row, event,
 * revision or delivery. Pending changes are held to the write that Update will make (modules/pending), and a
 * preview of them is that write's answer. `run` must make one content write with the writer it is given.
 */
export async function rehearse<W extends Writer, T>(writer: W, run: (writer: W & AlongsideWriter) => Promise<T>) {
  const rehearsing: W & AlongsideWriter = {
    ...writer,
    // contentWrite runs it inside the transaction, after the work and its records, before the seal.
    alongside: (_trx: Kysely<Database>, answer: unknown) => Promise.reject(new Rehearsed(answer)),
  };
  delete rehearsing.seal;
  try {
    await run(rehearsing);
  } catch (error) {
    if (error instanceof Rehearsed) return error.answer as T;
    throw error;
  }
  throw new Error('A rehearsal ran no content write');
}
