import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { ResponsiveFields } from '../../blocks/images.js';

/** Where a crop is centred (media.sizes.ts); fractions of the image's width and height as it is shown. */
export const FocalPoint = Type.Object(
  {
    x: Type.Number({ minimum: 0, maximum: 1, description: '0 is the left edge, 1 the right; kept to 3 decimals.' }),
    y: Type.Number({ minimum: 0, maximum: 1, description: '0 is the top edge, 1 the bottom; kept to 3 decimals.' }),
  },
  {
    additionalProperties: false,
    description:
      'The point a crop (a size with a height and cover) keeps in view; null is the centre. A crop URL carries ' +
      'it as x and y in thousandths, so a moved focal point gives new URLs.',
  },
);
export type FocalPoint = Static<typeof FocalPoint>;

export const Media = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  url: Type.String(),
  storagePath: Type.String(),
  filename: Type.String(),
  mimeType: Type.String(),
  alt: Nullable(Type.String()),
  caption: Nullable(Type.String()),
  sizeBytes: Type.Integer(),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  uploadedByUserId: Nullable(Uuid),
  uploadedByApiKeyId: Nullable(Uuid),
  createdAt: Timestamp,
  ...ResponsiveFields,
  focalPoint: Type.Optional(Nullable(FocalPoint)),
});
export type Media = Static<typeof Media>;

/** Limits where the specification is silent. */
export const MEDIA_LIMITS = { alt: 1000, caption: 2000 } as const;

const texts = {
  alt: Nullable(Type.String({ maxLength: MEDIA_LIMITS.alt })),
  caption: Nullable(Type.String({ maxLength: MEDIA_LIMITS.caption })),
  focalPoint: Nullable(FocalPoint),
};

/** Only the describing texts and the focal point change after an upload; null clears one. The bytes never change. */
export const MediaUpdateBody = Type.Object(Type.Partial(Type.Object(texts)).properties, {
  additionalProperties: false,
});
export type MediaUpdateBody = Static<typeof MediaUpdateBody>;

const Use = Type.Object({ id: Uuid, slug: Type.String(), title: Type.String() });
const Uses = Type.Object({
  total: Type.Integer(),
  items: Type.Array(Use, { description: 'The first 50, by title.' }),
});

/** GET /media/{id}/usage: where a media item is used, so a deletion can say what it would change. */
export const MediaUsage = Type.Object({
  posts: Type.Object(Uses.properties, { description: 'Live posts featuring it or showing it in an image block.' }),
  pages: Type.Object(Uses.properties, { description: 'Live pages showing it in an image block.' }),
  authors: Type.Object(Uses.properties, { description: 'Authors whose avatar it is; title is the display name.' }),
  logo: Type.Boolean({ description: "Whether it is the site settings' logo." }),
});
export type MediaUsage = Static<typeof MediaUsage>;

export const MEDIA_SORT_KEYS = ['createdAt', 'sizeBytes', 'mimeType'] as const;
export type MediaSortKey = (typeof MEDIA_SORT_KEYS)[number];

export const MediaListQuery = listQuery(MEDIA_SORT_KEYS, {
  q: Type.Optional(Type.String({ maxLength: 200 })),
  /** `image/` lists every image, `image/png` only PNGs; matched case-insensitively. */
  mimeTypePrefix: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9.+/-]+$' })),
});
export type MediaListQuery = Static<typeof MediaListQuery>;
export const MediaList = paginated(Media);
