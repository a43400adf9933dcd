import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { avif, JPEG_3X2, jpegDeclaring, png, SVG } from '../../../test/helpers/media.js';
import { UploadInspector } from './media.inspector.js';
import { KINDS } from './media.sniff.js';

/** Runs `bytes` through an inspector in chunks of `chunkSize`, collecting what comes out. */
async function inspect(bytes: Buffer, { maxBytes = 1 << 20, chunkSize = 16 } = {}) {
  const inspector = new UploadInspector(maxBytes);
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) =>
    bytes.subarray(i * chunkSize, (i + 1) * chunkSize),
  );
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.push(chunk);
      done();
    },
  });
  const done = pipeline(Readable.from(chunks), inspector, sink);
  return { inspector, output: () => Buffer.concat(out), done };
}

async function failure(bytes: Buffer, options?: { maxBytes?: number; chunkSize?: number }): Promise<AppError> {
  const { done } = await inspect(bytes, options);
  const error = await done.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('UploadInspector', () => {
  it('passes every byte through unchanged and reports type, size and dimensions', async () => {
    for (const [bytes, kind, dimensions] of [
      [png(5, 4), KINDS.png, { width: 5, height: 4 }],
      [JPEG_3X2, KINDS.jpeg, { width: 3, height: 2 }],
      [SVG, KINDS.svg, { width: 120, height: 80 }],
      // Its size sits past the first chunks: the inspector waits for it.
      [avif(1920, 1080, 300), KINDS.avif, { width: 1920, height: 1080 }],
    ] as const) {
      const { inspector, output, done } = await inspect(bytes, { chunkSize: 7 });
      await done;
      expect(await inspector.kind).toBe(kind);
      expect(output().equals(bytes)).toBe(true);
      expect(inspector.size).toBe(bytes.length);
      expect(inspector.dimensions).toEqual(dimensions);
    }
  });

  it('fails one byte past maxBytes, and not at maxBytes', async () => {
    const bytes = png(4, 4);
    expect((await failure(bytes, { maxBytes: bytes.length - 1 })).details).toMatchObject({ reason: 'too_large' });
    const { done } = await inspect(bytes, { maxBytes: bytes.length });
    await expect(done).resolves.toBeUndefined();
  });

  it('refuses over 40 megapixels from the header, a JPEG frame found late included', async () => {
    expect((await failure(png(8_001, 5_000, { pixels: false }))).details).toMatchObject({ reason: 'too_many_pixels' });
    expect((await failure(jpegDeclaring(10_000, 5_000), { chunkSize: 1 })).details).toMatchObject({
      reason: 'too_many_pixels',
    });
  });

  it('refuses unknown types and images whose size cannot be read', async () => {
    const html = await inspect(Buffer.from('<html></html>'));
    await expect(html.done).rejects.toBeInstanceOf(AppError);
    await expect(html.inspector.kind).rejects.toMatchObject({ details: { reason: 'unsupported_type' } });
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    expect((await failure(noFrame)).details).toMatchObject({ reason: 'unreadable_image' });
    const zeroWidth = png(0, 1, { pixels: false });
    expect((await failure(zeroWidth)).details).toMatchObject({ reason: 'unreadable_image' });
  });

  it('holds back at most the sniffing window before the type is known', async () => {
    const { inspector, output, done } = await inspect(
      Buffer.concat([Buffer.from('<!-- '), Buffer.alloc(100_000, 0x61)]),
      { chunkSize: 1024 },
    );
    await expect(done).rejects.toBeInstanceOf(AppError);
    expect(output().length).toBe(0);
    expect(inspector.size).toBeLessThanOrEqual(64 * 1024 + 1024);
  });
});
