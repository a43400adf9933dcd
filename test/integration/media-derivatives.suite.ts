import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import type { Media } from '../../src/modules/media/media.schemas.js';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import {
  filePart,
  GIF_3X2,
  pathOf,
  png,
  pngBomb,
  startS3Server,
  storedKeys,
  SVG,
  uploadMedia,
  type S3Server,
} from '../helpers/media.js';

/** A 1000×750 JPEG stored turned (EXIF orientation 6: shown 750 wide, 1000 high), with a copyright to strip. */
async function turnedPhoto(): Promise<Buffer> {
  const left = await sharp({ create: { width: 500, height: 750, channels: 3, background: '#d03030' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1000, height: 750, channels: 3, background: '#3050d0' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 85 })
    .withExif({ IFD0: { Copyright: 'Quire test' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * Responsive images end to end: what an upload learns from its pixels, the srcset the API answers, the
 * derivatives made on first request and kept in storage. Once per dialect on local storage, and on S3.
 */
export function mediaDerivativesSuite(dialect: DialectName, storage: 'local' | 's3'): void {
  let ctx: TestContext;
  let s3: S3Server | null = null;
  let photo: Buffer;
  beforeAll(async () => {
    s3 = storage === 's3' ? await startS3Server() : null;
    ctx = await buildTestApp(dialect, { env: { ...s3?.env } });
    photo = await turnedPhoto();
  });
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });

  async function upload(key: string, bytes: Buffer, name: string): Promise<Media> {
    const response = await uploadMedia(ctx, key, [filePart(bytes, name)]);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Media;
  }
  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: pathOf(url), headers });
  const derivative = (media: Media, width: number, format: string) =>
    `${ctx.config.publicUrl}/media/${media.workspaceId}/${media.id}/w${width}/${media.filename.replace(/\.[^.]+$/, '')}.${format}`;

  it('an upload carries its displayed size, a placeholder and the srcset of the ladder widths it can fill', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, photo, 'Harbour.jpg');
    expect(media).toMatchObject({ width: 750, height: 1000, mimeType: 'image/jpeg' });
    expect(media.placeholder?.dataUri).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
    expect(media.placeholder!.dataUri.length).toBeLessThan(400);
    expect(media.placeholder?.color).toMatch(/^#[0-9a-f]{6}$/);
    const widths = [160, 320, 640];
    expect(media.srcset).toEqual({
      avif: widths.map((width) => ({ width, url: derivative(media, width, 'avif') })),
      webp: widths.map((width) => ({ width, url: derivative(media, width, 'webp') })),
      original: widths.map((width) => ({ width, url: derivative(media, width, 'jpg') })),
    });
    const read = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/media/${media.id}`,
      headers: { 'x-api-key': key },
    });
    expect(read.json()).toEqual(media);
  });

  it('a derivative is made on first request, oriented, stripped, kept in storage and served like the original', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, photo, 'pier.jpg');
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    for (const [format, mimeType, sharpFormat] of [
      ['webp', 'image/webp', 'webp'],
      ['avif', 'image/avif', 'heif'],
      ['jpg', 'image/jpeg', 'jpeg'],
    ] as const) {
      const url = derivative(media, 320, format);
      const first = await get(url);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.headers).toMatchObject({
        'content-type': mimeType,
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=31536000, immutable',
        etag: `"${media.id}-w320-${format}"`,
        'content-length': String(first.rawPayload.length),
      });
      const meta = await sharp(first.rawPayload).metadata();
      // Turned upright: the left half of the stored grid (red) is now the top.
      expect(meta).toMatchObject({ format: sharpFormat, width: 320, height: 427 });
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      const top = await sharp(first.rawPayload)
        .extract({ left: 150, top: 20, width: 1, height: 1 })
        .removeAlpha()
        .raw()
        .toBuffer();
      expect(top[0], 'red').toBeGreaterThan(top[2]!);
      expect(await storedKeys(ctx.config)).toContain(`${media.workspaceId}/${media.id}/w320/pier.${format}`);
      const again = await get(url);
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect((await get(url, { 'if-none-match': `"${media.id}-w320-${format}"` })).statusCode).toBe(304);
    }
  });

  it('a size off the steps or wider than the image is a 400; another format or name a 404 envelope', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, photo, 'cliff.jpg');
    const base = `/media/${media.workspaceId}/${media.id}`;
    for (const [path, pointer] of [
      [`${base}/w300/cliff.webp`, '/variant/width'], // not a step of 16 (media-sizes.suite.ts has every refusal)
      [`${base}/w960/cliff.webp`, '/variant/width'], // wider than the image: never upscaled
      [`${base}/w0160/cliff.webp`, '/variant/width'],
      [`${base}/x320/cliff.webp`, '/variant/width'], // no width
    ] as const) {
      const response = await ctx.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().details.issues, path).toContainEqual(
        expect.objectContaining({ in: 'params', path: pointer }),
      );
    }
    for (const path of [
      `${base}/w320/cliff.gif`, // not a derivative format
      `${base}/w320/cliff.png`, // not this image's own format
      `${base}/w320/other.webp`, // not its name
      `${base}/w320/cliff`,
      `/media/${media.workspaceId}/${crypto.randomUUID()}/w320/cliff.webp`,
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.json(), path).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await storedKeys(ctx.config)).not.toContain(`${media.workspaceId}/${media.id}/w320/other.webp`);
  });

  it('GIF and SVG are served as they are: no srcset, no derivatives', async () => {
    const { key } = await ctx.ownerKey();
    const gif = await upload(key, GIF_3X2, 'spin.gif');
    const svg = await upload(key, SVG, 'logo.svg');
    expect(gif.srcset).toBeNull();
    expect(gif.placeholder?.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(svg).toMatchObject({ srcset: null, placeholder: null });
    const png160 = await upload(key, png(200, 100), 'wide.png');
    expect(png160.srcset?.original).toEqual([{ width: 160, url: derivative(png160, 160, 'png') }]);
    expect((await get(derivative(png160, 160, 'png'))).headers['content-type']).toBe('image/png');
  });

  it('a file that does not decode, or only partly, is refused with a reason, leaving no file and no row', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const before = await storedKeys(ctx.config);
    // Headers intact (the type and size read), then pixel data that does not inflate; and half a JPEG.
    const scrambled = png(40, 30);
    scrambled.fill(0x41, 41, scrambled.length - 16);
    for (const [bytes, name] of [
      [scrambled, 'scrambled.png'],
      [photo.subarray(0, Math.floor(photo.length * 0.6)), 'cut.jpg'],
    ] as const) {
      const response = await uploadMedia(ctx, key, [filePart(bytes, name)]);
      expect(response.statusCode, name).toBe(400);
      expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', details: { reason: 'corrupt_image' } });
    }
    expect(await storedKeys(ctx.config)).toEqual(before);
    const rows = await ctx.runtime.database.db
      .selectFrom('media')
      .select('id')
      .where('workspace_id', '=', workspace.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('an image in storage that decodes only partly is still served, but its derivatives answer an error', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, photo, 'cut.jpg');
    // Damaged in storage after its upload was checked (or stored by a version that did not check).
    const truncated = photo.subarray(0, Math.floor(photo.length * 0.6));
    await createMediaStorage(ctx.config).put(media.storagePath, Readable.from([truncated]), {
      contentType: 'image/jpeg',
    });
    const original = await get(media.url);
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(truncated)).toBe(true);
    const resized = await get(derivative(media, 320, 'webp'));
    expect(resized.statusCode).toBe(404);
    expect(resized.json()).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'undecodable_image' } });
  });

  it('a decompression bomb in storage is refused from its header, without decoding it', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, png(2000, 1000), 'calm.png');
    // The upload checks refuse such a file; this one reaches storage behind their back (an older version, a restore).
    const bomb = await pngBomb(15_000, 10_000);
    await createMediaStorage(ctx.config).put(media.storagePath, Readable.from([bomb]), { contentType: 'image/png' });
    const rss = process.memoryUsage().rss;
    const response = await get(derivative(media, 1280, 'webp'));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ details: { reason: 'undecodable_image' } });
    // 150 megapixels: under sharp's own default limit, so only ours keeps it from being decoded.
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
  });

  it('eight different derivatives asked for at once are all made, each once', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, photo, 'many.jpg');
    const asked = [160, 320, 640].flatMap((width) =>
      ['webp', 'avif', 'jpg'].map((format) => derivative(media, width, format)),
    );
    const answers = await Promise.all([...asked.slice(0, 8), asked[0]!].map((url) => get(url)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(9).fill(200));
    expect(answers[8]!.rawPayload.equals(answers[0]!.rawPayload)).toBe(true);
    const keys = (await storedKeys(ctx.config)).filter((stored) =>
      stored.startsWith(`${media.workspaceId}/${media.id}/`),
    );
    expect(keys.filter((stored) => stored !== `${media.storagePath}`)).toHaveLength(8);
  });

  it('deleting the media removes its derivatives from storage', async () => {
    const { key } = await ctx.ownerKey();
    const media = await upload(key, photo, 'gone.jpg');
    expect((await get(derivative(media, 160, 'webp'))).statusCode).toBe(200);
    expect((await get(derivative(media, 640, 'avif'))).statusCode).toBe(200);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `${EXTERNAL}/media/${media.id}`,
      headers: { 'x-api-key': key },
    });
    expect(removed.statusCode).toBe(200);
    const left = (await storedKeys(ctx.config)).filter((stored) => stored.includes(media.id));
    expect(left).toEqual([]);
    expect((await get(derivative(media, 160, 'webp'))).statusCode).toBe(404);
  });

  describe('posts carry the same fields in their featured media and image blocks', () => {
    it('a read of a post answers srcset, size and placeholder, and so does the list', async () => {
      const { key } = await ctx.ownerKey();
      const media = await upload(key, photo, 'post.jpg');
      const created = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': key },
        payload: {
          title: 'Harbour',
          featuredMediaId: media.id,
          bodyJson: [{ type: 'image', mediaId: media.id, alt: 'Pier' }],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = (created.json() as { id: string }).id;
      const fields = { width: 750, height: 1000, srcset: media.srcset, placeholder: media.placeholder };
      for (let read = 0; read < 2; read += 1) {
        // The second read may be a stored render: it must carry the same.
        const post = (
          await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts/${id}`, headers: { 'x-api-key': key } })
        ).json();
        expect(post.featuredMedia).toEqual(media);
        expect(post.bodyJson[0]).toEqual({ type: 'image', mediaId: media.id, alt: 'Pier', url: media.url, ...fields });
      }
      const list = (
        await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': key } })
      ).json();
      expect(list.data[0].featuredMedia.srcset).toEqual(media.srcset);
      // A read's block written back as it came is accepted and stored without what the read added.
      const post = (
        await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts/${id}`, headers: { 'x-api-key': key } })
      ).json();
      const patched = await ctx.app.inject({
        method: 'PATCH',
        url: `${EXTERNAL}/posts/${id}`,
        headers: { 'x-api-key': key },
        payload: { bodyJson: post.bodyJson },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const row = await ctx.runtime.database.db
        .selectFrom('posts')
        .select('body_json')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(String(row.body_json))).toEqual([{ type: 'image', mediaId: media.id, alt: 'Pier' }]);
    });
  });
}
