import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Slug, Timestamp, Uuid } from '../../shared/schemas.js';
import { JsonLd, NullableSeo, Seo } from '../seo/seo.schemas.js';

/** Limits where the contract is silent: names as author names, descriptions as SEO descriptions. */
export const CATEGORY_LIMITS = { name: 100, description: 1000 } as const;

export const CollectionMetadata = Type.Object(
  {
    includeChildCategories: Type.Optional(Type.Boolean()),
    sortPostsBy: Type.Optional(
      Type.Union([
        Type.Literal('publishedAt'),
        Type.Literal('createdAt'),
        Type.Literal('updatedAt'),
        Type.Literal('title'),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type CollectionMetadata = Static<typeof CollectionMetadata>;

/** What a category stores when a write leaves collectionMetadata, or one of its keys, out. */
export const COLLECTION_METADATA_DEFAULTS = {
  includeChildCategories: false,
  sortPostsBy: 'publishedAt',
} as const satisfies Required<CollectionMetadata>;

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

/** Every field a client may write; anything else is refused by name. */
const writable = {
  slug: Slug,
  name: Type.String({ minLength: 1, maxLength: CATEGORY_LIMITS.name, pattern: '\\S' }),
  description: Nullable(Type.String({ maxLength: CATEGORY_LIMITS.description })),
  parentId: Nullable(Uuid),
  // The bounds of a 32-bit integer column on both dialects.
  sortOrder: Type.Integer({ minimum: -2147483648, maximum: 2147483647 }),
  isActive: Type.Boolean(),
  seo: Nullable(Seo),
  collectionMetadata: CollectionMetadata,
};

const optional = Type.Partial(Type.Object(writable)).properties;

export const CategoryCreateBody = Type.Object({ ...optional, name: writable.name }, { additionalProperties: false });
export type CategoryCreateBody = Static<typeof CategoryCreateBody>;

export const CategoryUpdateBody = Type.Object(optional, { additionalProperties: false, minProperties: 1 });
export type CategoryUpdateBody = Static<typeof CategoryUpdateBody>;

export const CATEGORY_SORT_KEYS = ['createdAt', 'updatedAt', 'name', 'sortOrder'] as const;
export type CategorySortKey = (typeof CATEGORY_SORT_KEYS)[number];

export const CategoryListQuery = listQuery(CATEGORY_SORT_KEYS, {
  /** Case-insensitive, literal substring of the name or the slug. */
  q: Type.Optional(Type.String({ maxLength: 200 })),
  /** The children of one category; an empty string lists the root categories. */
  parentId: Type.Optional(Type.Union([Uuid, Type.Literal('')])),
});
export type CategoryListQuery = Static<typeof CategoryListQuery>;
export const CategoryList = paginated(Category);
