import zlib from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';
import { COMPRESS_THRESHOLD, ENCODINGS, type Encoding } from '../http/encodings.js';
import { splicedGzip } from '../shared/gzip-pieces.js';

/**
 * The fastest level of each: an answer is compressed on the request that asked for it (a miss, or the first hit of
 * a cache entry), so what a level costs is paid in that request's time. On JSON these still shrink an answer
 * several times; the higher levels save a few more bytes for much more CPU (docs/performance.md,
 * "Compressed misses").
 */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };
const GZIP = { level: 1 };

/**
 * Answers in memory up to this size are compressed in one synchronous call, as cached ones are. A compression
 * stream hands each chunk to libuv's threadpool and back, which on a request answered alone costs several times
 * the compression itself; @fastify/compress's own default (a few kB on a small host) sends every page of posts
 * that way. Larger answers (a page of 100) still stream, so the event loop is never held long.
 */
export const SYNC_COMPRESS_MAX_BYTES = 1024 * 1024;

/** The options @fastify/compress compresses every other answer with: the same encodings, threshold and levels. */
export const COMPRESS_OPTIONS: FastifyCompressOptions = {
  encodings: ENCODINGS,
  threshold: COMPRESS_THRESHOLD,
  brotliOptions: BROTLI,
  zlibOptions: GZIP,
  syncThreshold: SYNC_COMPRESS_MAX_BYTES,
};

/** `bytes` in `encoding`: gzip spliced from their kept deflated form when they have one, else compressed now. */
export function compress(bytes: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br') return zlib.brotliCompressSync(bytes, BROTLI);
  return splicedGzip(bytes) ?? zlib.gzipSync(bytes, GZIP);
}
