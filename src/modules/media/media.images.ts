import { createGate } from '../../shared/gate.js';
import { originalFormat, type DerivativeFormat } from '../../blocks/images.js';
import { MAX_IMAGE_PIXELS } from './media.inspector.js';
import { coverCrop, UpscaleError } from './media.sizes.js';
import { loadSharp } from './sharp.js';

/**
 * Everything Quire does to pixels, with libvips through sharp, at the widths and in the formats of the ladder
 * (blocks/images.ts).
 */
const MIME_TYPES: Readonly<Record<DerivativeFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
};

/**
 * Decodes at once in this process, uploads' and derivatives' together. Each holds a whole original and some of
 * its pixels, so this bounds memory however many different images are asked for at once; a derivative already
 * made costs no slot.
 */
export const TRANSFORMS = createGate(2);

export function derivativeMimeType(format: DerivativeFormat): string {
  return MIME_TYPES[format];
}

/** The formats a derivative of an image may be asked in: AVIF, WebP and its own. */
export function derivativeFormats(mimeType: string): DerivativeFormat[] {
  const own = originalFormat(mimeType);
  if (!own) return [];
  return [...new Set<DerivativeFormat>(['avif', 'webp', own])];
}

export class ImageDecodeError extends Error {}

/** What an upload learns from its pixels: the displayed size and a placeholder. */
export interface ImageFacts {
  /** After EXIF orientation: what a browser shows. */
  width: number;
  height: number;
  placeholder: string;
  dominantColor: string;
}

const hex = (n: number) => n.toString(16).padStart(2, '0');

/**
 * Decodes a whole upload to learn its displayed size and its placeholder. Strictly, as derivatives are made:
 * bytes that do not decode, a truncated file included, throw ImageDecodeError, so an image kept is one whose
 * derivatives can be made.
 */
export async function inspectImage(bytes: Buffer): Promise<ImageFacts> {
  const sharp = await loadSharp();
  try {
    const input = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, animated: false });
    const meta = await input.metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const width = turned ? meta.height : meta.width;
    const height = turned ? meta.width : meta.height;
    const tiny = await input.clone().rotate().resize(16, 16, { fit: 'inside' }).webp({ quality: 40 }).toBuffer();
    const { dominant } = await sharp(tiny).stats();
    return {
      width,
      height,
      placeholder: `data:image/webp;base64,${tiny.toString('base64')}`,
      dominantColor: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`,
    };
  } catch (error) {
    throw new ImageDecodeError((error as Error).message);
  }
}

/** Each format's quality when a URL names none: the ladder's derivatives are made at these. */
export const DEFAULT_QUALITY: Readonly<Record<Exclude<DerivativeFormat, 'png'>, number>> = {
  avif: 55,
  webp: 78,
  jpg: 80,
};

/** A derivative's size as media.sizes.ts reads it from the URL, the focal point in thousandths. */
export interface RenderSize {
  width: number;
  height?: number;
  focal?: { x: number; y: number };
  quality?: number;
}

/**
 * One derivative: oriented, metadata stripped (sharp keeps none unless asked), never larger than the image.
 * A width alone keeps the image's proportions; a height crops to width × height around the focal point.
 * An image that decodes only partly (stored before uploads were decoded, or damaged since) throws
 * ImageDecodeError rather than showing grey rows.
 */
export async function renderDerivative(bytes: Buffer, size: RenderSize, format: DerivativeFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  const input = () => sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, animated: false });
  try {
    let pipeline = input().rotate();
    if (size.height === undefined) {
      pipeline = pipeline.resize({ width: size.width, withoutEnlargement: true });
    } else {
      const meta = await input().metadata();
      const turned = (meta.orientation ?? 1) >= 5;
      const shown = { width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
      const crop = coverCrop(shown, { width: size.width, height: size.height }, size.focal);
      pipeline = pipeline
        .resize(crop.scaled.width, crop.scaled.height, { fit: 'fill' })
        .extract({ left: crop.left, top: crop.top, width: size.width, height: size.height });
    }
    switch (format) {
      case 'avif':
        // Effort 2 of 9: made on a visitor's request, so encoding time counts more than the last few bytes.
        return await pipeline.avif({ quality: size.quality ?? DEFAULT_QUALITY.avif, effort: 2 }).toBuffer();
      case 'webp':
        return await pipeline.webp({ quality: size.quality ?? DEFAULT_QUALITY.webp }).toBuffer();
      case 'jpg':
        return await pipeline.jpeg({ quality: size.quality ?? DEFAULT_QUALITY.jpg, mozjpeg: true }).toBuffer();
      case 'png':
        return await pipeline.png({ compressionLevel: 8 }).toBuffer();
    }
  } catch (error) {
    if (error instanceof UpscaleError) throw error;
    throw new ImageDecodeError((error as Error).message);
  }
}
