import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng, pngSize, renderArtwork } from './png.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The chunks of a PNG, each with its CRC checked. */
function chunks(file: Buffer): Array<{ type: string; data: Buffer }> {
  const out: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    const type = file.toString('ascii', at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    expect(file.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(crc32(file.subarray(at + 4, at + 8 + length)));
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

describe('encodePng', () => {
  const width = 5;
  const height = 3;
  const rgb = Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * 17) % 256);
  const file = encodePng(width, height, rgb);

  it('writes the signature, then IHDR, IDAT and IEND with valid CRCs', () => {
    expect([...file.subarray(0, 8)]).toEqual(SIGNATURE);
    expect(chunks(file).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  });

  it('declares the size, 8-bit truecolour and no interlace in IHDR', () => {
    const ihdr = chunks(file)[0]!.data;
    expect(ihdr.length).toBe(13);
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)]).toEqual([width, height]);
    expect([...ihdr.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
    expect(pngSize(file)).toEqual({ width, height });
  });

  it('inflates to one filter byte plus the pixels of every row', () => {
    const raw = inflateSync(chunks(file)[1]!.data);
    expect(raw.length).toBe(height * (1 + width * 3));
    for (let y = 0; y < height; y += 1) {
      const row = raw.subarray(y * (1 + width * 3), (y + 1) * (1 + width * 3));
      expect(row[0]).toBe(0);
      expect([...row.subarray(1)]).toEqual([...rgb.subarray(y * width * 3, (y + 1) * width * 3)]);
    }
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow(RangeError);
    expect(() => encodePng(0, 2, new Uint8Array(0))).toThrow(RangeError);
  });
});

describe('renderArtwork', () => {
  it('renders every pattern at the size asked, the same bytes every time', () => {
    for (const pattern of ['stripes', 'checks', 'rings', 'plain'] as const) {
      const art = { width: 64, height: 48, from: [0, 128, 128], to: [255, 191, 0], pattern } as const;
      const file = renderArtwork(art);
      expect(pngSize(file)).toEqual({ width: 64, height: 48 });
      expect(inflateSync(chunks(file)[1]!.data).length).toBe(48 * (1 + 64 * 3));
      expect(renderArtwork(art).equals(file)).toBe(true);
    }
  });

  it('says null for bytes that are not a PNG', () => {
    expect(pngSize(Buffer.from('GIF89a not a png at all, really'))).toBeNull();
  });
});
