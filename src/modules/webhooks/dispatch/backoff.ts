/** How a failed delivery is retried: exponential delays with jitter, then `failed`. */
export interface RetryPolicy {
  /** The delay after the first failed attempt. */
  baseMs: number;
  /** Each further delay is this many times the one before, up to `maxDelayMs`. */
  factor: number;
  maxDelayMs: number;
  /** Attempts in all; the delivery is failed after the last one fails. */
  maxAttempts: number;
}

/**
 * 5 s, 15 s, 45 s … up to 12 h between attempts, 13 attempts: the last comes about two days after the first,
 * long enough for a receiver to come back from a weekend's outage.
 */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 5_000, factor: 3, maxDelayMs: 12 * 3_600_000, maxAttempts: 13 };

/**
 * The wait before the next attempt after `attempt` failed (1-based), or undefined when it was the last. Jitter
 * of ±25 % spreads the retries of the many deliveries that one outage failed at once.
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random = Math.random): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const delay = Math.min(policy.baseMs * policy.factor ** (attempt - 1), policy.maxDelayMs);
  return Math.round(delay * (0.75 + 0.5 * random()));
}
