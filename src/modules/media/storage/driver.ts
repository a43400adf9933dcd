import type { Readable } from 'node:stream';

/** An inclusive byte range of a stored file, as HTTP Range counts it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  /** The bytes asked for: the whole file, or only the range. */
  stream: Readable;
  /** The size of the whole file. */
  size: number;
}

/**
 * Where media bytes live. Keys are `<workspaceId>/<mediaId>/<filename>`. `put` consumes the stream
 * to its end and rejects with the stream's own error when it fails (nothing is left behind then);
 * `get` answers null for a key that holds nothing; `delete` of an absent key is not an error.
 */
export interface MediaStorage {
  put(key: string, body: Readable, options: { contentType: string }): Promise<void>;
  get(key: string, range?: ByteRange): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
}

// Every segment is a plain name: a key can never climb out of the storage root, whatever built it.
const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`Invalid storage key ${JSON.stringify(key)}`);
  }
}
