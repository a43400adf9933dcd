import { describe, expect, it } from 'vitest';
import { createGate } from './gate.js';

describe('createGate', () => {
  it('runs at most its concurrency at once, the rest in the order they came', async () => {
    const gate = createGate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (n: number) =>
      gate(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(n);
        running -= 1;
        return n;
      });
    expect(await Promise.all([1, 2, 3, 4, 5].map(work))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
  });

  it('lets the next one in when a run fails', async () => {
    const gate = createGate(1);
    await expect(gate(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await gate(async () => 'next')).toBe('next');
  });
});
