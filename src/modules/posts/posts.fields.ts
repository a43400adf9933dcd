import { Type } from 'typebox';
import { Body, BodyWrite } from '../../blocks/blocks.schemas.js';
import { computed, fieldList, flag, instant, json, stored, trimmed } from '../../db/columns.js';
import { FreeFormObject, Nullable, Slug, Timestamp, Uuid } from '../../shared/schemas.js';
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

/**
 * Every field of a post (db/columns.ts, FieldSpec), in the order a post is answered: posts.schemas.ts builds
 * the Post answer and the create and PATCH bodies from it, posts.columns.ts the column map, and the workspace
 * archive, the OpenAPI example and the seed read it. A writable field is one entry here (docs/architecture.md,
 * "Adding a post field").
 */
export const postFields = fieldList({
  id: { answer: Uuid, columns: ['id'] },
  workspaceId: { answer: Uuid },
  // Claimed free, derived from the title when left out (shared/slug-claim.ts).
  slug: { answer: Type.String(), write: Slug, column: computed('slug') },
  title: {
    answer: Type.String(),
    write: Type.String({ minLength: 1, maxLength: POST_LIMITS.title, pattern: '\\S' }),
    column: trimmed('title'),
  },
  excerpt: {
    answer: Type.String(),
    write: Type.String({ maxLength: POST_LIMITS.excerpt }),
    column: stored('excerpt', { initial: '' }),
  },
  // The body and what derives from it (bodyText, tocItems, reading time, the search text).
  bodyJson: { answer: Body, write: BodyWrite, column: computed(), columns: ['body_json'] },
  bodyText: { answer: Type.String(), columns: ['body_text'] },
  tocItems: { answer: Type.Array(TocItem), columns: ['toc_items'] },
  readingTimeMin: { answer: Type.Integer({ minimum: 1 }), columns: ['word_count', 'reading_time_min'] },
  featuredMediaId: { answer: Nullable(Uuid), write: Nullable(Uuid), column: stored('featured_media_id') },
  featuredMedia: { answer: Nullable(Media) },
  authorId: { answer: Nullable(Uuid), write: Nullable(Uuid), column: stored('author_id') },
  author: { answer: Nullable(Author) },
  categoryId: { answer: Nullable(Uuid), write: Nullable(Uuid), column: stored('category_id') },
  category: { answer: Nullable(Category) },
  status: { answer: PostStatus, write: PostStatus, column: stored('status', { initial: 'draft' }) },
  publishedAt: { answer: Nullable(Timestamp), write: Nullable(Timestamp), column: instant('published_at') },
  scheduledAt: { answer: Nullable(Timestamp), columns: ['scheduled_at'] },
  isHowTo: { answer: Type.Boolean(), write: Type.Boolean(), column: flag('is_how_to', { initial: false }) },
  summaryForAi: {
    answer: Nullable(Type.String()),
    write: Nullable(Type.String({ maxLength: POST_LIMITS.summaryForAi })),
    column: stored('summary_for_ai'),
  },
  canonicalUrl: {
    answer: Nullable(Type.String()),
    write: Nullable(Type.String({ format: 'uri', maxLength: POST_LIMITS.url })),
    column: stored('canonical_url'),
  },
  viewCount: { answer: Type.Integer(), columns: ['view_count'] },
  seo: { answer: NullableSeo, write: Nullable(Seo), column: json('seo') },
  schemaType: {
    answer: Type.String(),
    write: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Z][A-Za-z]*$' }),
    column: stored('schema_type', { initial: 'BlogPosting' }),
  },
  structuredData: {
    answer: Nullable(Type.Object({}, { additionalProperties: true })),
    write: Nullable(FreeFormObject),
    column: json('structured_data'),
  },
  // Heading ids assigned on write; image urls added on read.
  structuredBlocks: { answer: Body, write: BodyWrite, column: computed(), columns: ['structured_blocks'] },
  seoScore: { answer: Type.Integer({ minimum: 0, maximum: 100 }), columns: ['seo_score'] },
  readabilityScore: { answer: Type.Integer({ minimum: 0, maximum: 100 }), columns: ['readability_score'] },
  jsonLd: { answer: JsonLd },
  deletedAt: { answer: Nullable(Timestamp), columns: ['deleted_at'] },
  createdAt: { answer: Timestamp, columns: ['created_at'] },
  updatedAt: { answer: Timestamp, columns: ['updated_at'] },
  tags: { answer: Type.Array(Tag) },
  relatedPosts: { answer: Type.Array(RelatedPostSummary) },
  // Last in the answer: a stored render gains it at its end (read/post-reads.ts).
  bodyHtml: {
    answer: Type.Optional(
      Type.String({
        description:
          'The body as HTML (@quire/blocks, docs/blocks.md): only when asked for, by `formats=html` or by naming it in `fields`.',
      }),
    ),
  },
  // Rows of related_posts, in the order given.
  relatedPostIds: {
    write: Type.Array(Uuid, { maxItems: POST_LIMITS.relatedPosts, uniqueItems: true }),
    column: computed(),
  },
});
