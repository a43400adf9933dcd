import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { JsonLd, NullableSeo } from '../seo/seo.schemas.js';

export const CollectionMetadata = Type.Object(
  {
    includeChildCategories: Type.Optional(Type.Boolean()),
    sortPostsBy: Type.Optional(Type.Union([Type.Literal('publishedAt'), Type.Literal('createdAt'), Type.Literal('updatedAt'), Type.Literal('title')])),
  },
  { additionalProperties: false },
);

export const Category = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  slug: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  /** Slugs of the ancestor chain and the category itself, root first, joined by `/`. */
  path: Type.String(),
  parentId: Nullable(Uuid),
  sortOrder: Type.Integer(),
  isActive: Type.Boolean(),
  seo: NullableSeo,
  collectionMetadata: Nullable(CollectionMetadata),
  jsonLd: JsonLd,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Category = Static<typeof Category>;
