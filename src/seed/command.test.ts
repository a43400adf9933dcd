import { describe, expect, it } from 'vitest';
import { parsePostCount } from './command.js';

describe('parsePostCount', () => {
  it('reads --posts as a whole number from 1 to 1,000,000, 100 when absent', () => {
    expect(parsePostCount(undefined)).toBe(100);
    expect(parsePostCount('1')).toBe(1);
    expect(parsePostCount('1000000')).toBe(1_000_000);
    for (const bad of ['0', '1000001', '1.5', 'ten', '', '-3', '1e3'])
      expect(() => parsePostCount(bad)).toThrow(/--posts must be a whole number from 1 to 1000000/);
  });
});
