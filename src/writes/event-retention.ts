import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import { watchOutages, type OutageLog } from '../db/outage.js';
import type { Database } from '../db/schema.js';
import { writeTransaction } from '../db/transaction.js';
import { auditRepository } from '../audit/audit.repository.js';
import { contentEventsRepository } from './content-events.repository.js';
import { webhookOutboxRepository } from './webhook-outbox.repository.js';

const DAY_MS = 86_400_000;
/** Events deleted per statement: each batch is a short transaction of its own, so writers never wait long. */
const PRUNE_BATCH = 5_000;

export type Prune = (trx: Kysely<Database>, before: string, limit: number) => Promise<number>;

/** Runs one kind of pruning batch by batch until a batch comes back short; answers how many rows went. */
async function inBatches(database: DatabaseHandle, prune: Prune, before: string): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await writeTransaction(database, (trx) => prune(trx, before, PRUNE_BATCH));
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}

/** Deletes the events older than `retentionDays`; answers how many went. */
export function pruneEvents(database: DatabaseHandle, retentionDays: number, now = Date.now()): Promise<number> {
  return inBatches(database, contentEventsRepository.prune, cutoff(retentionDays, now));
}

/**
 * Deletes the webhook deliveries that ended more than `retentionDays` ago (their attempts with them), then the
 * bodies no delivery refers to any more; answers how many of each went.
 */
export async function pruneDeliveries(
  database: DatabaseHandle,
  retentionDays: number,
  now = Date.now(),
): Promise<{ deliveries: number; bodies: number }> {
  const before = cutoff(retentionDays, now);
  const deliveries = await inBatches(database, webhookOutboxRepository.pruneFinished, before);
  const bodies = await inBatches(database, webhookOutboxRepository.pruneBodies, before);
  return { deliveries, bodies };
}

/**
 * Deletes the audit log's entries older than `retentionDays`, of every workspace, and the rows of what is kept as
 * long (`companions`: the notifications members were sent, handed in by the server); answers how many of each went.
 */
export async function pruneAudit(
  database: DatabaseHandle,
  retentionDays: number,
  { now = Date.now(), companions = [] }: { now?: number; companions?: readonly Prune[] } = {},
): Promise<{ entries: number; companions: number }> {
  const before = cutoff(retentionDays, now);
  const entries = await inBatches(database, auditRepository.prune, before);
  let others = 0;
  for (const prune of companions) others += await inBatches(database, prune, before);
  return { entries, companions: others };
}

function cutoff(retentionDays: number, now: number): string {
  return new Date(now - retentionDays * DAY_MS).toISOString();
}

export interface PruningLog extends OutageLog {
  error(details: object, message: string): void;
}

/**
 * Keeps content_events and the webhook delivery history bounded: prunes once shortly after start, then every
 * `intervalMs`. Every instance prunes; deleting rows another instance already deleted costs nothing. A round
 * that finds the database away is tried again within seconds of its return rather than an interval later.
 * Answers the function that stops it.
 */
export function startEventPruning(
  database: DatabaseHandle,
  {
    retentionDays,
    auditRetentionDays,
    auditCompanions = [],
    intervalMs = 3_600_000,
    log,
  }: {
    retentionDays: number;
    auditRetentionDays: number;
    /** Rows kept as long as the audit log, pruned with it. */
    auditCompanions?: readonly Prune[];
    intervalMs?: number;
    log: PruningLog;
  },
): () => void {
  const outage = watchOutages(database, 'event retention', log);
  let retry: NodeJS.Timeout | undefined;
  const run = async () => {
    clearTimeout(retry);
    try {
      const deleted = await pruneEvents(database, retentionDays);
      outage.succeeded();
      if (deleted > 0) log.info({ deleted, retentionDays }, 'pruned content events');
      const history = await pruneDeliveries(database, retentionDays);
      if (history.deliveries + history.bodies > 0) log.info({ ...history, retentionDays }, 'pruned webhook deliveries');
      const audit = await pruneAudit(database, auditRetentionDays, { companions: auditCompanions });
      if (audit.entries + audit.companions > 0)
        log.info({ ...audit, auditRetentionDays }, 'pruned audit log entries and what is kept as long');
    } catch (error) {
      const wait = outage.failed(error);
      if (wait !== undefined) retry = setTimeout(run, wait).unref();
      else log.error({ err: error }, 'pruning content events, webhook deliveries and audit entries failed');
    }
  };
  const first = setTimeout(run, 10_000).unref();
  const every = setInterval(run, intervalMs).unref();
  return () => {
    clearTimeout(first);
    clearTimeout(retry);
    clearInterval(every);
  };
}
