import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { signInAttemptsRepository as repo, type AttemptRow } from './sessions.repository.js';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Failures for one account from one address: past them that address is refused for that account. */
export const MAX_FAILURES_PER_PAIR = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
/** Failures for one account, from any address, that cost nothing: as many as one address may make. */
export const FREE_FAILURES_PER_ACCOUNT = MAX_FAILURES_PER_PAIR;
/** Each failure for an account beyond the free ones slows every attempt at it by this much, up to the cap. */
export const ACCOUNT_DELAY_STEP_MS = 100;
export const MAX_ACCOUNT_DELAY_MS = 2000;

/** The rows one attempt wrote: kept when the password was wrong, taken back when it was right. */
export interface Attempt {
  accountKey: string;
  pairKey: string;
  ids: string[];
}

/**
 * What a throttle counts: failed sign-ins (a right password takes them back), or password reset requests, each of
 * which counts, since each sends a mail. Their counts are apart: asking for resets does not lock anyone's sign-in.
 */
export type ThrottlePurpose = 'sign-in' | 'password-reset';

const REFUSALS: Record<ThrottlePurpose, string> = {
  'sign-in': 'Too many failed sign-in attempts; retry after the time in Retry-After',
  'password-reset': 'Too many password reset requests; retry after the time in Retry-After',
};

// Hashed, so that whatever was typed into the email field (sometimes a password) is never stored.
const keyOf = (purpose: ThrottlePurpose, kind: 'account' | 'address' | 'pair', value: string) =>
  crypto
    .createHash('sha256')
    .update(purpose === 'sign-in' ? `${kind}:${value}` : `${purpose}:${kind}:${value}`)
    .digest('hex');

/** How long an attempt at an account waits, given the account's recent failures from every address. */
export function accountDelayMs(failures: number): number {
  const excess = failures - FREE_FAILURES_PER_ACCOUNT;
  return excess <= 0 ? 0 : Math.min(MAX_ACCOUNT_DELAY_MS, excess * ACCOUNT_DELAY_STEP_MS);
}

/**
 * Failed sign-ins over a sliding 15 minutes, counted in the database so the limits hold across
 * instances. An attempt is written before the password is checked and counted with it, so concurrent
 * guesses cannot all slip in under a limit.
 *
 * Refusals (429) are per address: per (account, address) pair and per address. Nothing refuses an
 * account as a whole, or anyone could lock its owner out by failing at it from anywhere; failures at
 * an account from many addresses instead slow every attempt at it, by a bounded delay.
 */
export function createSignInThrottle(db: Db, purpose: ThrottlePurpose = 'sign-in') {
  return {
    async begin(email: string, address: string): Promise<Attempt> {
      const now = Date.now();
      const attemptedAt = new Date(now).toISOString();
      const since = new Date(now - THROTTLE_WINDOW_MS).toISOString();
      const accountKey = keyOf(purpose, 'account', email);
      // A newline can be in neither an email nor an address, so no two pairs share a key.
      const pairKey = keyOf(purpose, 'pair', `${email}\n${address}`);
      const addressKey = keyOf(purpose, 'address', address);
      const rows: AttemptRow[] = [accountKey, pairKey, addressKey].map((key) => ({
        id: crypto.randomUUID(),
        key,
        attempted_at: attemptedAt,
      }));
      await repo.deleteBefore(db, since);
      await repo.insert(db, rows);
      const ids = rows.map((row) => row.id);
      const limits: Array<[string, number]> = [
        [pairKey, MAX_FAILURES_PER_PAIR],
        [addressKey, MAX_FAILURES_PER_ADDRESS],
      ];
      for (const [key, limit] of limits) {
        if ((await repo.recent(db, key, since, limit + 1)).length <= limit) continue;
        // A refused attempt does not count: the refusal lifts with time, however often it is tried.
        await repo.deleteByIds(db, ids);
        const failures = await repo.recent(db, key, since, limit);
        const freedAt = Date.parse(failures[limit - 1] ?? attemptedAt) + THROTTLE_WINDOW_MS;
        const retryAfterSeconds = Math.max(1, Math.ceil((freedAt - now) / 1000));
        throw new AppError('RATE_LIMITED', REFUSALS[purpose], { retryAfterSeconds });
      }
      // This attempt's own row is among those counted, and is no failure yet.
      const counted = FREE_FAILURES_PER_ACCOUNT + Math.ceil(MAX_ACCOUNT_DELAY_MS / ACCOUNT_DELAY_STEP_MS) + 1;
      const delay = accountDelayMs((await repo.recent(db, accountKey, since, counted)).length - 1);
      if (delay > 0) await sleep(delay);
      return { accountKey, pairKey, ids };
    },

    /**
     * The right password clears the account's failures and this address's for it; the address keeps its own
     * count (it may be guessing others).
     */
    async succeeded(attempt: Attempt): Promise<void> {
      await repo.deleteForKey(db, attempt.accountKey);
      await repo.deleteForKey(db, attempt.pairKey);
      await repo.deleteByIds(db, attempt.ids);
    },
  };
}
