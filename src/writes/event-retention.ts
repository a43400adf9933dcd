import type { DatabaseHandle } from '../db/database.js';
import { writeTransaction } from '../db/transaction.js';
import { contentEventsRepository } from './content-events.repository.js';

const DAY_MS = 86_400_000;
/** Events deleted per statement: each batch is a short transaction of its own, so writers never wait long. */
const PRUNE_BATCH = 5_000;

/** Deletes the events older than `retentionDays`; answers how many went. */
export async function pruneEvents(database: DatabaseHandle, retentionDays: number, now = Date.now()): Promise<number> {
  const before = new Date(now - retentionDays * DAY_MS).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await writeTransaction(database, (trx) => contentEventsRepository.prune(trx, before, PRUNE_BATCH));
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}

export interface PruningLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Keeps content_events bounded: prunes once shortly after start, then every `intervalMs`. Every instance
 * prunes; deleting rows another instance already deleted costs nothing. Answers the function that stops it.
 */
export function startEventPruning(
  database: DatabaseHandle,
  { retentionDays, intervalMs = 3_600_000, log }: { retentionDays: number; intervalMs?: number; log: PruningLog },
): () => void {
  const run = () =>
    pruneEvents(database, retentionDays).then(
      (deleted) => {
        if (deleted > 0) log.info({ deleted, retentionDays }, 'pruned content events');
      },
      (error: unknown) => log.error({ err: error }, 'pruning content events failed'),
    );
  const first = setTimeout(run, 10_000).unref();
  const every = setInterval(run, intervalMs).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
