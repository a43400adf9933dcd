import { PassThrough, type Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { MediaStorageConfig } from '../../../config.js';
import { unavailable } from '../../../errors.js';
import { assertStorageKey, type MediaStorage } from './driver.js';

type S3Settings = Extract<MediaStorageConfig, { driver: 's3' }>;

// S3's smallest part: an upload holds at most one part in memory, however large the file.
const PART_SIZE = 5 * 1024 * 1024;

/*
 * Every call is bounded, so a bucket that is away costs a request seconds, not a hang: a connection that does not
 * open, an answer that does not start (a part is sent whole before S3 answers, so this covers its transfer), a
 * body that stops flowing. Each attempt is bounded; the SDK tries at most MAX_ATTEMPTS times, with a short backoff.
 */
const CONNECTION_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 30_000;
const SOCKET_IDLE_TIMEOUT_MS = 30_000;
const MAX_ATTEMPTS = 3;

/** The bucket's host does not answer at all: refused, reset, unroutable or unknown. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException && (error.name === 'NotFound' || error.$metadata.httpStatusCode === 404));

/**
 * Why the bucket is away, or null when the error is about the request (a refused key, a bad signature, a missing
 * object): those are not fixed by waiting, so they keep their own answer.
 */
function outageReason(error: unknown): string | null {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata?.httpStatusCode;
    return status !== undefined && status >= 500 ? 'server_error' : null;
  }
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  // The SDK renames a reset connection TimeoutError too, so the code is read first.
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return 'unreachable';
  if (code === 'ETIMEDOUT' || error.name === 'TimeoutError') return 'timeout';
  // A host with several addresses reports each failed connection inside one AggregateError.
  if (error instanceof AggregateError) {
    for (const inner of error.errors as unknown[]) {
      const reason = outageReason(inner);
      if (reason) return reason;
    }
  }
  return null;
}

/** An outage as the 503 the client should see; any other error as it was. */
function storageError(error: unknown): unknown {
  const reason = outageReason(error);
  return reason ? unavailable('storage', reason) : error;
}

/** The object's bytes, failing with the 503 when the bucket goes away while they flow. */
function translated(body: Readable): Readable {
  const out = new PassThrough();
  body.on('error', (error) => out.destroy(storageError(error) as Error));
  // A reader that stops early frees the connection.
  out.on('close', () => body.destroy());
  return body.pipe(out);
}

/** An S3-compatible bucket (AWS, MinIO, R2, …) holding the files under the same keys as the local driver. */
export function s3Storage(settings: S3Settings): MediaStorage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The SDK's default checksums use aws-chunked trailers, which many S3-compatible servers refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: {
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // Without it the SDK only logs a request past its timeout and goes on waiting.
      throwOnRequestTimeout: true,
      socketTimeout: SOCKET_IDLE_TIMEOUT_MS,
    },
  });
  const Bucket = settings.bucket;

  return {
    async put(key, body, { contentType }) {
      assertStorageKey(key);
      try {
        // Streams in parts of PART_SIZE, one at a time; when the stream fails, the SDK aborts the
        // multipart upload, so no object and no stray parts remain.
        await new Upload({
          client,
          params: { Bucket, Key: key, Body: body, ContentType: contentType },
          partSize: PART_SIZE,
          queueSize: 1,
        }).done();
      } catch (error) {
        throw storageError(error);
      }
    },

    async get(key, range) {
      assertStorageKey(key);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        // A ranged answer names the whole size after the slash: `bytes 0-99/1234`.
        const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : answer.ContentLength;
        return { stream: translated(answer.Body as Readable), size: total ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw storageError(error);
      }
    },

    async delete(key) {
      assertStorageKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}
