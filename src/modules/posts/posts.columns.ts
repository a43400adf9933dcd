import { columnMap, computed, flag, instant, json, stored, trimmed } from '../../db/columns.js';
import type { PostUpdateBody } from './posts.schemas.js';

/** Where each writable field of a post is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const postColumns = columnMap<PostUpdateBody>({
  // Claimed free, derived from the title when left out (shared/slug-claim.ts).
  slug: computed('slug'),
  title: trimmed('title'),
  excerpt: stored('excerpt', { initial: '' }),
  // The body and what derives from it (bodyText, tocItems, reading time, the search text).
  bodyJson: computed(),
  featuredMediaId: stored('featured_media_id'),
  authorId: stored('author_id'),
  categoryId: stored('category_id'),
  status: stored('status', { initial: 'draft' }),
  publishedAt: instant('published_at'),
  isHowTo: flag('is_how_to', { initial: false }),
  summaryForAi: stored('summary_for_ai'),
  canonicalUrl: stored('canonical_url'),
  seo: json('seo'),
  schemaType: stored('schema_type', { initial: 'BlogPosting' }),
  structuredData: json('structured_data'),
  // Heading ids assigned on write; image urls added on read.
  structuredBlocks: computed(),
  // Rows of related_posts, in the order given.
  relatedPostIds: computed(),
});
