import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { MediaStorageConfig } from '../../../config.js';
import { assertStorageKey, type MediaStorage } from './storage.js';

type S3Settings = Extract<MediaStorageConfig, { driver: 's3' }>;

// S3's smallest part: an upload holds at most one part in memory, however large the file.
const PART_SIZE = 5 * 1024 * 1024;

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException && (error.name === 'NotFound' || error.$metadata.httpStatusCode === 404));

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
  });
  const Bucket = settings.bucket;

  return {
    async put(key, body, { contentType }) {
      assertStorageKey(key);
      // Streams in parts of PART_SIZE, one at a time; when the stream fails, the SDK aborts the
      // multipart upload, so no object and no stray parts remain.
      await new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 1,
      }).done();
    },

    async get(key, range) {
      assertStorageKey(key);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        // A ranged answer names the whole size after the slash: `bytes 0-99/1234`.
        const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : answer.ContentLength;
        return { stream: answer.Body as Readable, size: total ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      assertStorageKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
