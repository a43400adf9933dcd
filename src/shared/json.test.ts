import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonWithRaw } from './json.js';

describe('jsonWithRaw', () => {
  it("puts the raw members after the object's own, as they are", () => {
    expect(jsonWithRaw({ title: 'A', status: 'draft' }, { bodyJson: '[{"type":"p"}]', ids: '[]' })).toBe(
      '{"title":"A","status":"draft","bodyJson":[{"type":"p"}],"ids":[]}',
    );
    // Stored JSON keeps its own spacing: the member is the stored text, not a serialization of it.
    expect(jsonWithRaw({ a: 1 }, { b: '[ 1, 2 ]' })).toBe('{"a":1,"b":[ 1, 2 ]}');
  });

  it('writes a valid object when either side is empty, and each key once', () => {
    expect(jsonWithRaw({}, { b: 'null' })).toBe('{"b":null}');
    expect(jsonWithRaw({ a: 1 }, {})).toBe('{"a":1}');
    expect(jsonWithRaw({}, {})).toBe('{}');
    expect(jsonWithRaw({ a: 1, b: 2 }, { b: '3' })).toBe('{"a":1,"b":3}');
    expect(jsonWithRaw({ 'say "hi"': 1 }, { 'a\nb': '"x"' })).toBe('{"say \\"hi\\"":1,"a\\nb":"x"}');
  });

  it('parses to what serializing the whole object would have given', () => {
    const key = fc.string({ maxLength: 6 });
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue()), fc.dictionary(key, fc.jsonValue()), (own, stored) => {
        const raw = Object.fromEntries(Object.entries(stored).map(([k, value]) => [k, JSON.stringify(value)]));
        const expected = JSON.parse(JSON.stringify({ ...own, ...stored })) as unknown;
        expect(JSON.parse(jsonWithRaw(own, raw))).toEqual(expected);
      }),
    );
  });
});
