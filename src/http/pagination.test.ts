import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { impliedTotal, pageOf, type PageRequest } from '../shared/paging.js';
import { paginated, paginatedJson } from './pagination.js';
import { compileSerializer } from './serialization.js';

const page = (number: number, pageSize = 10): PageRequest => ({
  page: number,
  pageSize,
  order: 'desc',
  orderBy: undefined,
});

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

describe('paginatedJson', () => {
  const item = Type.Object({ id: Type.String(), n: Type.Integer() });
  const serialize = compileSerializer(paginated(item));
  const items = [
    { id: 'a"b', n: 1 },
    { id: 'c — é 🎉', n: 2 },
  ];

  it('writes the bytes the schema serializer writes, with and without orderBy', () => {
    for (const request of [page(2, 2), { ...page(1, 5), order: 'asc' as const, orderBy: 'title "quoted"' }]) {
      const expected = serialize(pageOf(request, items, 7));
      expect(
        paginatedJson(
          pageOf(
            request,
            items.map((one) => Buffer.from(JSON.stringify(one))),
            7,
          ),
        ).toString(),
      ).toBe(expected);
    }
  });

  it('writes an empty page', () => {
    expect(JSON.parse(paginatedJson(pageOf(page(3), [], 0)).toString())).toEqual({
      data: [],
      page: 3,
      pageSize: 10,
      order: 'desc',
      total: 0,
      totalPages: 1,
    });
  });
});
