import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { MediaRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { DERIVATIVE_WIDTHS, derivativeKey, ladderFor, stemOf, type DerivativeFormat } from '../../blocks/images.js';
import {
  derivativeFormats,
  derivativeMimeType,
  ImageDecodeError,
  renderDerivative,
  TRANSFORMS,
} from './media.images.js';
import type { MediaStorage } from './storage/storage.js';

/** One derivative of an image, addressed by the part of its URL after the media id. */
export interface DerivativeRequest {
  width: number;
  stem: string;
  format: DerivativeFormat;
}

export interface DerivativeFile {
  id: string;
  mimeType: string;
  size: number;
  createdAt: string;
  stream: Readable;
}

/** `w640` and `photo.webp` → a request, or null when the address is not one a derivative can have. */
export function parseDerivative(variant: string, filename: string): DerivativeRequest | null {
  const width = /^w([1-9]\d{2,3})$/.exec(variant);
  const name = /^(.+)\.(avif|webp|jpg|png)$/.exec(filename);
  if (!width || !name) return null;
  const n = Number(width[1]);
  if (!(DERIVATIVE_WIDTHS as readonly number[]).includes(n)) return null;
  return { width: n, stem: name[1]!, format: name[2] as DerivativeFormat };
}

/** Every key a media row's derivatives may be stored at, for its deletion. */
export function derivativeKeys(row: Pick<MediaRow, 'workspace_id' | 'id' | 'filename' | 'mime_type' | 'width'>) {
  return ladderFor(row.width).flatMap((width) =>
    derivativeFormats(row.mime_type).map((format) => derivativeKey(row, width, format)),
  );
}

const undecodable = () =>
  new AppError('NOT_FOUND', 'This image decodes only partly, so no resized copy can be made; its original is served', {
    reason: 'undecodable_image',
  });

/**
 * Derivatives made on first request and then kept in storage. Two requests for the same one while it is
 * being made share the work.
 */
export function createMediaDerivatives(storage: MediaStorage) {
  const making = new Map<string, Promise<Buffer>>();

  async function make(row: MediaRow, key: string, width: number, format: DerivativeFormat): Promise<Buffer> {
    return TRANSFORMS(async () => {
      const original = await storage.get(row.storage_path);
      if (!original) throw notFound('File');
      const bytes = await renderDerivative(await buffer(original.stream), width, format);
      await storage.put(key, Readable.from([bytes]), { contentType: derivativeMimeType(format) });
      return bytes;
    });
  }

  return {
    /** The derivative of `row` the request names; anything off the ladder or not of this image is a 404. */
    async find(row: MediaRow, request: DerivativeRequest): Promise<DerivativeFile> {
      const { width, format } = request;
      if (
        request.stem !== stemOf(row.filename) ||
        !derivativeFormats(row.mime_type).includes(format) ||
        !ladderFor(row.width).includes(width)
      ) {
        throw notFound('File');
      }
      const key = derivativeKey(row, width, format);
      const answer = (bytes: Buffer): DerivativeFile => ({
        id: `${row.id}-w${width}-${format}`,
        mimeType: derivativeMimeType(format),
        size: bytes.length,
        createdAt: row.created_at,
        stream: Readable.from([bytes]),
      });
      const stored = await storage.get(key);
      if (stored) {
        return { ...answer(Buffer.alloc(0)), size: stored.size, stream: stored.stream };
      }
      let pending = making.get(key);
      if (!pending) {
        pending = make(row, key, width, format).finally(() => making.delete(key));
        making.set(key, pending);
      }
      try {
        return answer(await pending);
      } catch (error) {
        throw error instanceof ImageDecodeError ? undecodable() : error;
      }
    },
  };
}

export type MediaDerivatives = ReturnType<typeof createMediaDerivatives>;
