import type { DatabaseHandle } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { linkHealthRepository as repo, type LinkHealthReport, type LinkHealthRow } from './link-health.repository.js';

/** Bounds how long one batch holds the database, and so how long a read can wait behind it on SQLite. */
export const MAX_REPORTS_PER_BATCH = 256;

interface Waiting {
  workspaceId: string;
  report: LinkHealthReport;
  resolve(row: LinkHealthRow): void;
  reject(error: unknown): void;
}

function byRowKey(a: Waiting, b: Waiting): number {
  if (a.workspaceId !== b.workspaceId) return a.workspaceId < b.workspaceId ? -1 : 1;
  return a.report.path < b.report.path ? -1 : a.report.path > b.report.path ? 1 : 0;
}

/**
 * Records reports in batches: those that arrive while a batch commits are recorded together in the next
 * one, in one transaction. A report is one small upsert, and its commit costs more than the upsert itself
 * (docs/performance.md, "Figures behind the code"). Each
 * caller still gets its own row, read by its own statement, and only after the commit, so answers stay
 * exact increments. One batch is in flight at a time per process; across processes, PostgreSQL row locks
 * are taken in (workspace, path) order, so two batches wait for each other instead of deadlocking.
 * A batch that fails records its reports again one by one, so one bad report fails alone.
 */
export function createReportBatches(database: DatabaseHandle) {
  let waiting: Waiting[] = [];
  let flushing = false;

  async function recordAll(batch: Waiting[]): Promise<void> {
    try {
      const rows = await writeTransaction(database, async (trx) => {
        const recorded: LinkHealthRow[] = [];
        for (const item of batch) recorded.push(await repo.recordHit(trx, item.workspaceId, item.report));
        return recorded;
      });
      batch.forEach((item, index) => item.resolve(rows[index]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const item of batch) await recordAll([item]);
    }
  }

  /** Runs while `flushing` is set (by `record`, when it schedules this). */
  async function flush(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_REPORTS_PER_BATCH).sort(byRowKey);
      waiting = waiting.slice(MAX_REPORTS_PER_BATCH);
      await recordAll(batch);
    }
    flushing = false;
  }

  return {
    record(workspaceId: string, report: LinkHealthReport): Promise<LinkHealthRow> {
      return new Promise((resolve, reject) => {
        waiting.push({ workspaceId, report, resolve, reject });
        // Reports parsed in the same turn of the event loop join the first batch.
        if (!flushing) {
          flushing = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}
