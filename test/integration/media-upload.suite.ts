import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import type { Media } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import {
  AVIF_64X48,
  filePart,
  GIF_3X2,
  JPEG_3X2,
  jpegDeclaring,
  multipart,
  pathOf,
  png,
  startS3Server,
  storedKeys,
  SVG,
  uploadMedia,
  WEBP_LOSSLESS_3X2,
  WEBP_LOSSY_3X2,
  type S3Server,
} from '../helpers/media.js';
import { expectError, expectIssue, ISO, UUID } from '../helpers/posts.js';

/** Large enough for S3's multipart path (parts of 5 MiB), small enough to cross in a test. */
export const UPLOAD_LIMIT = 6 * 1024 * 1024;

/**
 * Uploading, serving and deleting files, end to end through the routes: run once per dialect with
 * the local driver, and against a real S3-compatible server.
 */
export function mediaUploadSuite(dialect: DialectName, storage: 'local' | 's3'): void {
  let ctx: TestContext;
  let s3: S3Server | null = null;
  beforeAll(async () => {
    s3 = storage === 's3' ? await startS3Server() : null;
    ctx = await buildTestApp(dialect, { env: { ...s3?.env, QUIRE_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) } });
  });
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });

  const mediaRows = (workspaceId: string) =>
    ctx.runtime.database.db.selectFrom('media').selectAll().where('workspace_id', '=', workspaceId).execute();
  const fetchFile = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    ctx.app.inject({ method, url: pathOf(url), headers });

  async function upload(key: string, ...parts: Parameters<typeof uploadMedia>[2]): Promise<Media> {
    const response = await uploadMedia(ctx, key, parts);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Media;
  }

  it('the storage driver is the one under test', () => {
    expect(ctx.config.mediaStorage.driver).toBe(storage);
  });

  describe('real files: the type is sniffed from the bytes and the size read from the header', () => {
    const cases: Array<[string, Buffer, string, string, number, number]> = [
      ['PNG', png(7, 5), 'image/png', 'png', 7, 5],
      ['JPEG', JPEG_3X2, 'image/jpeg', 'jpg', 3, 2],
      ['lossless WebP', WEBP_LOSSLESS_3X2, 'image/webp', 'webp', 3, 2],
      ['lossy WebP', WEBP_LOSSY_3X2, 'image/webp', 'webp', 3, 2],
      ['GIF', GIF_3X2, 'image/gif', 'gif', 3, 2],
      ['AVIF', AVIF_64X48, 'image/avif', 'avif', 64, 48],
      ['SVG', SVG, 'image/svg+xml', 'svg', 120, 80],
    ];

    it.each(cases)('%s', async (_name, bytes, mimeType, extension, width, height) => {
      const { workspace, key, keyId } = await ctx.ownerKey();
      const media = await upload(
        key,
        filePart(bytes, `Holiday Photo.${extension.toUpperCase()}`, 'application/octet-stream'),
      );
      expect(media).toMatchObject({
        workspaceId: workspace.id,
        filename: `holiday-photo.${extension}`,
        mimeType,
        width,
        height,
        sizeBytes: bytes.length,
        alt: null,
        caption: null,
        uploadedByUserId: workspace.owner.id,
        uploadedByApiKeyId: keyId,
      });
      expect(media.id).toMatch(UUID);
      expect(media.createdAt).toMatch(ISO);
      expect(media.storagePath).toBe(`${workspace.id}/${media.id}/holiday-photo.${extension}`);
      expect(media.url).toBe(`${ctx.config.publicUrl}/media/${workspace.id}/${media.id}/holiday-photo.${extension}`);
      expect(await storedKeys(ctx.config)).toContain(media.storagePath);

      const served = await fetchFile(media.url);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers['content-type']).toBe(mimeType);
      expect(served.headers['content-length']).toBe(String(bytes.length));

      const read = await ctx.app.inject({
        method: 'GET',
        url: `${EXTERNAL}/media/${media.id}`,
        headers: { 'x-api-key': key },
      });
      expect(read.json()).toEqual(media);
    });

    it('a file whose name and Content-Type lie is stored as what its bytes are', async () => {
      const { key } = await ctx.ownerKey();
      const media = await upload(key, filePart(png(2, 2), 'x.jpg', 'image/jpeg'));
      expect(media).toMatchObject({ mimeType: 'image/png', filename: 'x.png', width: 2, height: 2 });
      expect((await fetchFile(media.url)).headers['content-type']).toBe('image/png');
    });

    it('a PDF is kept without dimensions', async () => {
      const { key } = await ctx.ownerKey();
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
      const media = await upload(key, filePart(pdf, 'Report 2024.pdf', 'application/pdf'));
      expect(media).toMatchObject({
        mimeType: 'application/pdf',
        filename: 'report-2024.pdf',
        width: null,
        height: null,
      });
    });

    it('the stored name keeps only a safe base name: no path, no dots, no spaces', async () => {
      const { key } = await ctx.ownerKey();
      const cases: Array<[string, string]> = [
        ['../../etc/Crème Brûlée.PNG', 'creme-brulee.png'],
        ['C:\\Users\\me\\shell.php.png', 'shell-php.png'],
        ['.png', 'file.png'],
        ['%00<script>.gif', '00-script.png'],
      ];
      for (const [given, stored] of cases)
        expect((await upload(key, filePart(png(1, 1), given))).filename).toBe(stored);
    });

    it('takes alt and caption fields, before or after the file', async () => {
      const { key } = await ctx.ownerKey();
      const before = await upload(key, { name: 'alt', data: 'A red square' }, filePart(png(1, 1), 'a.png'), {
        name: 'caption',
        data: 'Ünïcode caption',
      });
      expect(before).toMatchObject({ alt: 'A red square', caption: 'Ünïcode caption' });
      const empty = await upload(key, filePart(png(1, 1), 'b.png'), { name: 'alt', data: '' });
      expect(empty.alt).toBe('');
    });

    it('streams a file larger than one S3 part and serves back the same bytes', async () => {
      const { key } = await ctx.ownerKey();
      const big = Buffer.concat([png(4, 4), Buffer.alloc(UPLOAD_LIMIT - 1000, 0x2a)]);
      const media = await upload(key, filePart(big, 'big.png'));
      expect(media.sizeBytes).toBe(big.length);
      const served = await fetchFile(media.url);
      expect(served.rawPayload.equals(big)).toBe(true);
    });
  });

  describe('refused uploads leave no file and no row', () => {
    async function expectNothingStored(workspaceId: string, before: string[]) {
      expect(await mediaRows(workspaceId)).toEqual([]);
      expect(await storedKeys(ctx.config)).toEqual(before);
    }

    it('a file one byte over QUIRE_MAX_UPLOAD_BYTES: 400 too_large', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const before = await storedKeys(ctx.config);
      const tooBig = Buffer.concat([png(4, 4), Buffer.alloc(UPLOAD_LIMIT + 1 - png(4, 4).length, 0x2a)]);
      const body = expectError(await uploadMedia(ctx, key, [filePart(tooBig, 'big.png')]), 400, 'BAD_REQUEST');
      expect(body.details).toMatchObject({ reason: 'too_large', maxBytes: UPLOAD_LIMIT });
      await expectNothingStored(workspace.id, before);
    });

    it('a request declaring a body far over the limit is refused before it is read', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const { headers } = multipart([filePart(png(1, 1), 'a.png')]);
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/media`,
        headers: { ...headers, 'x-api-key': key, 'content-length': String(UPLOAD_LIMIT * 2) },
        payload: Buffer.alloc(16),
      });
      expect(expectError(response, 400, 'BAD_REQUEST').details).toMatchObject({ reason: 'too_large' });
      expect(await mediaRows(workspace.id)).toEqual([]);
    });

    it('an image whose header declares more than 40 megapixels, before anything decodes it', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const before = await storedKeys(ctx.config);
      for (const [name, bytes] of [
        ['huge.png', png(10_000, 5_000, { pixels: false })],
        ['huge.jpg', jpegDeclaring(10_000, 5_000)],
      ] as const) {
        const body = expectError(await uploadMedia(ctx, key, [filePart(bytes, name)]), 400, 'BAD_REQUEST');
        expect(body.details).toMatchObject({ reason: 'too_many_pixels', width: 10_000, height: 5_000 });
      }
      await expectNothingStored(workspace.id, before);
      // 40 megapixels exactly is still accepted (and decoded: the upload reads its pixels).
      const edge = await sharp({ create: { width: 8_000, height: 5_000, channels: 3, background: '#808080' } })
        .toColourspace('b-w')
        .png()
        .toBuffer();
      expect((await upload(key, filePart(edge, 'edge.png'))).width).toBe(8_000);
    });

    it('HTML, an executable and unknown bytes: 400 unsupported_type', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const before = await storedKeys(ctx.config);
      const files: Array<[string, Buffer]> = [
        ['page.png', Buffer.from('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>')],
        ['tool.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])],
        ['empty.png', Buffer.alloc(0)],
        ['notes.txt', Buffer.from('just some text')],
      ];
      for (const [name, bytes] of files) {
        const body = expectError(await uploadMedia(ctx, key, [filePart(bytes, name, 'image/png')]), 400, 'BAD_REQUEST');
        expect(body.details, name).toMatchObject({ reason: 'unsupported_type' });
      }
      await expectNothingStored(workspace.id, before);
    });

    it('a second file part, even after the first was stored', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const before = await storedKeys(ctx.config);
      expectIssue(
        await uploadMedia(ctx, key, [filePart(png(1, 1), 'a.png'), filePart(png(1, 1), 'b.png')]),
        '/file',
        /exactly one file/,
      );
      await expectNothingStored(workspace.id, before);
    });

    it('no file part, or the file under another name', async () => {
      const { workspace, key } = await ctx.ownerKey();
      expectIssue(await uploadMedia(ctx, key, [{ name: 'alt', data: 'alone' }]), '/file', /required/);
      expectIssue(
        await uploadMedia(ctx, key, [{ name: 'image', filename: 'a.png', data: png(1, 1) }]),
        '/image',
        /not a known field/,
      );
      expect(await mediaRows(workspace.id)).toEqual([]);
    });

    it('any field but alt and caption, a repeated field, a field too long; after the file too', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const before = await storedKeys(ctx.config);
      const file = filePart(png(1, 1), 'a.png');
      expectIssue(await uploadMedia(ctx, key, [file, { name: 'title', data: 'x' }]), '/title', /not a known field/);
      expectIssue(
        await uploadMedia(ctx, key, [{ name: 'alt', data: 'a' }, { name: 'alt', data: 'b' }, file]),
        '/alt',
        /more than once/,
      );
      expectIssue(await uploadMedia(ctx, key, [file, { name: 'caption', data: 'x'.repeat(2001) }]), '/caption', /2000/);
      expectIssue(
        await uploadMedia(ctx, key, [
          file,
          { name: 'alt', data: 'x' },
          { name: 'caption', data: 'y' },
          { name: 'extra', data: 'z' },
        ]),
        '',
        /at most/,
      );
      await expectNothingStored(workspace.id, before);
    });

    it('a body that is not multipart: 400 unsupported_media_type', async () => {
      const { key } = await ctx.ownerKey();
      const json = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/media`,
        headers: { 'x-api-key': key },
        payload: { file: 'x' },
      });
      expect(expectError(json, 400, 'BAD_REQUEST').details).toMatchObject({ reason: 'unsupported_media_type' });
      const bare = await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/media`, headers: { 'x-api-key': key } });
      expect(expectError(bare, 400, 'BAD_REQUEST').details).toMatchObject({ reason: 'unsupported_media_type' });
    });

    it('a multipart body that breaks off: 400 malformed_multipart', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const { payload, headers } = multipart([filePart(png(4, 4), 'a.png')]);
      const cut = payload.subarray(0, payload.length - 30);
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/media`,
        headers: { ...headers, 'x-api-key': key },
        payload: cut,
      });
      expect(expectError(response, 400, 'BAD_REQUEST').details).toMatchObject({ reason: 'malformed_multipart' });
      expect(await mediaRows(workspace.id)).toEqual([]);
    });

    it('multipart is accepted on POST /media only', async () => {
      const { key } = await ctx.ownerKey();
      const media = await upload(key, filePart(png(1, 1), 'a.png'));
      const { payload, headers } = multipart([{ name: 'alt', data: 'changed' }]);
      for (const [method, url] of [
        ['PATCH', `${EXTERNAL}/media/${media.id}`],
        ['POST', `${EXTERNAL}/posts`],
      ] as const) {
        const response = await ctx.app.inject({ method, url, headers: { ...headers, 'x-api-key': key }, payload });
        expect(expectError(response, 400, 'BAD_REQUEST').details, url).toMatchObject({
          reason: 'unsupported_media_type',
        });
      }
    });

    it('needs media:write; media:read is not enough', async () => {
      for (const permissions of [['media:read'], ['posts:write']] as const) {
        const { key } = await ctx.memberKey(permissions);
        expectError(await uploadMedia(ctx, key, [filePart(png(1, 1), 'a.png')]), 403, 'FORBIDDEN');
      }
      const { key } = await ctx.memberKey(['media:write']);
      await upload(key, filePart(png(1, 1), 'a.png'));
    });
  });

  describe('the public file route', () => {
    it('serves raster images inline, immutable and cacheable, with no key and no rate limit', async () => {
      const { key } = await ctx.ownerKey();
      const media = await upload(key, filePart(png(3, 3), 'a.png'));
      const served = await fetchFile(media.url);
      expect(served.statusCode).toBe(200);
      expect(served.headers).toMatchObject({
        'content-type': 'image/png',
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=31536000, immutable',
        etag: `"${media.id}"`,
        'accept-ranges': 'bytes',
      });
      expect(served.headers['content-disposition']).toBeUndefined();
      expect(served.headers['content-security-policy']).toBeUndefined();
      expect(served.headers['ratelimit-limit']).toBeUndefined();
      expect(served.headers['x-request-id']).toBeDefined();
    });

    it('serves SVG and PDF sandboxed, as attachments', async () => {
      const { key } = await ctx.ownerKey();
      for (const [bytes, name, type] of [
        [SVG, 'logo.svg', 'image/svg+xml'],
        [Buffer.from('%PDF-1.7\n%%EOF\n'), 'doc.pdf', 'application/pdf'],
      ] as const) {
        const media = await upload(key, filePart(bytes, name));
        const served = await fetchFile(media.url);
        expect(served.headers).toMatchObject({
          'content-type': type,
          'content-security-policy': 'sandbox',
          'content-disposition': `attachment; filename="${name}"`,
          'x-content-type-options': 'nosniff',
        });
        expect(served.rawPayload.equals(bytes)).toBe(true);
      }
    });

    it('HEAD, byte ranges and If-None-Match', async () => {
      const { key } = await ctx.ownerKey();
      const bytes = png(10, 10);
      const media = await upload(key, filePart(bytes, 'a.png'));

      const head = await fetchFile(media.url, {}, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(bytes.length));
      expect(head.body).toBe('');

      const partial = await fetchFile(media.url, { range: 'bytes=1-3' });
      expect(partial.statusCode).toBe(206);
      expect(partial.headers['content-range']).toBe(`bytes 1-3/${bytes.length}`);
      expect(partial.rawPayload.equals(bytes.subarray(1, 4))).toBe(true);

      const suffix = await fetchFile(media.url, { range: 'bytes=-4' });
      expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 4))).toBe(true);

      const unsatisfiable = await fetchFile(media.url, { range: `bytes=${bytes.length}-` });
      expect(unsatisfiable.statusCode).toBe(200);
      expect(unsatisfiable.rawPayload.equals(bytes)).toBe(true);

      const cached = await fetchFile(media.url, { 'if-none-match': `"${media.id}"` });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
    });

    it('404 envelope for a wrong workspace, id or filename, and for a malformed address', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const other = await ctx.ownerKey();
      const media = await upload(key, filePart(png(1, 1), 'a.png'));
      for (const url of [
        `/media/${other.workspace.id}/${media.id}/a.png`,
        `/media/${workspace.id}/${crypto.randomUUID()}/a.png`,
        `/media/${workspace.id}/${media.id}/b.png`,
        `/media/${workspace.id}/${media.id}/A.png`,
        `/media/not-a-uuid/${media.id}/a.png`,
      ]) {
        const response = await ctx.app.inject({ method: 'GET', url });
        expect(expectError(response, 404, 'NOT_FOUND').details, url).toBeNull();
        expect(response.headers['cache-control'], url).toBeUndefined();
      }
    });

    it('DELETE removes the file from storage; its URL answers 404', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const media = await upload(key, filePart(png(1, 1), 'a.png'));
      const removed = await ctx.app.inject({
        method: 'DELETE',
        url: `${EXTERNAL}/media/${media.id}`,
        headers: { 'x-api-key': key },
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual(media);
      expect(await storedKeys(ctx.config)).not.toContain(media.storagePath);
      expect(
        (await storedKeys(ctx.config)).filter((stored) => stored.startsWith(`${workspace.id}/${media.id}`)),
      ).toEqual([]);
      expectError(await fetchFile(media.url), 404, 'NOT_FOUND');
    });
  });
}
