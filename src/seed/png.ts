import { crc32, deflateSync } from 'node:zlib';

/*
 * A minimal PNG encoder: 8-bit truecolour, no interlace. Seeded media are real images so that
 * anything sniffing type, width and height from the bytes (uploads, thumbnails) sees what the row says.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes RGB pixels, `width * height * 3` bytes row by row, as a PNG file. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new RangeError('width and height must be positive integers');
  if (rgb.length !== width * height * 3)
    throw new RangeError(`expected ${width * height * 3} bytes of RGB, got ${rgb.length}`);
  const stride = width * 3;
  // Each scanline is prefixed by its filter type, 0 (None): on these gradients deflate alone does
  // better, and faster, than with the Up or Sub filters.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method: adaptive
  ihdr[12] = 0; // no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type Rgb = readonly [number, number, number];

export type Pattern = 'stripes' | 'checks' | 'rings' | 'plain';

export interface Artwork {
  width: number;
  height: number;
  from: Rgb;
  to: Rgb;
  pattern: Pattern;
}

/** A diagonal gradient between two colours, overlaid with a soft pattern: cheap, distinct, and deterministic. */
export function renderArtwork({ width, height, from, to, pattern }: Artwork): Buffer {
  const rgb = new Uint8Array(width * height * 3);
  // The gradient depends on x + y only: one lookup table per channel instead of arithmetic per pixel.
  const span = width + height - 1;
  const ramp = new Float64Array(span * 3);
  for (let s = 0; s < span; s += 1) {
    const t = span > 1 ? s / (span - 1) : 0;
    for (let c = 0; c < 3; c += 1) ramp[s * 3 + c] = from[c]! + (to[c]! - from[c]!) * t;
  }
  const cx = width / 2;
  const cy = height / 2;
  let at = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let shade = 1;
      if (pattern === 'stripes') shade = ((x + y) >> 4) % 2 === 0 ? 1 : 0.85;
      else if (pattern === 'checks') shade = ((x >> 4) + (y >> 4)) % 2 === 0 ? 1 : 0.88;
      else if (pattern === 'rings')
        shade = Math.floor(Math.sqrt((x - cx) ** 2 + (y - cy) ** 2) / 10) % 2 === 0 ? 1 : 0.9;
      const s = (x + y) * 3;
      rgb[at] = ramp[s]! * shade + 0.5;
      rgb[at + 1] = ramp[s + 1]! * shade + 0.5;
      rgb[at + 2] = ramp[s + 2]! * shade + 0.5;
      at += 3;
    }
  }
  return encodePng(width, height, rgb);
}

/** Width and height from a PNG's IHDR, or null when the bytes are not a PNG. */
export function pngSize(file: Uint8Array): { width: number; height: number } | null {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(SIGNATURE) || bytes.toString('ascii', 12, 16) !== 'IHDR')
    return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
