import { renderBlocks } from '@quire/blocks';
import type { DatabaseHandle } from '../../db/database.js';
import { mediaUrl } from '../../blocks/images.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import type { AuthorsService } from '../authors/authors.service.js';
import type { CategoriesService } from '../categories/categories.service.js';
import type { Post } from '../posts/posts.schemas.js';
import type { PostReads } from '../posts/read/post-reads.js';
import type { TagsService } from '../tags/tags.service.js';
import { loadSiteSettings, siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';
import { renderFeed, type FeedFormat } from './feeds.js';
import { feedsRepository as repo, type SitemapKind, type SitemapRow } from './feeds.repository.js';
import { renderSitemap, renderSitemapIndex, SITEMAP_URLS, type SitemapEntry } from './sitemaps.js';

export const FEED_LIMITS = { default: 20, max: 100 } as const;

export interface FeedQuery {
  categoryId?: string | undefined;
  tagId?: string | undefined;
  authorId?: string | undefined;
  limit?: number | undefined;
}

const SITEMAP_KINDS: readonly SitemapKind[] = ['posts', 'pages', 'authors', 'categories'];
const PATTERN_OF: Record<SitemapKind, keyof SiteSettings> = {
  posts: 'postUrlPattern',
  pages: 'pageUrlPattern',
  authors: 'authorUrlPattern',
  categories: 'categoryUrlPattern',
};

const noSitemap = () => notFound('Sitemap');

/**
 * Feeds and sitemaps of a workspace's published content (docs/content-api.md, "Feeds and sitemaps"), built from the
 * site settings' URL patterns: a post whose site URL cannot be built has no place in them.
 */
export function createFeedsService(
  database: DatabaseHandle,
  publicUrl: string,
  content: { postReads: PostReads; categories: CategoriesService; tags: TagsService; authors: AuthorsService },
) {
  const { db } = database;

  async function subjectOf(actor: Actor, query: FeedQuery): Promise<string | undefined> {
    if (query.categoryId) return (await content.categories.get(actor, query.categoryId)).name;
    if (query.tagId) return (await content.tags.get(actor, query.tagId)).name;
    if (query.authorId) return (await content.authors.get(actor, query.authorId)).displayName;
    return undefined;
  }

  /** Sitemaps need the site's URL and a kind's pattern; without them the kind has none. */
  function kindsOf(settings: SiteSettings): SitemapKind[] {
    return settings.siteUrl ? SITEMAP_KINDS.filter((kind) => settings[PATTERN_OF[kind]]) : [];
  }

  return {
    async feed(
      actor: Actor,
      format: FeedFormat,
      query: FeedQuery,
      links: { rss: string; atom: string; json: string },
    ): Promise<string> {
      const [settings, subject] = await Promise.all([loadSiteSettings(db, actor.workspaceId), subjectOf(actor, query)]);
      const limit = query.limit ?? FEED_LIMITS.default;
      const filter = {
        status: 'published' as const,
        categoryId: query.categoryId,
        tagId: query.tagId,
        authorId: query.authorId,
        page: 1,
        pageSize: limit,
      };
      const page = { page: 1, pageSize: limit, order: 'desc' as const, orderBy: 'publishedAt' as const };
      const answer = await content.postReads.list(actor, filter, page);
      const posts: Array<{ post: Post; html: string }> = [];
      const linkBase = settings.siteUrl ?? undefined;
      for await (const json of answer.items) {
        const post = JSON.parse(json.toString('utf8')) as Post;
        posts.push({ post, html: renderBlocks(post.bodyJson, linkBase ? { linkBase } : {}) });
      }
      const workspace = await db
        .selectFrom('workspaces')
        .select('name')
        .where('id', '=', actor.workspaceId)
        .executeTakeFirstOrThrow();
      return renderFeed(format, { settings, fallbackTitle: workspace.name, subject, posts, links });
    },

    /** The index: one sitemap per part of each kind that has URLs; `locOf` says where a part is served. */
    async sitemapIndex(actor: Actor, locOf: (name: string) => string): Promise<string> {
      const settings = await loadSiteSettings(db, actor.workspaceId);
      const sitemaps: Array<{ loc: string; lastmod: string | null }> = [];
      for (const kind of kindsOf(settings)) {
        const { count, lastmod } = await repo.summary(db, actor.workspaceId, kind);
        for (let part = 1; part <= Math.ceil(count / SITEMAP_URLS); part += 1)
          sitemaps.push({ loc: locOf(`${kind}-${part}.xml`), lastmod });
      }
      return renderSitemapIndex(sitemaps);
    },

    /** One part, named as the index names it (`posts-1.xml`); a part with nothing in it is a 404. */
    async sitemap(actor: Actor, name: string): Promise<string> {
      const match = /^(posts|pages|authors|categories)-([1-9]\d{0,5})\.xml$/.exec(name);
      if (!match) throw noSitemap();
      const kind = match[1] as SitemapKind;
      const offset = (Number(match[2]) - 1) * SITEMAP_URLS;
      const settings = await loadSiteSettings(db, actor.workspaceId);
      if (!kindsOf(settings).includes(kind)) throw noSitemap();
      const entries = await entriesOf(actor.workspaceId, settings, kind, offset);
      if (entries.length === 0) throw noSitemap();
      return renderSitemap(entries);
    },
  };

  async function entriesOf(
    workspaceId: string,
    settings: SiteSettings,
    kind: SitemapKind,
    offset: number,
  ): Promise<SitemapEntry[]> {
    const pattern = settings[PATTERN_OF[kind]] as string;
    const entry = (values: { slug: string; path?: string }, updatedAt: string, images: string[] = []) => {
      const loc = siteUrlFor(settings, pattern, values);
      return loc ? [{ loc, lastmod: new Date(updatedAt).toISOString(), images }] : [];
    };
    const withImage = (row: SitemapRow) =>
      entry(
        row,
        row.updated_at,
        row.media_id && row.media_filename
          ? [mediaUrl(publicUrl, { workspace_id: workspaceId, id: row.media_id, filename: row.media_filename })]
          : [],
      );
    switch (kind) {
      case 'posts':
        return (await repo.postsPart(db, workspaceId, offset, SITEMAP_URLS)).flatMap(withImage);
      case 'pages':
        return (await repo.pagesPart(db, workspaceId, offset, SITEMAP_URLS)).flatMap(withImage);
      case 'authors':
        return (await repo.authorsPart(db, workspaceId, offset, SITEMAP_URLS)).flatMap((row) =>
          entry(row, row.updated_at),
        );
      case 'categories': {
        const rows = await repo.categories(db, workspaceId);
        const byId = new Map(rows.map((row) => [row.id, row]));
        // A category's path is its ancestors' slugs and its own; a loop (refused on write) stops at its start.
        const pathOf = (row: (typeof rows)[number]) => {
          const slugs: string[] = [];
          const seen = new Set<string>();
          for (let at: typeof row | undefined = row; at && !seen.has(at.id); at = byId.get(at.parent_id ?? '')) {
            seen.add(at.id);
            slugs.unshift(at.slug);
          }
          return slugs.join('/');
        };
        return rows
          .slice(offset, offset + SITEMAP_URLS)
          .flatMap((row) => entry({ slug: row.slug, path: pathOf(row) }, row.updated_at));
      }
    }
  }
}

export type FeedsService = ReturnType<typeof createFeedsService>;
