import zlib from 'node:zlib';

/**
 * Answers sent as gzip without compressing them on the request (docs/performance.md, "Gzip spliced from stored
 * forms"). A stored post render keeps its deflated form beside it: deflate blocks ended by a full flush, which
 * depend on nothing before them and end on a byte. Deflated forms of consecutive bytes therefore join into the deflated
 * form of the whole, and a page of posts is its items' stored forms with its own few bytes of framing between
 * them, wrapped in gzip's header and trailer. The trailer's CRC-32 is zlib's over the page, which it computes many
 * times faster than it compresses.
 *
 * The deflated form travels with the bytes it inflates to, as the answers are passed along as plain Buffers: kept
 * here by the Buffer's identity, so a Buffer copied or cut loses it and is compressed as any other answer.
 */

/**
 * zlib's default level: a stored form is made once, when its render is, and sent with every answer that holds
 * the post, so the bytes it saves over the fastest level are saved many times for a cost paid once.
 */
const STORED = { level: 6, finishFlush: zlib.constants.Z_FULL_FLUSH };
/** A page's framing is a few dozen bytes, made on each answer. */
const FRAMING = { level: 1, finishFlush: zlib.constants.Z_FULL_FLUSH };

/** A gzip member's header: deflate, no name or time, Unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final block (fixed codes, end of block only): what ends the joined blocks. */
const LAST_BLOCK = Buffer.from([3, 0]);

const forms = new WeakMap<Buffer, readonly Buffer[]>();

/** The stored deflated form of a render: see above. */
export function deflateForStore(bytes: Buffer): Buffer {
  return zlib.deflateRawSync(bytes, STORED);
}

/** The deflated form of a few bytes made on the request (a page's framing). */
export function deflateFraming(bytes: Buffer): Buffer {
  return zlib.deflateRawSync(bytes, FRAMING);
}

/** Records that `pieces`, joined, are the deflated form of `bytes`; returns `bytes`. */
export function keepDeflated(bytes: Buffer, pieces: readonly Buffer[]): Buffer {
  forms.set(bytes, pieces);
  return bytes;
}

/** The deflated form of `bytes`, as the pieces that join into it, when one was kept; else undefined. */
export function deflatedPieces(bytes: Buffer): readonly Buffer[] | undefined {
  return forms.get(bytes);
}

/** `bytes` as one gzip member, from their kept deflated form; undefined when none was kept. */
export function splicedGzip(bytes: Buffer): Buffer | undefined {
  const pieces = forms.get(bytes);
  if (pieces === undefined) return undefined;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(bytes), 0);
  // ISIZE is the length modulo 2^32.
  trailer.writeUInt32LE(bytes.length % 2 ** 32, 4);
  return Buffer.concat([HEADER, ...pieces, LAST_BLOCK, trailer]);
}
