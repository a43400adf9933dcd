import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyCompressOptions } from '@fastify/compress';

/** Answers smaller than this go out as they are: compressing them saves less than the headers weigh. */
export const COMPRESS_THRESHOLD = 1024;

export type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];

/** Brotli at quality 4: most of quality 11's saving on JSON for a small part of its CPU (as @fastify/compress). */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** The options @fastify/compress compresses every other answer with: the same encodings, threshold and quality. */
export const COMPRESS_OPTIONS: FastifyCompressOptions = {
  encodings: ENCODINGS,
  threshold: COMPRESS_THRESHOLD,
  brotliOptions: BROTLI,
};

/** The encoding to send `size` bytes in to a client whose Accept-Encoding is `header`; undefined for none. */
export function chooseEncoding(header: string | string[] | undefined, size: number): Encoding | undefined {
  if (size < COMPRESS_THRESHOLD || typeof header !== 'string' || header === '') return undefined;
  return negotiate(header, ENCODINGS) ?? undefined;
}

export function compress(bytes: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(bytes, BROTLI) : zlib.gzipSync(bytes);
}
