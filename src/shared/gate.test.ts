import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGate, LARGE_READS } from './gate.js';

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

describe('LARGE_READS', () => {
  const global = globalThis as { gc?: () => void };
  const before = global.gc;
  afterEach(() => {
    global.gc = before;
  });

  it('collects the garbage after each run, failed or not, before the next one starts', async () => {
    const events: string[] = [];
    global.gc = vi.fn(() => void events.push('gc'));
    const run = (name: string, fail = false) =>
      LARGE_READS(async () => {
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([run('a'), run('b', true), run('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(events).toEqual(['start a', 'gc', 'start b', 'gc', 'start c', 'gc']);
  });

  it('runs without a collection where node does not expose one', async () => {
    delete global.gc;
    expect(await LARGE_READS(async () => 'read')).toBe('read');
  });
});
