import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Slug, Timestamp, Uuid } from '../../shared/schemas.js';
import { NullableSeo, Seo } from '../seo/seo.schemas.js';

export const TAG_NAME_MAX_LENGTH = 100;

export const Tag = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  slug: Type.String(),
  name: Type.String(),
  seo: NullableSeo,
  createdAt: Timestamp,
});
export type Tag = Static<typeof Tag>;

/** Every field a client may write; anything else is refused by name. */
const writable = {
  slug: Slug,
  name: Type.String({ minLength: 1, maxLength: TAG_NAME_MAX_LENGTH, pattern: '\\S' }),
  seo: Nullable(Seo),
};

const optional = Type.Partial(Type.Object(writable)).properties;

export const TagCreateBody = Type.Object({ ...optional, name: writable.name }, { additionalProperties: false });
export type TagCreateBody = Static<typeof TagCreateBody>;

export const TagUpdateBody = Type.Object(optional, { additionalProperties: false, minProperties: 1 });
export type TagUpdateBody = Static<typeof TagUpdateBody>;

export const TAG_SORT_KEYS = ['createdAt', 'name'] as const;
export type TagSortKey = (typeof TAG_SORT_KEYS)[number];

export const TagListQuery = listQuery(TAG_SORT_KEYS, {
  /** Case-insensitive, literal substring of the name or the slug. */
  q: Type.Optional(Type.String({ maxLength: 200 })),
});
export type TagListQuery = Static<typeof TagListQuery>;
export const TagList = paginated(Tag);
