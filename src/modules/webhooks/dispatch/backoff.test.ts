import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, retryDelayMs } from './backoff.js';

const HOUR = 3_600_000;

describe('the retry schedule', () => {
  it('grows threefold from 5 s up to 12 h, and gives up after the 13th attempt, about two days in', () => {
    const middle = () => 0.5;
    const delays = Array.from({ length: 13 }, (_, index) => retryDelayMs(index + 1, DEFAULT_RETRY, middle));
    expect(delays.slice(0, 5)).toEqual([5_000, 15_000, 45_000, 135_000, 405_000]);
    expect(delays.slice(9, 12)).toEqual([12 * HOUR, 12 * HOUR, 12 * HOUR]);
    expect(delays[12]).toBeUndefined();
    const total = delays.slice(0, 12).reduce<number>((sum, delay) => sum + delay!, 0);
    expect(total / HOUR).toBeGreaterThan(40);
    expect(total / HOUR).toBeLessThan(56);
  });

  it('spreads each delay by a quarter either way at random', () => {
    expect(retryDelayMs(2, DEFAULT_RETRY, () => 0)).toBe(11_250);
    expect(retryDelayMs(2, DEFAULT_RETRY, () => 1)).toBe(18_750);
    const policy = { baseMs: 100, factor: 2, maxDelayMs: 1_000, maxAttempts: 3 };
    expect([1, 2, 3].map((attempt) => retryDelayMs(attempt, policy, () => 0.5))).toEqual([100, 200, undefined]);
  });
});
