import { Transform, type TransformCallback } from 'node:stream';
import { badRequest } from '../../errors.js';
import { headerDimensions, JpegScanner, type Dimensions } from './media.dimensions.js';
import { ACCEPTED_TYPES, KINDS, sniff, SNIFF_TEXT_BYTES, type FileKind } from './media.sniff.js';

/** Past this, an image is refused from its header alone, before anything could decode it. */
export const MAX_IMAGE_PIXELS = 40_000_000;

export const tooLarge = (maxBytes: number) =>
  badRequest(`The file is larger than the upload limit of ${maxBytes} bytes`, { reason: 'too_large', maxBytes });

/**
 * The bytes of one upload on their way to storage: counted (past `maxBytes` the stream fails), and
 * sniffed from the first bytes, which are held back until the type is known (at most
 * SNIFF_TEXT_BYTES and one chunk). After that only a JPEG's frame search looks at the bytes.
 */
export class UploadInspector extends Transform {
  /** Settles as soon as the type is known, or with the error that ends the upload. */
  readonly kind: Promise<FileKind>;
  size = 0;
  dimensions: Dimensions | null = null;
  private settle!: { resolve: (kind: FileKind) => void; reject: (error: Error) => void };
  private known: FileKind | null = null;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private jpeg: JpegScanner | null = null;

  constructor(private readonly maxBytes: number) {
    super();
    this.kind = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // Whoever awaits `kind` sees the rejection; this only keeps it from being reported as unhandled.
    this.kind.catch(() => undefined);
    // An error before storage starts reading has no other listener; it reaches the caller through `kind`.
    this.on('error', () => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.size += chunk.length;
      if (this.size > this.maxBytes) throw tooLarge(this.maxBytes);
      if (this.known) {
        this.scan(chunk);
        return done(null, chunk);
      }
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      this.decide(false);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.known) this.decide(true);
      if (this.jpeg && !this.dimensions) throw unreadable(KINDS.jpeg);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.settle.reject(error ?? new Error('The upload ended before its type was known'));
    done(error);
  }

  private decide(complete: boolean): void {
    const head = Buffer.concat(this.held);
    const final = complete || this.heldBytes >= SNIFF_TEXT_BYTES;
    const kind = sniff(head, final);
    if (kind === undefined) return;
    if (kind === null) {
      throw badRequest(`Quire keeps these file types only: ${ACCEPTED_TYPES.join(', ')}`, {
        reason: 'unsupported_type',
        accepted: ACCEPTED_TYPES,
      });
    }
    if (kind === KINDS.jpeg) {
      this.jpeg = new JpegScanner();
      this.scan(head);
    } else if (kind.raster || kind === KINDS.svg) {
      this.dimensions = headerDimensions(kind, head);
      // An AVIF's size sits in a box that may come after the first chunk: hold on until it arrives.
      if (kind.raster && !this.dimensions && !final) return;
      if (kind.raster && !this.dimensions) throw unreadable(kind);
      this.checkPixels(kind);
    }
    this.known = kind;
    this.held = [];
    this.settle.resolve(kind);
    this.push(head);
  }

  private scan(chunk: Buffer): void {
    if (!this.jpeg || this.jpeg.done) return;
    this.jpeg.feed(chunk);
    if (!this.jpeg.done) return;
    if (!this.jpeg.dimensions) throw unreadable(KINDS.jpeg);
    this.dimensions = this.jpeg.dimensions;
    this.checkPixels(KINDS.jpeg);
  }

  /** SVG is drawn at whatever size it is shown, so only raster images are held to the pixel limit. */
  private checkPixels(kind: FileKind): void {
    const d = this.dimensions;
    if (!d || !kind.raster) return;
    if (d.width === 0 || d.height === 0) throw unreadable(kind);
    if (d.width * d.height > MAX_IMAGE_PIXELS) {
      throw badRequest(
        `The image declares ${d.width}×${d.height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
        {
          reason: 'too_many_pixels',
          width: d.width,
          height: d.height,
          maxPixels: MAX_IMAGE_PIXELS,
        },
      );
    }
  }
}

function unreadable(kind: FileKind) {
  return badRequest(`The file starts like ${kind.mimeType} but its dimensions cannot be read`, {
    reason: 'unreadable_image',
    mimeType: kind.mimeType,
  });
}
