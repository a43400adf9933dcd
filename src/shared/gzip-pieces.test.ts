import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deflateForStore, deflateFraming, deflatedPieces, keepDeflated, splicedGzip } from './gzip-pieces.js';

describe('gzip spliced from deflated pieces', () => {
  it('inflates to the bytes whatever the pieces, their sizes and how each was deflated', () => {
    const part = fc.record({
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 70_000 }),
        fc.string({ maxLength: 5_000 }).map((text) => text.repeat(3)),
      ),
      stored: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), (parts) => {
        const buffers = parts.map(({ bytes }) => Buffer.from(bytes));
        const whole = Buffer.concat(buffers);
        keepDeflated(
          whole,
          parts.map(({ stored }, index) => (stored ? deflateForStore : deflateFraming)(buffers[index]!)),
        );
        const gzip = splicedGzip(whole)!;
        expect(zlib.gunzipSync(gzip).equals(whole)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('is kept for those very bytes only: a copy, or bytes never given a form, are compressed as any others', () => {
    const bytes = Buffer.from('{"title":"Spliced"}');
    keepDeflated(bytes, [deflateForStore(bytes)]);
    expect(deflatedPieces(bytes)).toHaveLength(1);
    expect(splicedGzip(Buffer.from(bytes))).toBeUndefined();
    expect(splicedGzip(bytes.subarray(1))).toBeUndefined();
  });
});
