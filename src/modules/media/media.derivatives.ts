import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { MediaRow } from '../../db/schema.js';
import { AppError, badRequest, invalid, notFound } from '../../errors.js';
import { DERIVATIVE_WIDTHS, derivativeKey, ladderFor, stemOf, type DerivativeFormat } from '../../blocks/images.js';
import {
  derivativeFormats,
  derivativeMimeType,
  ImageDecodeError,
  renderDerivative,
  TRANSFORMS,
} from './media.images.js';
import { parseSize, UpscaleError, type ImageSize } from './media.sizes.js';
import type { MediaStorage } from './storage/storage.js';

/** Sizes of one image made beyond the ladder (each size in each format counts once); past it, a 400. */
export const MAX_VARIANTS = 64;

/** One derivative of an image, addressed by the part of its URL after the media id. */
export interface DerivativeRequest {
  /** The size segment as the URL spells it (`w640`, `w480-h320-cover-x750-y500-q70`). */
  segment: string;
  size: ImageSize;
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

/**
 * The sizes made beyond the ladder, counted per image in the database (the media service's media_variants
 * rows), so that the bound holds for every process and every storage, and a deletion knows which files to remove.
 */
export interface VariantLedger {
  /** Records the variant before it is made; throws the bound's 400 past MAX_VARIANTS, a 404 when the row went. */
  reserve(row: MediaRow, segment: string, format: DerivativeFormat): Promise<void>;
  /** Forgets a variant that could not be made. */
  release(row: MediaRow, segment: string, format: DerivativeFormat): Promise<void>;
  /** Whether the media row is still there, once a derivative is stored. */
  exists(row: MediaRow): Promise<boolean>;
}

/**
 * `w640` and `photo.webp` → a request, or null when the filename is not one a derivative can have (a 404 like
 * any wrong address). A size the grammar refuses (media.sizes.ts) is a 400 naming the parameter.
 */
export function parseDerivative(variant: string, filename: string): DerivativeRequest | null {
  const parsed = parseSize(variant);
  if (parsed.issues) throw invalid(parsed.issues);
  const name = /^(.+)\.(avif|webp|jpg|png)$/.exec(filename);
  if (!name) return null;
  return { segment: variant, size: parsed.size, stem: name[1]!, format: name[2] as DerivativeFormat };
}

/** A ladder size (a width of the ladder alone, at the format's own quality): the srcset's, never counted. */
export function isLadderSize(size: ImageSize): boolean {
  return (
    size.height === undefined &&
    size.quality === undefined &&
    (DERIVATIVE_WIDTHS as readonly number[]).includes(size.width)
  );
}

/** Where a derivative lives in storage: beside its original, under its size segment (the ladder's `w640` too). */
export function variantKey(row: Pick<MediaRow, 'workspace_id' | 'id' | 'filename'>, segment: string, format: string) {
  return `${row.workspace_id}/${row.id}/${segment}/${stemOf(row.filename)}.${format}`;
}

/** Every key a media row's ladder derivatives may be stored at, for its deletion (the others are in the ledger). */
export function derivativeKeys(row: Pick<MediaRow, 'workspace_id' | 'id' | 'filename' | 'mime_type' | 'width'>) {
  return ladderFor(row.width).flatMap((width) =>
    derivativeFormats(row.mime_type).map((format) => derivativeKey(row, width, format)),
  );
}

const undecodable = () =>
  new AppError('NOT_FOUND', 'This image decodes only partly, so no resized copy can be made; its original is served', {
    reason: 'undecodable_image',
  });

const upscaled = (param: 'width' | 'height', size: number) =>
  invalid([
    {
      in: 'params',
      path: `/variant/${param}`,
      message: `the image is ${size} pixels ${param === 'width' ? 'wide' : 'high'}: a resized copy is never larger than the image`,
    },
  ]);

/**
 * What the image itself allows of a size: its formats and name (else a 404, as for any wrong address), never
 * more pixels than it has, a quality only where the format has one (else a 400 naming the parameter).
 */
function check(row: MediaRow, request: DerivativeRequest): void {
  const { size, format } = request;
  if (request.stem !== stemOf(row.filename) || !derivativeFormats(row.mime_type).includes(format) || !row.width) {
    throw notFound('File');
  }
  if (size.width > row.width) throw upscaled('width', row.width);
  if (size.height !== undefined && row.height && size.height > row.height) throw upscaled('height', row.height);
  if (size.quality !== undefined && format === 'png')
    throw invalid([
      { in: 'params', path: '/variant/quality', message: 'a PNG copy is lossless: leave the quality out' },
    ]);
}

/**
 * Derivatives made on first request and then kept in storage. Two requests for the same one while it is
 * being made share the work.
 */
export function createMediaDerivatives(storage: MediaStorage, ledger: VariantLedger) {
  const making = new Map<string, Promise<Buffer>>();

  async function make(row: MediaRow, key: string, request: DerivativeRequest): Promise<Buffer> {
    const bytes = await TRANSFORMS(async () => {
      const original = await storage.get(row.storage_path);
      if (!original) throw notFound('File');
      return renderDerivative(await buffer(original.stream), request.size, request.format);
    });
    await storage.put(key, Readable.from([bytes]), { contentType: derivativeMimeType(request.format) });
    // A deletion that committed while this was made removed the files it knew of before this one was stored.
    if (!(await ledger.exists(row))) {
      await storage.delete(key).catch(() => undefined);
      throw notFound('File');
    }
    return bytes;
  }

  async function makeOnce(row: MediaRow, key: string, request: DerivativeRequest): Promise<Buffer> {
    const ladder = isLadderSize(request.size);
    if (!ladder) await ledger.reserve(row, request.segment, request.format);
    try {
      return await make(row, key, request);
    } catch (error) {
      if (!ladder) await ledger.release(row, request.segment, request.format).catch(() => undefined);
      throw error;
    }
  }

  return {
    /** The derivative of `row` the request names, made when it is not in storage yet. */
    async find(row: MediaRow, request: DerivativeRequest): Promise<DerivativeFile> {
      check(row, request);
      const { segment, format } = request;
      const key = variantKey(row, segment, format);
      const answer = (bytes: Buffer): DerivativeFile => ({
        id: `${row.id}-${segment}-${format}`,
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
        pending = makeOnce(row, key, request).finally(() => making.delete(key));
        making.set(key, pending);
      }
      try {
        return answer(await pending);
      } catch (error) {
        if (error instanceof ImageDecodeError) throw undecodable();
        if (error instanceof UpscaleError)
          throw badRequest('This image is smaller than the size asked for: a resized copy is never larger', {
            reason: 'upscale',
          });
        throw error;
      }
    },
  };
}

export type MediaDerivatives = ReturnType<typeof createMediaDerivatives>;
