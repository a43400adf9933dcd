import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Slug, Timestamp, Uuid } from '../../shared/schemas.js';
import { Media } from '../media/media.schemas.js';
import { JsonLd, NullableSeo, Person, Seo } from '../seo/seo.schemas.js';

/** Limits of contract §5 (author names 100) and ours where it is silent. */
export const AUTHOR_LIMITS = { displayName: 100, bio: 5000, credentials: 300, sameAs: 20, url: 2000 } as const;

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

/** Every field a client may write; anything else is refused by name. */
const writable = {
  slug: Slug,
  displayName: Type.String({ minLength: 1, maxLength: AUTHOR_LIMITS.displayName, pattern: '\\S' }),
  bio: Nullable(Type.String({ maxLength: AUTHOR_LIMITS.bio })),
  credentials: Nullable(Type.String({ maxLength: AUTHOR_LIMITS.credentials })),
  avatarMediaId: Nullable(Uuid),
  sameAs: Type.Array(Type.String({ format: 'uri', maxLength: AUTHOR_LIMITS.url }), {
    maxItems: AUTHOR_LIMITS.sameAs,
    uniqueItems: true,
  }),
  isActive: Type.Boolean(),
  seo: Nullable(Seo),
  person: Nullable(Person),
};

const optional = Type.Partial(Type.Object(writable)).properties;

export const AuthorCreateBody = Type.Object(
  { ...optional, displayName: writable.displayName },
  { additionalProperties: false },
);
export type AuthorCreateBody = Static<typeof AuthorCreateBody>;

export const AuthorUpdateBody = Type.Object(optional, { additionalProperties: false, minProperties: 1 });
export type AuthorUpdateBody = Static<typeof AuthorUpdateBody>;

export const AUTHOR_SORT_KEYS = ['createdAt', 'updatedAt', 'displayName'] as const;
export type AuthorSortKey = (typeof AUTHOR_SORT_KEYS)[number];

export const AuthorListQuery = listQuery(AUTHOR_SORT_KEYS, {
  /** Case-insensitive, literal substring of the display name or the slug. */
  q: Type.Optional(Type.String({ maxLength: 200 })),
  isActive: Type.Optional(Type.Boolean()),
});
export type AuthorListQuery = Static<typeof AuthorListQuery>;
export const AuthorList = paginated(Author);
