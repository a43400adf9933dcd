import { describe, expect, it } from 'vitest';
import { postColumns } from '../modules/posts/posts.columns.js';
import { columnMap, computed, flag, json, stored } from './columns.js';

interface Body {
  name: string;
  'odd "key"': string;
  live: boolean;
  meta: object;
  derived: string;
  rows: string[];
}

const map = columnMap<Body>({
  name: stored('name'),
  'odd "key"': stored('odd"column'),
  live: flag('is_live', { initial: false }),
  meta: json('meta'),
  derived: computed('derived_text', (value) => `read ${String(value)}`),
  rows: computed(),
});

describe('columnMap read', () => {
  it("answers every field with a column, through that column's reader, in the map's order", () => {
    const row = { name: 'A', 'odd"column': 'B', is_live: 1, meta: '{"x":[1]}', derived_text: 'C', other: 'D' };
    const fields = map.read(row);
    expect(fields).toStrictEqual({ name: 'A', 'odd "key"': 'B', live: true, meta: { x: [1] }, derived: 'read C' });
    expect(Object.keys(fields)).toEqual(['name', 'odd "key"', 'live', 'meta', 'derived']);
  });

  it('answers a new object on each read', () => {
    const row = { name: 'A', 'odd"column': 'B', is_live: 0, meta: 'null', derived_text: null };
    const first = map.read(row);
    expect(map.read(row)).not.toBe(first);
    expect(first).toStrictEqual({ name: 'A', 'odd "key"': 'B', live: false, meta: null, derived: 'read null' });
  });

  it("reads a post row's every column field", () => {
    const row = Object.fromEntries(postColumns.columns.map((column) => [column, column]));
    const fields = postColumns.read({ ...row, seo: '{"title":"T"}', structured_data: 'null', is_how_to: 0 });
    expect(Object.keys(fields).sort()).toEqual(
      postColumns.fields
        .filter((field) => field !== 'bodyJson' && field !== 'structuredBlocks' && field !== 'relatedPostIds')
        .sort(),
    );
    expect(fields).toMatchObject({
      slug: 'slug',
      title: 'title',
      seo: { title: 'T' },
      isHowTo: false,
      structuredData: null,
    });
  });
});
