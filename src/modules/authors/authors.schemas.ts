import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { Media } from '../media/media.schemas.js';
import { JsonLd, NullableSeo } from '../seo/seo.schemas.js';

export const Person = Type.Object(
  {
    jobTitle: Type.Optional(Type.String({ maxLength: 200 })),
    worksFor: Type.Optional(Type.String({ maxLength: 200 })),
    alumniOf: Type.Optional(Type.String({ maxLength: 200 })),
    award: Type.Optional(Type.String({ maxLength: 300 })),
    honorificPrefix: Type.Optional(Type.String({ maxLength: 50 })),
    honorificSuffix: Type.Optional(Type.String({ maxLength: 50 })),
    knowsAbout: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type Person = Static<typeof Person>;

export const Author = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  slug: Type.String(),
  displayName: Type.String(),
  bio: Nullable(Type.String()),
  credentials: Nullable(Type.String()),
  avatarMediaId: Nullable(Uuid),
  avatarMedia: Nullable(Media),
  sameAs: Type.Array(Type.String()),
  isActive: Type.Boolean(),
  seo: NullableSeo,
  person: Nullable(Person),
  jsonLd: JsonLd,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Author = Static<typeof Author>;
