import { Formats } from '../../http/formats.js';
import { Type, type Static } from 'typebox';
import { answerSchemas, writeSchemas } from '../../db/columns.js';
import { listQuery, paginated } from '../../http/pagination.js';
import { Timestamp, Uuid, WordsQuery } from '../../shared/schemas.js';
import { PostStatus, postFields } from './posts.fields.js';

export { POST_LIMITS, PostStatus, RelatedPostSummary, TocItem } from './posts.fields.js';

export const Post = Type.Object(answerSchemas(postFields));
export type Post = Static<typeof Post>;

/** Every field a client may write (contract §5); anything else is refused by name. */
const writable = writeSchemas(postFields);

const optional = Type.Partial(Type.Object(writable)).properties;

export const PostCreateBody = Type.Object({ ...optional, title: writable.title }, { additionalProperties: false });
export type PostCreateBody = Static<typeof PostCreateBody>;

export const PostUpdateBody = Type.Object(optional, { additionalProperties: false });
export type PostUpdateBody = Static<typeof PostUpdateBody>;

export const POST_SORT_KEYS = [
  'createdAt',
  'updatedAt',
  'publishedAt',
  'title',
  'status',
  'seoScore',
  'readabilityScore',
] as const;
export type PostSortKey = (typeof POST_SORT_KEYS)[number];

export const PostListQuery = listQuery(POST_SORT_KEYS, {
  q: Type.Optional(WordsQuery('the title, the excerpt or the body text')),
  status: Type.Optional(PostStatus),
  /** An empty string filters to uncategorised posts. */
  categoryId: Type.Optional(Type.Union([Uuid, Type.Literal('')])),
  authorId: Type.Optional(Uuid),
  tagId: Type.Optional(Uuid),
  dateFrom: Type.Optional(Timestamp),
  dateTo: Type.Optional(Timestamp),
  formats: Formats,
});
export type PostListQuery = Static<typeof PostListQuery>;
export const PostList = paginated(Post);

export const TagIdsBody = Type.Object(
  { tagIds: Type.Array(Uuid, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false },
);
export type TagIdsBody = Static<typeof TagIdsBody>;
