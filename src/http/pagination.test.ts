import { describe, expect, it } from 'vitest';
import { impliedTotal, type PageRequest } from './pagination.js';

const page = (number: number, pageSize = 10): PageRequest => ({ page: number, pageSize, order: 'desc', orderBy: undefined });

describe('impliedTotal', () => {
  it('a partial page ends the list', () => {
    expect(impliedTotal(page(1), 3)).toBe(3);
    expect(impliedTotal(page(4), 1)).toBe(31);
    expect(impliedTotal(page(2, 100), 99)).toBe(199);
  });

  it('an empty first page is an empty list', () => {
    expect(impliedTotal(page(1), 0)).toBe(0);
  });

  it('a full page, or an empty page past the first, says nothing about the total', () => {
    expect(impliedTotal(page(1), 10)).toBeUndefined();
    expect(impliedTotal(page(3), 10)).toBeUndefined();
    expect(impliedTotal(page(5), 0)).toBeUndefined();
  });
});
