import type { Block, StoredBlock } from '../../blocks/blocks.schemas.js';
import type { MediaRow } from '../../db/schema.js';
import { parseJson } from '../../shared/json.js';
import { authorForLd, presentAuthor } from '../authors/authors.presenter.js';
import { categoryChain, chainForLd, presentCategory } from '../categories/categories.presenter.js';
import { mediaUrl, presentMedia } from '../media/media.presenter.js';
import { postJsonLd } from '../seo/post-json-ld.js';
import type { Seo } from '../seo/seo.schemas.js';
import type { ParsedPost, PostEmbeds } from './posts.embeds.js';
import type { Post } from './posts.schemas.js';

/** The read form of blocks: each image gets the url of its media, or null once the media is gone. */
export function enrichBlocks(
  blocks: readonly StoredBlock[],
  media: ReadonlyMap<string, MediaRow>,
  publicUrl: string,
): Block[] {
  return blocks.map((block) => {
    if (block.type !== 'image') return block;
    const row = media.get(block.mediaId);
    return { ...block, url: row ? mediaUrl(publicUrl, row) : null };
  });
}

export function presentPost({ row, body, structuredBlocks }: ParsedPost, embeds: PostEmbeds, publicUrl: string): Post {
  const { settings, media } = embeds;
  const authorRow = row.author_id ? embeds.authors.get(row.author_id) : undefined;
  const author = authorRow ? presentAuthor(authorRow, { publicUrl, media, settings }) : null;
  const categoryRow = row.category_id ? embeds.categories.get(row.category_id) : undefined;
  const featured = row.featured_media_id ? media.get(row.featured_media_id) : undefined;
  const featuredMedia = featured ? presentMedia(publicUrl, featured) : null;
  const tags = embeds.tags.get(row.id) ?? [];
  const seo = parseJson<Seo>(row.seo);
  const structuredData = parseJson<Record<string, unknown>>(row.structured_data);
  const isHowTo = Boolean(row.is_how_to);
  const logo = settings.logoMediaId ? media.get(settings.logoMediaId) : undefined;
  const chain = row.category_id ? chainForLd(categoryChain(row.category_id, embeds.categories)) : [];

  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    bodyJson: enrichBlocks(body, media, publicUrl),
    bodyText: row.body_text,
    tocItems: JSON.parse(row.toc_items) as Post['tocItems'],
    readingTimeMin: row.reading_time_min,
    featuredMediaId: row.featured_media_id,
    featuredMedia,
    authorId: row.author_id,
    author,
    categoryId: row.category_id,
    category: categoryRow ? presentCategory(categoryRow, embeds.categories, settings) : null,
    status: row.status,
    publishedAt: row.published_at,
    scheduledAt: row.scheduled_at,
    isHowTo,
    summaryForAi: row.summary_for_ai,
    canonicalUrl: row.canonical_url,
    viewCount: row.view_count,
    seo,
    schemaType: row.schema_type,
    structuredData,
    structuredBlocks: enrichBlocks(structuredBlocks, media, publicUrl),
    seoScore: row.seo_score,
    readabilityScore: row.readability_score,
    jsonLd: postJsonLd(
      {
        slug: row.slug,
        title: row.title,
        excerpt: row.excerpt,
        seo,
        schemaType: row.schema_type,
        publishedAt: row.published_at,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        wordCount: row.word_count,
        readingTimeMin: row.reading_time_min,
        isHowTo,
        canonicalUrl: row.canonical_url,
        blocks: body,
        structuredData,
        author: author ? authorForLd(author) : null,
        categoryChain: chain,
        imageUrl: featuredMedia?.url ?? null,
        tagNames: tags.map((tag) => tag.name),
      },
      settings,
      logo ? mediaUrl(publicUrl, logo) : null,
    ),
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    tags,
    relatedPosts: (embeds.related.get(row.id) ?? []).map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      excerpt: r.excerpt,
      status: r.status,
      featuredMediaId: r.featured_media_id,
    })),
  };
}
