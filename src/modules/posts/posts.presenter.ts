import { enrichBlocks } from '../../blocks/enrich.js';
import { authorForLd, presentAuthor } from '../authors/authors.presenter.js';
import { categoryChain, chainForLd, presentCategory } from '../categories/categories.presenter.js';
import { mediaUrl } from '../../blocks/images.js';
import { presentMedia } from '../media/media.presenter.js';
import { postJsonLd } from '../seo/post-json-ld.js';
import type { ParsedPost, PostEmbeds } from './posts.embeds.types.js';
import { postColumns } from './posts.columns.js';
import type { Post } from './posts.schemas.js';

/** The fields of a post its column map answers from the row as stored. */
type PostColumnField = Exclude<(typeof postColumns.fields)[number], 'bodyJson' | 'structuredBlocks' | 'relatedPostIds'>;

export function presentPost({ row, body, structuredBlocks }: ParsedPost, embeds: PostEmbeds, publicUrl: string): Post {
  const { settings, media } = embeds;
  const authorRow = row.author_id ? embeds.authors.get(row.author_id) : undefined;
  const author = authorRow ? presentAuthor(authorRow, { publicUrl, media, settings }) : null;
  const categoryRow = row.category_id ? embeds.categories.get(row.category_id) : undefined;
  const featured = row.featured_media_id ? media.get(row.featured_media_id) : undefined;
  const featuredMedia = featured ? presentMedia(publicUrl, featured) : null;
  const tags = embeds.tags.get(row.id) ?? [];
  const fields = postColumns.read(row) as Pick<Post, PostColumnField>;
  const logo = settings.logoMediaId ? media.get(settings.logoMediaId) : undefined;
  const chain = row.category_id ? chainForLd(categoryChain(row.category_id, embeds.categories)) : [];

  return {
    ...fields,
    id: row.id,
    workspaceId: row.workspace_id,
    bodyJson: enrichBlocks(body, media, publicUrl),
    bodyText: row.body_text,
    tocItems: JSON.parse(row.toc_items) as Post['tocItems'],
    readingTimeMin: row.reading_time_min,
    featuredMedia,
    author,
    category: categoryRow ? presentCategory(categoryRow, embeds.categories, settings) : null,
    scheduledAt: row.scheduled_at,
    viewCount: row.view_count,
    structuredBlocks: enrichBlocks(structuredBlocks, media, publicUrl),
    seoScore: row.seo_score,
    readabilityScore: row.readability_score,
    jsonLd: postJsonLd(
      {
        slug: fields.slug,
        title: fields.title,
        excerpt: fields.excerpt,
        seo: fields.seo,
        schemaType: fields.schemaType,
        publishedAt: fields.publishedAt,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        wordCount: row.word_count,
        readingTimeMin: row.reading_time_min,
        isHowTo: fields.isHowTo,
        canonicalUrl: fields.canonicalUrl,
        blocks: body,
        structuredData: fields.structuredData as Record<string, unknown> | null,
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
