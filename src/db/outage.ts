import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database.js';

export interface OutageLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * What a background task (the webhook dispatcher, event retention) does while the database is away: it pauses,
 * says so once, tries again after a growing wait, and says once that it resumed. A failure that is not an outage
 * is the task's own to report.
 */
export interface OutageWatch {
  /** True while paused. */
  readonly paused: boolean;
  /**
   * After a failed round: the milliseconds to wait before the next try when the database is away (logged once per
   * outage), or undefined when the error is not an outage.
   */
  failed(error: unknown): number | undefined;
  /** After a round that reached the database: ends a pause, saying so. */
  succeeded(): void;
}

const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5_000;

export function watchOutages(database: DatabaseHandle, task: string, log: OutageLog): OutageWatch {
  let since: number | null = null;
  let wait = FIRST_WAIT_MS;
  return {
    get paused() {
      return since !== null;
    },
    failed(error) {
      const reason = database.dialect.unavailable(error);
      if (reason === undefined) return undefined;
      if (since === null) {
        since = Date.now();
        wait = FIRST_WAIT_MS;
        log.warn({ task, reason }, `the database is unavailable: ${task} paused until it answers`);
      } else {
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
      }
      return wait;
    },
    succeeded() {
      if (since === null) return;
      log.info({ task, pausedMs: Date.now() - since }, `the database answers again: ${task} resumed`);
      since = null;
    },
  };
}

/**
 * Waits for the database to answer, at most `timeoutMs`: an instance started while its database is restarting
 * (a deploy during a maintenance window) starts when it returns rather than exiting. `onWait` hears each reason
 * to wait. An error that is not an outage (bad credentials, no such database) fails at once.
 */
export async function waitForDatabase(
  database: DatabaseHandle,
  { timeoutMs, onWait }: { timeoutMs: number; onWait: (reason: string, waitedMs: number) => void },
): Promise<void> {
  const started = Date.now();
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      await sql`select 1`.execute(database.db);
      return;
    } catch (error) {
      const reason = database.dialect.unavailable(error);
      const waited = Date.now() - started;
      if (reason === undefined || waited + wait > timeoutMs) throw error;
      onWait(reason, waited);
      await sleep(wait);
    }
  }
}
