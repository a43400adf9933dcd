import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { Config } from '../../src/config.js';
import { EXTERNAL, type TestContext } from './app.js';

/*
 * Real, tiny image files, and the multipart bodies and S3 server the media suites send them with.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of `width`×`height`. With `pixels: false` the IDAT holds no pixel rows: a header
 * declaring a huge image without sending it (what the megapixel limit must refuse unread).
 */
export function png(width: number, height: number, { pixels = true } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x7f)]);
  const raw = pixels ? Buffer.concat(Array.from({ length: height }, () => row)) : Buffer.alloc(0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A real greyscale PNG of `width`×`height` black pixels, deflated row by row so the test never holds the pixels:
 * a decompression bomb (a few hundred KB that decode to width × height bytes).
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(width + 1);
  for (let y = 0; y < height; y += 1) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.concat(out)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// 3×2 images written by Pillow 9.4 (baseline JPEG at quality 50, lossless and lossy WebP, GIF89a).
export const JPEG_3X2 = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDHooorhPqD/9k=',
  'base64',
);
export const WEBP_LOSSLESS_3X2 = Buffer.from('UklGRh4AAABXRUJQVlA4TBEAAAAvAkAAAAdQjyLXo/+BiOh/AAA=', 'base64');
export const WEBP_LOSSY_3X2 = Buffer.from(
  'UklGRjYAAABXRUJQVlA4ICoAAACQAQCdASoDAAIAAsBMJaACdLoAA5gA/u2QP4hd7G2//PTP62/j/xkAAAA=',
  'base64',
);
/** A real 64×48 AVIF (sharp 0.35, libaom), whose pixels decode: what an upload must be to be kept. */
export const AVIF_64X48 = Buffer.from(
  'AAAAHGZ0eXBhdmlmAAAAAG1pZjFhdmlmbWlhZgAAANZtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAACJpbG9jAAAAAERAAAEAAQAAAAAA+gABAAAAAAAAACUAAAAjaWluZgAAAAAAAQAAABVpbmZlAgAAAAABAABhdjAxAAAAAA5waXRtAAAAAAABAAAAVmlwcnAAAAA4aXBjbwAAAAxhdjFDgSACAAAAABRpc3BlAAAAAAAAAEAAAAAwAAAAEHBpeGkAAAAAAwgICAAAABZpcG1hAAAAAAAAAAEAAQOBAgMAAAAtbWRhdBIACgk4FX+9pAQ0GkAyFhxCYuTgABYAAJe/PZDFtESUD4uxQxA=',
  'base64',
);
export const GIF_3X2 = Buffer.from('R0lGODlhAwACAIEAAMgeHgAAAAAAAAAAACwAAAAAAwACAAAIBgABCBwYEAA7', 'base64');

/** The same JPEG with its frame header (SOF0) declaring another size. */
export function jpegDeclaring(width: number, height: number): Buffer {
  const bytes = Buffer.from(JPEG_3X2);
  const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  bytes.writeUInt16BE(height, sof + 5);
  bytes.writeUInt16BE(width, sof + 7);
  return bytes;
}

/** An ISO base media box (AVIF, MP4): size, type, then the payload. */
export function isoBox(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

export const isoFtyp = (major: string, ...compatible: string[]) =>
  isoBox('ftyp', Buffer.from(`${major}\0\0\0\0${compatible.join('')}`, 'latin1'));

/**
 * The header boxes of an AVIF still image declaring `width`×`height` (ftyp, then meta with its `ispe`
 * property after `padding` bytes of other properties), and a stub of image data.
 */
export function avif(width: number, height: number, padding = 4): Buffer {
  const ispe = isoBox('ispe', Buffer.from([0, 0, 0, 0]), Buffer.from(new Uint32Array([width, height]).buffer).swap32());
  const properties = isoBox('ipco', isoBox('colr', Buffer.alloc(padding)), ispe);
  const meta = isoBox('meta', Buffer.alloc(4), isoBox('hdlr', Buffer.alloc(25)), isoBox('iprp', properties));
  return Buffer.concat([isoFtyp('avif', 'mif1', 'avif', 'miaf'), meta, isoBox('mdat', Buffer.alloc(10))]);
}

export const SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80"><script>alert(1)</script><rect width="120" height="80" fill="teal"/></svg>\n',
);

export interface FormPart {
  name: string;
  /** Present for a file part. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built byte by byte, as a browser or curl -F sends it. */
export function multipart(parts: readonly FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----quire${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType ?? (part.filename === undefined ? undefined : 'application/octet-stream');
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /media with the given parts. */
export function uploadMedia(ctx: TestContext, key: string, parts: readonly FormPart[]) {
  const { payload, headers } = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url: `${EXTERNAL}/media`,
    headers: { ...headers, 'x-api-key': key },
    payload,
  });
}

export const filePart = (data: Buffer | string, filename = 'upload.bin', contentType?: string): FormPart => ({
  name: 'file',
  filename,
  data,
  ...(contentType ? { contentType } : {}),
});

/** The path of a public media URL, for inject. */
export const pathOf = (url: string) => new URL(url).pathname;

export interface S3Server {
  env: Record<string, string>;
  /** An outage: the port stops listening and every open connection is cut, mid-request or idle. */
  stop(): Promise<void>;
  /** The server back on the same port and directory, holding what it held; nothing when it is running. */
  start(): Promise<void>;
  close(): Promise<void>;
}

// s3rver's close() waits for the connections in flight, which an outage does not; its typings omit the server.
const cutConnections = (server: S3rver) =>
  (server as unknown as { httpServer: http.Server }).httpServer.closeAllConnections();

/** A real S3-compatible server (s3rver) on a free loopback port, storing into a temp directory. */
export async function startS3Server(): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3-'));
  // A fresh instance on each start: a closed s3rver has closed its logger too.
  const listen = async (port: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: 'quire-test' }],
    });
    return { server, port: (await server.run()).port };
  };
  const first = await listen(0);
  const port = first.port;
  let running: S3rver | null = first.server;

  async function stop() {
    if (!running) return;
    const server = running;
    running = null;
    const closed = server.close();
    cutConnections(server);
    await closed;
  }

  return {
    env: {
      QUIRE_MEDIA_STORAGE: 's3',
      QUIRE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      QUIRE_S3_BUCKET: 'quire-test',
      // s3rver checks signatures against its one built-in key pair.
      QUIRE_S3_ACCESS_KEY_ID: 'S3RVER',
      QUIRE_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    stop,
    async start() {
      running ??= (await listen(port)).server;
    },
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

function listFiles(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(path.join(dir, entry.name), relative) : [relative];
  });
}

/** Every key in the app's media storage (for local storage, the temp files too). */
export async function storedKeys(config: Config): Promise<string[]> {
  const settings = config.mediaStorage;
  if (settings.driver === 'local') return listFiles(path.join(config.dataDir, 'media')).sort();
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  } finally {
    client.destroy();
  }
}
