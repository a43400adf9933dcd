import crypto from 'node:crypto';
import type { Db } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { signInAttemptsRepository as repo, type AttemptRow } from './sessions.repository.js';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** The rows one attempt wrote: kept when the password was wrong, taken back when it was right. */
export interface Attempt {
  accountKey: string;
  ids: string[];
}

// Hashed, so that whatever was typed into the email field (sometimes a password) is never stored.
const keyOf = (kind: 'account' | 'address', value: string) =>
  crypto.createHash('sha256').update(`${kind}:${value}`).digest('hex');

/**
 * Failed sign-ins per account and per client address over a sliding 15 minutes, counted in the
 * database so the limit holds across instances. An attempt is written before the password is
 * checked and counted with it, so concurrent guesses cannot all slip in under the limit.
 */
export function createSignInThrottle(db: Db) {
  return {
    async begin(email: string, address: string): Promise<Attempt> {
      const now = Date.now();
      const attemptedAt = new Date(now).toISOString();
      const since = new Date(now - THROTTLE_WINDOW_MS).toISOString();
      const accountKey = keyOf('account', email);
      const rows: AttemptRow[] = [
        { id: crypto.randomUUID(), key: accountKey, attempted_at: attemptedAt },
        { id: crypto.randomUUID(), key: keyOf('address', address), attempted_at: attemptedAt },
      ];
      await repo.deleteBefore(db, since);
      await repo.insert(db, rows);
      const ids = rows.map((row) => row.id);
      const limits: Array<[string, number]> = [
        [accountKey, MAX_FAILURES_PER_ACCOUNT],
        [rows[1]!.key, MAX_FAILURES_PER_ADDRESS],
      ];
      for (const [key, limit] of limits) {
        if ((await repo.recent(db, key, since, limit + 1)).length <= limit) continue;
        // A refused attempt does not count: the lock lifts with time, however often it is tried.
        await repo.deleteByIds(db, ids);
        const failures = await repo.recent(db, key, since, limit);
        const freedAt = Date.parse(failures[limit - 1] ?? attemptedAt) + THROTTLE_WINDOW_MS;
        const retryAfterSeconds = Math.max(1, Math.ceil((freedAt - now) / 1000));
        throw new AppError('RATE_LIMITED', 'Too many failed sign-in attempts; retry after the time in Retry-After', {
          retryAfterSeconds,
        });
      }
      return { accountKey, ids };
    },

    /** The right password clears the account's failures; the address keeps its count (it may be guessing others). */
    async succeeded(attempt: Attempt): Promise<void> {
      await repo.deleteForKey(db, attempt.accountKey);
      await repo.deleteByIds(db, attempt.ids);
    },
  };
}
