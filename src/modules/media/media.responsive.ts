import { Type, type Static } from 'typebox';
import type { MediaRow } from '../../db/schema.js';
import { Nullable } from '../../shared/schemas.js';
import { derivativeKey } from './media.derivatives.js';
import { ladderFor, originalFormat } from './media.images.js';

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
