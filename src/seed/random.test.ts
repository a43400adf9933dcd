import { describe, expect, it } from 'vitest';
import { Random } from './random.js';

const draw = (seed: string, n = 20) => {
  const r = new Random(seed);
  return Array.from({ length: n }, () => r.uint32());
};

describe('Random', () => {
  it('gives the same sequence for the same seed, and another for another seed', () => {
    expect(draw('post:7')).toEqual(draw('post:7'));
    expect(draw('post:7')).not.toEqual(draw('post:8'));
  });

  it('keeps to its ranges', () => {
    const r = new Random('ranges');
    for (let i = 0; i < 5000; i += 1) {
      const f = r.next();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      const n = r.int(3, 7);
      expect(Number.isInteger(n) && n >= 3 && n <= 7).toBe(true);
    }
  });

  it('reaches every value of a small range about equally often', () => {
    const r = new Random('spread');
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 40_000; i += 1) counts[r.int(0, 3)]! += 1;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('samples distinct items, never more than there are', () => {
    const r = new Random('sample');
    const items = ['a', 'b', 'c', 'd', 'e'];
    const picked = r.sample(items, 3);
    expect(new Set(picked).size).toBe(3);
    expect(r.sample(items, 9).sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('centres a log-normal on its median', () => {
    const r = new Random('lengths');
    const values = Array.from({ length: 20_001 }, () => r.logNormal(1000, 0.45)).sort((a, b) => a - b);
    expect(values[10_000]).toBeGreaterThan(950);
    expect(values[10_000]).toBeLessThan(1050);
  });
});
