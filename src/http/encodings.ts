import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than the headers weigh. */
export const COMPRESS_THRESHOLD = 1024;

export type Encoding = 'br' | 'gzip';
/** In the order the server prefers them when the client weighs them alike. */
export const ENCODINGS: Encoding[] = ['br', 'gzip'];

/** The encoding to send `size` bytes in to a client whose Accept-Encoding is `header`; undefined for none. */
export function chooseEncoding(header: string | string[] | undefined, size: number): Encoding | undefined {
  if (size < COMPRESS_THRESHOLD || typeof header !== 'string' || header === '') return undefined;
  return negotiate(header, ENCODINGS) ?? undefined;
}

/**
 * Whether a large answer to this request goes out in gzip as the read's bytes are: a read then asks for the
 * stored deflated forms of the posts it answers with, from which the gzip is spliced (shared/gzip-pieces.ts). An
 * answer cut to `?fields=` is other bytes, compressed as any other answer.
 */
export function wantsGzip(request: FastifyRequest): boolean {
  return (
    request.selectedFields === undefined &&
    chooseEncoding(request.headers['accept-encoding'], COMPRESS_THRESHOLD) === 'gzip'
  );
}
