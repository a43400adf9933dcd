import { describe, expect, it } from 'vitest';
import { tiffWithoutGps } from './media.gps.js';

/** A big-endian EXIF block, as Nikon and others write it: IFD0 with Copyright and the GPS pointer, then a latitude. */
function bigEndianTiff(): Buffer {
  const tiff = Buffer.alloc(88);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(2, 8); // IFD0: two entries
  tiff.writeUInt16BE(0x8825, 10); // the GPS pointer first, so the Copyright entry must move up
  tiff.writeUInt16BE(4, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt32BE(46, 18);
  tiff.writeUInt16BE(0x8298, 22); // Copyright, "Jane" (four bytes: held in the entry itself)
  tiff.writeUInt16BE(2, 24);
  tiff.writeUInt32BE(4, 26);
  tiff.write('Jane', 30, 'latin1');
  tiff.writeUInt32BE(0, 34); // no IFD1
  tiff.writeUInt16BE(1, 46); // the GPS IFD: GPSLatitude, three rationals at 64
  tiff.writeUInt16BE(2, 48);
  tiff.writeUInt16BE(5, 50);
  tiff.writeUInt32BE(3, 52);
  tiff.writeUInt32BE(64, 56);
  [48, 1, 51, 1, 2940, 100].forEach((n, i) => tiff.writeUInt32BE(n, 64 + i * 4));
  return tiff;
}

describe('the GPS IFD removed from an EXIF block', () => {
  it('in a big-endian block: the pointer leaves IFD0, the entries after it move up, the position is zeroed', () => {
    const block = bigEndianTiff();
    const cleaned = tiffWithoutGps(block)!;
    expect(cleaned).toHaveLength(block.length);
    expect(cleaned.readUInt16BE(8)).toBe(1);
    expect(cleaned.readUInt16BE(10)).toBe(0x8298);
    expect(cleaned.toString('latin1', 18, 22)).toBe('Jane');
    expect(cleaned.readUInt32BE(22)).toBe(0); // the next-IFD offset, moved up with the entries
    expect(cleaned.subarray(46).equals(Buffer.alloc(block.length - 46))).toBe(true);
    expect(block.readUInt16BE(8)).toBe(2); // the input is left as it was
  });

  it('answers null for a block without a GPS IFD, or one it cannot read', () => {
    const block = bigEndianTiff();
    block.writeUInt16BE(0x010f, 10); // Make instead of the pointer
    expect(tiffWithoutGps(block)).toBeNull();
    expect(tiffWithoutGps(Buffer.from('not a tiff at all'))).toBeNull();
    const cut = bigEndianTiff().subarray(0, 20);
    expect(tiffWithoutGps(cut)).toBeNull();
  });
});
