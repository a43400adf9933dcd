import { Type, type Static } from 'typebox';
import { Body, BodyWrite } from '../../blocks/blocks.schemas.js';
import { listQuery, paginated } from '../../http/pagination.js';
import { FreeFormObject, Nullable, Slug, Timestamp, Uuid, WordsQuery } from '../../shared/schemas.js';
import { Author } from '../authors/authors.schemas.js';
import { Category } from '../categories/categories.schemas.js';
import { Media } from '../media/media.schemas.js';
import { JsonLd, NullableSeo, Seo } from '../seo/seo.schemas.js';
import { Tag } from '../tags/tags.schemas.js';

export const PostStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('scheduled'),
  Type.Literal('published'),
  Type.Literal('archived'),
]);

/** Limits of contract §5 where the specification is silent. */
export const POST_LIMITS = { title: 300, excerpt: 1000, summaryForAi: 2000, url: 2000, relatedPosts: 50 } as const;

export const TocItem = Type.Object({
  level: Type.Union([Type.Literal(2), Type.Literal(3), Type.Literal(4)]),
  text: Type.String(),
  id: Type.String(),
});

export const RelatedPostSummary = Type.Object({
  id: Uuid,
  slug: Type.String(),
  title: Type.String(),
  excerpt: Type.String(),
  status: PostStatus,
  featuredMediaId: Nullable(Uuid),
});

export const Post = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  slug: Type.String(),
  title: Type.String(),
  excerpt: Type.String(),
  bodyJson: Body,
  bodyText: Type.String(),
  tocItems: Type.Array(TocItem),
  readingTimeMin: Type.Integer({ minimum: 1 }),
  featuredMediaId: Nullable(Uuid),
  featuredMedia: Nullable(Media),
  authorId: Nullable(Uuid),
  author: Nullable(Author),
  categoryId: Nullable(Uuid),
  category: Nullable(Category),
  status: PostStatus,
  publishedAt: Nullable(Timestamp),
  scheduledAt: Nullable(Timestamp),
  isHowTo: Type.Boolean(),
  summaryForAi: Nullable(Type.String()),
  canonicalUrl: Nullable(Type.String()),
  viewCount: Type.Integer(),
  seo: NullableSeo,
  schemaType: Type.String(),
  structuredData: Nullable(Type.Object({}, { additionalProperties: true })),
  structuredBlocks: Body,
  seoScore: Type.Integer({ minimum: 0, maximum: 100 }),
  readabilityScore: Type.Integer({ minimum: 0, maximum: 100 }),
  jsonLd: JsonLd,
  deletedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  tags: Type.Array(Tag),
  relatedPosts: Type.Array(RelatedPostSummary),
});
export type Post = Static<typeof Post>;

/** Every field a client may write (contract §5); anything else is refused by name. */
const writable = {
  slug: Slug,
  title: Type.String({ minLength: 1, maxLength: POST_LIMITS.title, pattern: '\\S' }),
  excerpt: Type.String({ maxLength: POST_LIMITS.excerpt }),
  bodyJson: BodyWrite,
  featuredMediaId: Nullable(Uuid),
  authorId: Nullable(Uuid),
  categoryId: Nullable(Uuid),
  status: PostStatus,
  publishedAt: Nullable(Timestamp),
  isHowTo: Type.Boolean(),
  summaryForAi: Nullable(Type.String({ maxLength: POST_LIMITS.summaryForAi })),
  canonicalUrl: Nullable(Type.String({ format: 'uri', maxLength: POST_LIMITS.url })),
  seo: Nullable(Seo),
  schemaType: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Z][A-Za-z]*$' }),
  structuredData: Nullable(FreeFormObject),
  structuredBlocks: BodyWrite,
  relatedPostIds: Type.Array(Uuid, { maxItems: POST_LIMITS.relatedPosts, uniqueItems: true }),
};

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
});
export type PostListQuery = Static<typeof PostListQuery>;
export const PostList = paginated(Post);

export const TagIdsBody = Type.Object(
  { tagIds: Type.Array(Uuid, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false },
);
export type TagIdsBody = Static<typeof TagIdsBody>;
