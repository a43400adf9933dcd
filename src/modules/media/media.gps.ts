import zlib from 'node:zlib';
import { originalFormat } from '../../blocks/images.js';
import { MAX_IMAGE_PIXELS } from './media.inspector.js';
import { loadSharp } from './sharp.js';

/*
 * Where an upload was taken: the GPS IFD of its EXIF, removed from the stored original unless
 * QUIRE_MEDIA_KEEP_GPS is set. The EXIF block is rewritten in place, at its own length, so the pixels and
 * every other tag (orientation, copyright, camera, the colour profile beside it) stay byte for byte: the
 * pointer to the GPS IFD leaves IFD0 and the GPS IFD and its values are zeroed. The block is found in any
 * container (JPEG APP1, PNG eXIf, WebP EXIF, AVIF's Exif item) as the bytes libvips reads it as.
 */

const GPS_POINTER = 0x8825;
/** Bytes of one value of each TIFF field type (1 BYTE … 12 DOUBLE). */
const TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];
const TIFF_START = Buffer.from('Exif\0\0');

class Tiff {
  constructor(
    readonly bytes: Buffer,
    private readonly little: boolean,
  ) {}
  static of(bytes: Buffer): Tiff | null {
    const order = bytes.toString('latin1', 0, 2);
    if (bytes.length < 8 || (order !== 'II' && order !== 'MM')) return null;
    return new Tiff(bytes, order === 'II');
  }
  u16(at: number): number {
    return this.little ? this.bytes.readUInt16LE(at) : this.bytes.readUInt16BE(at);
  }
  u32(at: number): number {
    return this.little ? this.bytes.readUInt32LE(at) : this.bytes.readUInt32BE(at);
  }
  setU16(at: number, value: number): void {
    if (this.little) this.bytes.writeUInt16LE(value, at);
    else this.bytes.writeUInt16BE(value, at);
  }
  fits(at: number, length: number): boolean {
    return at >= 8 && at + length <= this.bytes.length;
  }
}

/**
 * A TIFF structure (the EXIF block without its `Exif\0\0` prefix) with its GPS IFD removed, in a copy of the
 * same length; null when it has none or cannot be read.
 */
export function tiffWithoutGps(block: Buffer): Buffer | null {
  const tiff = Tiff.of(Buffer.from(block));
  if (!tiff) return null;
  const ifd0 = tiff.u32(4);
  if (!tiff.fits(ifd0, 2)) return null;
  const count = tiff.u16(ifd0);
  const end = ifd0 + 2 + count * 12 + 4;
  if (!tiff.fits(ifd0, end - ifd0)) return null;
  let pointer = -1;
  for (let i = 0; i < count; i += 1) if (tiff.u16(ifd0 + 2 + i * 12) === GPS_POINTER) pointer = ifd0 + 2 + i * 12;
  if (pointer < 0) return null;

  const gps = tiff.u32(pointer + 8);
  if (tiff.fits(gps, 2)) {
    const fields = tiff.u16(gps);
    for (let i = 0; i < fields && tiff.fits(gps + 2 + i * 12, 12); i += 1) {
      const entry = gps + 2 + i * 12;
      const bytes = (TYPE_BYTES[tiff.u16(entry + 2)] ?? 1) * tiff.u32(entry + 4);
      const at = tiff.u32(entry + 8);
      if (bytes > 4 && tiff.fits(at, bytes)) tiff.bytes.fill(0, at, at + bytes);
    }
    tiff.bytes.fill(0, gps, Math.min(gps + 2 + fields * 12 + 4, tiff.bytes.length));
  }
  // The entries after the pointer, and the offset of the next IFD, move up one place.
  tiff.bytes.copyWithin(pointer, pointer + 12, end);
  tiff.bytes.fill(0, end - 12, end);
  tiff.setU16(ifd0, count - 1);
  return tiff.bytes;
}

/** A PNG's chunk holding `at` gets its CRC again, over its type and its data as they are now. */
function fixPngCrc(file: Buffer, at: number): void {
  for (let chunk = 8; chunk + 12 <= file.length;) {
    const length = file.readUInt32BE(chunk);
    const data = chunk + 8;
    if (at >= data && at < data + length) {
      file.writeUInt32BE(zlib.crc32(file.subarray(chunk + 4, data + length)), data + length);
      return;
    }
    chunk = data + length + 4;
  }
}

/**
 * The upload without its GPS position, same length, or null when there is none to remove (no EXIF, no GPS
 * IFD, or bytes libvips cannot read, which the decode that follows refuses).
 */
export async function withoutGps(file: Buffer, mimeType: string): Promise<Buffer | null> {
  const sharp = await loadSharp();
  const exif = await sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS })
    .metadata()
    .then((meta) => meta.exif)
    .catch(() => undefined);
  if (!exif) return null;
  const block = exif.subarray(0, TIFF_START.length).equals(TIFF_START) ? exif.subarray(TIFF_START.length) : exif;
  const cleaned = tiffWithoutGps(block);
  if (!cleaned) return null;
  const at = file.indexOf(block);
  if (at < 0) return reencoded(file, mimeType);
  const out = Buffer.from(file);
  cleaned.copy(out, at);
  if (mimeType === 'image/png') fixPngCrc(out, at);
  return out;
}

/**
 * The last resort for a GPS position that libvips read but that is not in the file as it was read (no such
 * file is known): the pixels encoded again, the orientation applied to them, the colour profile kept and no EXIF.
 */
async function reencoded(file: Buffer, mimeType: string): Promise<Buffer> {
  const format = originalFormat(mimeType);
  if (!format) throw new Error(`No encoder to remove the GPS position of a ${mimeType}`);
  const sharp = await loadSharp();
  return sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
    .rotate()
    .keepIccProfile()
    .toFormat(format === 'jpg' ? 'jpeg' : format, { quality: 90 })
    .toBuffer();
}
