import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import type { Media } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { filePart, startS3Server, storedKeys, uploadMedia, type S3Server } from '../helpers/media.js';

/** A PNG whose left half is red and right half blue: where a crop was taken shows in its colour. */
async function halves(width: number, height: number): Promise<Buffer> {
  const left = await sharp({ create: { width: width / 2, height, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/** The colour at (x, y) of an image, as red, green, blue. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const raw = await sharp(bytes).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer();
  return [...raw];
}

/** Red or blue, allowing for the blend a resize makes along the line between the halves. */
const RED = [expect.closeTo(255, -1.5), expect.closeTo(0, -1.5), expect.closeTo(0, -1.5)];
const BLUE = [expect.closeTo(0, -1.5), expect.closeTo(0, -1.5), expect.closeTo(255, -1.5)];

/**
 * Sizes a layout asks for (media.sizes.ts): any width in steps of 16, crops around the writer's focal point,
 * a quality within bounds, at most MAX_VARIANTS sizes per image beyond the ladder, and a 400 naming the
 * parameter for every size out of bounds. Once per dialect on local storage, and on S3.
 */
export function mediaSizesSuite(dialect: DialectName, storage: 'local' | 's3'): void {
  let ctx: TestContext;
  let s3: S3Server | null = null;
  let key: string;
  let image: Buffer;
  beforeAll(async () => {
    s3 = storage === 's3' ? await startS3Server() : null;
    ctx = await buildTestApp(dialect, { env: { ...s3?.env } });
    ({ key } = await ctx.ownerKey());
    image = await halves(1000, 500);
  });
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });

  async function upload(bytes: Buffer, name: string): Promise<Media> {
    const response = await uploadMedia(ctx, key, [filePart(bytes, name)]);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Media;
  }
  const sized = (media: Media, size: string, format: string) =>
    `/media/${media.workspaceId}/${media.id}/${size}/${media.filename.replace(/\.[^.]+$/, '')}.${format}`;
  const get = (url: string) => ctx.app.inject({ method: 'GET', url });
  const patch = (media: Media, payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'PATCH', url: `${EXTERNAL}/media/${media.id}`, headers: { 'x-api-key': key }, payload });
  const keysOf = async (media: Media) =>
    (await storedKeys(ctx.config)).filter((stored) => stored.startsWith(`${media.workspaceId}/${media.id}/`));

  it('any width in steps of 16 is made, proportions kept, and kept in storage under its own URL', async () => {
    const media = await upload(image, 'steps.png');
    for (const [width, format, sharpFormat] of [
      [496, 'webp', 'webp'],
      [16, 'png', 'png'],
      [992, 'avif', 'heif'],
    ] as const) {
      const response = await get(sized(media, `w${width}`, format));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers).toMatchObject({
        etag: `"${media.id}-w${width}-${format}"`,
        'cache-control': 'public, max-age=31536000, immutable',
      });
      expect(await sharp(response.rawPayload).metadata()).toMatchObject({
        format: sharpFormat,
        width,
        height: width / 2,
      });
    }
    expect(await keysOf(media)).toEqual(
      [
        media.storagePath,
        ...['w496/steps.webp', 'w16/steps.png', 'w992/steps.avif'].map((k) => `${media.workspaceId}/${media.id}/${k}`),
      ].sort(),
    );
  });

  it('a crop keeps the focal point the writer set in view, and a moved focal point is another URL', async () => {
    const media = await upload(image, 'halves.png');
    const set = await patch(media, { focalPoint: { x: 0.9, y: 0.5 } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ focalPoint: { x: 0.9, y: 0.5 } });

    // The focal point in thousandths, as the URL carries it: on the blue right, a square crop is all blue.
    const right = await get(sized(media, 'w480-h480-cover-x900-y500', 'png'));
    expect(right.statusCode, right.body).toBe(200);
    expect(await sharp(right.rawPayload).metadata()).toMatchObject({ width: 480, height: 480 });
    for (const x of [0, 240, 479]) expect(await pixel(right.rawPayload, x, 240), `x ${x}`).toEqual(BLUE);

    // Moved to the red left: another URL, another crop; the first URL still answers what it did.
    const left = await get(sized(media, 'w480-h480-cover-x100-y500', 'png'));
    for (const x of [0, 240, 479]) expect(await pixel(left.rawPayload, x, 240), `x ${x}`).toEqual(RED);
    const again = await get(sized(media, 'w480-h480-cover-x900-y500', 'png'));
    expect(again.rawPayload.equals(right.rawPayload)).toBe(true);

    // No focal point in the URL is the centre: red on the left of the crop, blue on its right.
    const centre = await get(sized(media, 'w480-h480-cover', 'png'));
    expect(await pixel(centre.rawPayload, 10, 240)).toEqual(RED);
    expect(await pixel(centre.rawPayload, 470, 240)).toEqual(BLUE);

    // A wide crop of the whole width shows both halves whatever the focal point; its height is the one asked.
    const wide = await get(sized(media, 'w992-h240-cover-x900-y500-q70', 'webp'));
    expect(wide.statusCode, wide.body).toBe(200);
    expect(await sharp(wide.rawPayload).metadata()).toMatchObject({ width: 992, height: 240 });
  });

  it('a quality from 30 to 90 is used; lower costs fewer bytes', async () => {
    // Noise: what quality changes most.
    const photo = await sharp(crypto.randomBytes(640 * 480 * 3), { raw: { width: 640, height: 480, channels: 3 } })
      .jpeg()
      .toBuffer();
    const media = await upload(photo, 'noise.jpg');
    const low = await get(sized(media, 'w640-q30', 'jpg'));
    const high = await get(sized(media, 'w640-q90', 'jpg'));
    expect([low.statusCode, high.statusCode]).toEqual([200, 200]);
    expect(low.rawPayload.length).toBeLessThan(high.rawPayload.length);
    for (const size of ['w640-q29', 'w640-q91', 'w640-q0']) {
      const response = await get(sized(media, size, 'jpg'));
      expect(response.statusCode, size).toBe(400);
      expect(response.json().details.issues, size).toEqual([
        { in: 'params', path: '/variant/quality', message: expect.stringContaining('quality') },
      ]);
    }
  });

  it('every size out of bounds is a 400 naming the parameter and saying why; nothing is made', async () => {
    const media = await upload(image, 'bounds.png');
    const refused: Array<[string, string, string]> = [
      ['w500', '/variant/width', 'multiple of 16'], // not a step of 16
      ['w2576', '/variant/width', 'from 16 to 2560'],
      ['w0160', '/variant/width', 'leading zero'],
      ['w1008', '/variant/width', '1000 pixels wide'], // wider than the image: never upscaled
      ['w1280', '/variant/width', '1000 pixels wide'], // a ladder width, as wide
      ['w480-h512-cover', '/variant/height', '500 pixels high'],
      ['w480-h300', '/variant/fit', 'fit is required with a height'],
      ['w480-cover', '/variant/height', 'height is required with a fit'],
      ['w480-h300-contain', '/variant/fit', 'contain is not a fit'],
      ['w480-h300-cover-x500', '/variant/y', 'y is required with x'],
      ['w480-x500-y500', '/variant/x', 'applies to a crop only'],
      ['w480-h300-cover-x1001-y500', '/variant/x', 'from 0 to 1000'],
      ['w480-q50-h300-cover', '/variant/height', 'comes too late'],
      ['w480-w320', '/variant/width', 'given twice'],
      ['w480-blur10', '/variant/blur', 'not a parameter'],
      ['h300-cover', '/variant/width', 'width is required'],
      ['w480-q70', '/variant/quality', 'lossless'], // a PNG has no quality
    ];
    for (const [size, path, words] of refused) {
      const response = await get(sized(media, size, 'png'));
      expect(response.statusCode, size).toBe(400);
      const body = response.json();
      expect(body.code, size).toBe('BAD_REQUEST');
      expect(body.details.issues, size).toContainEqual({
        in: 'params',
        path,
        message: expect.stringContaining(words),
      });
    }
    expect(await keysOf(media)).toEqual([media.storagePath]);
    // A malformed or unknown id stays a 404, whatever the size; so do another name or format.
    for (const url of [
      `/media/${media.workspaceId}/not-a-uuid/w500/bounds.png`,
      `/media/NOT-A-UUID/${media.id}/w480/bounds.png`,
      `/media/${media.workspaceId}/${crypto.randomUUID()}/w480/bounds.png`,
      sized(media, 'w480', 'gif'),
      `/media/${media.workspaceId}/${media.id}/w480/other.png`,
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it(`at most 64 sizes of an image beyond the ladder, counted once each, even when asked at once`, async () => {
    const media = await upload(await halves(160, 160), 'bounded.png');
    const focal = (n: number) => sized(media, `w16-h16-cover-x${n * 10}-y0`, n % 2 ? 'webp' : 'png');
    const answers = await Promise.all(Array.from({ length: 70 }, (_, n) => get(focal(n))));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(64);
    expect(statuses.filter((status) => status === 400)).toHaveLength(6);
    expect(answers.find((answer) => answer.statusCode === 400)!.json()).toMatchObject({
      code: 'BAD_REQUEST',
      details: { reason: 'too_many_variants', maxVariants: 64 },
    });
    // Those made are still served; a ladder width is never counted.
    const made = answers.findIndex((answer) => answer.statusCode === 200);
    expect((await get(focal(made))).statusCode).toBe(200);
    expect((await get(sized(media, 'w160', 'webp'))).statusCode).toBe(200);
    expect((await get(sized(media, 'w32', 'webp'))).statusCode).toBe(400);
    expect(await keysOf(media)).toHaveLength(1 + 64 + 1);

    // Deleting the media removes every size made of it, and what counted them.
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `${EXTERNAL}/media/${media.id}`,
      headers: { 'x-api-key': key },
    });
    expect(removed.statusCode).toBe(200);
    expect(await keysOf(media)).toEqual([]);
    const rows = await ctx.runtime.database.db
      .selectFrom('media_variants')
      .select('size')
      .where('media_id', '=', media.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('the ladder URLs the srcset answers are unchanged: the same files as the fixed ladder made', async () => {
    const media = await upload(image, 'ladder.png');
    expect(media.srcset?.webp.map((entry) => entry.url)).toEqual(
      [160, 320, 640, 960].map((width) => `${ctx.config.publicUrl}${sized(media, `w${width}`, 'webp')}`),
    );
    const former = {
      webp: (width: number) => sharp(image).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }),
      avif: (width: number) =>
        sharp(image).rotate().resize({ width, withoutEnlargement: true }).avif({ quality: 55, effort: 2 }),
      png: (width: number) =>
        sharp(image).rotate().resize({ width, withoutEnlargement: true }).png({ compressionLevel: 8 }),
    };
    for (const format of ['webp', 'avif', 'png'] as const) {
      const response = await get(sized(media, 'w320', format));
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe(`"${media.id}-w320-${format}"`);
      expect(response.rawPayload.equals(await former[format](320).toBuffer()), format).toBe(true);
    }
  });
}
