import { Type, type Static } from 'typebox';
import type { MediaRow } from '../db/schema.js';
import { Nullable } from '../shared/schemas.js';

/**
 * Derivatives come from a fixed ladder of widths in a fixed set of formats, so nobody can make the server render
 * arbitrary sizes (modules/media/media.images.ts renders them).
 */
export const DERIVATIVE_WIDTHS = [160, 320, 640, 960, 1280, 1920, 2560] as const;
export type DerivativeFormat = 'avif' | 'webp' | 'jpg' | 'png';

/** The raster types that get derivatives. GIF (often animated) and SVG are served as they are. */
const ORIGINAL_FORMATS: Readonly<Record<string, DerivativeFormat>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

export function originalFormat(mimeType: string): DerivativeFormat | null {
  return ORIGINAL_FORMATS[mimeType] ?? null;
}

/** Ladder widths an image of `width` displayed pixels can be made at: never upscaled. */
export function ladderFor(width: number | null): number[] {
  return width ? DERIVATIVE_WIDTHS.filter((step) => step <= width) : [];
}

export const stemOf = (filename: string) => filename.replace(/\.[^.]*$/, '');

/** The public URL of a media file: served outside /api, without a key (contract §4). */
export function mediaUrl(publicUrl: string, row: Pick<MediaRow, 'workspace_id' | 'id' | 'filename'>): string {
  return `${publicUrl}/media/${row.workspace_id}/${row.id}/${encodeURIComponent(row.filename)}`;
}

/** Where a derivative lives in storage: beside its original, under the width. */
export function derivativeKey(row: Pick<MediaRow, 'workspace_id' | 'id' | 'filename'>, width: number, format: string) {
  return `${row.workspace_id}/${row.id}/w${width}/${stemOf(row.filename)}.${format}`;
}

/**
 * What a site needs beside the url to write `<img srcset sizes width height>` and to hold the image's place
 * while it loads. Additions to the specification's media object and image block: optional, read only.
 */
const SrcsetEntry = Type.Object({ width: Type.Integer(), url: Type.String() });

export const Srcset = Type.Object(
  {
    avif: Type.Array(SrcsetEntry),
    webp: Type.Array(SrcsetEntry),
    /** The image's own format (for a WebP or AVIF original, the same list as that format's). */
    original: Type.Array(SrcsetEntry),
  },
  {
    description:
      'Resized copies made on first request, never wider than the image: width in pixels → URL, per format. ' +
      'Null for images served only as they are (GIF, SVG) and for other files.',
  },
);
export type Srcset = Static<typeof Srcset>;

export const Placeholder = Type.Object(
  {
    dataUri: Type.String({ description: 'A tiny blurred preview (WebP data URI) to stretch under the image.' }),
    color: Type.String({ description: 'The dominant colour, #rrggbb.' }),
  },
  { description: 'Made at upload; null for files that are not raster images and for uploads older than it.' },
);
export type Placeholder = Static<typeof Placeholder>;

export const ResponsiveFields = {
  srcset: Type.Optional(Nullable(Srcset)),
  placeholder: Type.Optional(Nullable(Placeholder)),
};

export function srcsetOf(publicUrl: string, row: MediaRow): Srcset | null {
  const own = originalFormat(row.mime_type);
  const widths = ladderFor(row.width);
  if (!own || widths.length === 0) return null;
  const list = (format: string) =>
    widths.map((width) => ({ width, url: `${publicUrl}/media/${derivativeKey(row, width, format)}` }));
  return { avif: list('avif'), webp: list('webp'), original: list(own) };
}

export function placeholderOf(row: MediaRow): Placeholder | null {
  return row.placeholder && row.dominant_color ? { dataUri: row.placeholder, color: row.dominant_color } : null;
}
