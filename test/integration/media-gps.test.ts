import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, pathOf, uploadMedia } from '../helpers/media.js';

/*
 * Where a photo was taken leaves an upload (issue 35): the stored original has no GPS position unless
 * QUIRE_MEDIA_KEEP_GPS=true, keeps its other EXIF tags and its pixels, and its size is the stored file's.
 */

const EXIF = {
  IFD0: { Copyright: 'Jane Doe, all rights reserved', Artist: 'Jane Doe' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 51/1 2940/100',
    GPSLongitudeRef: 'E',
    GPSLongitude: '2/1 17/1 4000/100',
  },
};
const COPYRIGHT = 0x8298;
const GPS_POINTER = 0x8825;

/** The tags of IFD0 of an EXIF block as libvips hands it over, read without the code under test. */
function ifd0Tags(exif: Buffer): number[] {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const ifd0 = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(ifd0) }, (_, i) => u16(ifd0 + 2 + i * 12));
}

/** The latitude's rationals as stored (48/1 51/1 2940/100), wherever they might be left in the file. */
function latitudeBytes(little: boolean): Buffer {
  const out = Buffer.alloc(24);
  [48, 1, 51, 1, 2940, 100].forEach((n, i) => (little ? out.writeUInt32LE(n, i * 4) : out.writeUInt32BE(n, i * 4)));
  return out;
}

/** Every chunk of a PNG carries the CRC of its type and data, which a strict reader checks. */
function pngCrcsHold(file: Buffer): boolean {
  for (let chunk = 8; chunk + 12 <= file.length;) {
    const length = file.readUInt32BE(chunk);
    const crc = zlib.crc32(file.subarray(chunk + 4, chunk + 8 + length));
    if (crc !== file.readUInt32BE(chunk + 8 + length)) return false;
    chunk += length + 12;
  }
  return true;
}

function photo(format: 'jpeg' | 'png' | 'webp' | 'avif'): Promise<Buffer> {
  const image = sharp({ create: { width: 24, height: 16, channels: 3, background: '#3a7' } })
    .withExif(EXIF)
    .withMetadata({ orientation: 6 });
  return image[format]().toBuffer();
}

const FORMATS = [
  ['JPEG', 'jpeg', 'jpg'],
  ['PNG', 'png', 'png'],
  ['WebP', 'webp', 'webp'],
  ['AVIF', 'avif', 'avif'],
] as const;

describeEachDialect('the GPS position of uploads', (dialect) => {
  let ctx: TestContext;
  let keeping: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    keeping = await buildTestApp(dialect, { env: { QUIRE_MEDIA_KEEP_GPS: 'true' } });
  });
  afterAll(async () => {
    await ctx?.close();
    await keeping?.close();
  });

  async function uploadAndServe(app: TestContext, bytes: Buffer, extension: string) {
    const { key } = await app.ownerKey();
    const response = await uploadMedia(app, key, [filePart(bytes, `photo.${extension}`)]);
    expect(response.statusCode, response.body).toBe(201);
    const media = response.json() as { url: string; sizeBytes: number };
    const served = await app.app.inject({ method: 'GET', url: pathOf(media.url) });
    expect(served.statusCode).toBe(200);
    return { media, served: served.rawPayload };
  }

  describe.each(FORMATS)('%s', (_name, format, extension) => {
    it('is removed from the stored original; the other tags and the pixels stay', async () => {
      const upload = await photo(format);
      expect(ifd0Tags((await sharp(upload).metadata()).exif!)).toContain(GPS_POINTER);
      const { media, served } = await uploadAndServe(ctx, upload, extension);

      const metadata = await sharp(served).metadata();
      // AVIF keeps its rotation in a box of its own, not in EXIF.
      expect(metadata.orientation).toBe(format === 'avif' ? undefined : 6);
      const exif = metadata.exif!;
      expect(ifd0Tags(exif)).not.toContain(GPS_POINTER);
      expect(ifd0Tags(exif)).toContain(COPYRIGHT);
      expect(exif.includes('Jane Doe, all rights reserved')).toBe(true);
      expect(served.includes(latitudeBytes(true)) || served.includes(latitudeBytes(false))).toBe(false);
      expect(media.sizeBytes).toBe(served.length);
      if (format === 'png') expect(pngCrcsHold(served)).toBe(true);
      expect(
        (await sharp(served, { failOn: 'error' }).raw().toBuffer()).equals(await sharp(upload).raw().toBuffer()),
      ).toBe(true);
    });

    it('is kept, with the file as uploaded, when QUIRE_MEDIA_KEEP_GPS=true', async () => {
      const upload = await photo(format);
      const { media, served } = await uploadAndServe(keeping, upload, extension);
      expect(served.equals(upload)).toBe(true);
      expect(media.sizeBytes).toBe(upload.length);
    });
  });

  it('leaves an upload without a GPS position byte for byte as it came', async () => {
    const upload = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .withExif({ IFD0: { Copyright: 'Jane Doe' } })
      .jpeg()
      .toBuffer();
    const { served } = await uploadAndServe(ctx, upload, 'jpg');
    expect(served.equals(upload)).toBe(true);
  });
});
