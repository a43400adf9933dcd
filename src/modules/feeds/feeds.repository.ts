import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Executor = Kysely<Database>;

/** A published post's or page's place in a sitemap: where it is, when it changed, its featured image. */
export interface SitemapRow {
  slug: string;
  updated_at: string;
  media_id: string | null;
  media_filename: string | null;
}

export type SitemapKind = 'posts' | 'pages' | 'authors' | 'categories';

/**
 * The rows of sitemaps, read apart from the resources' services: a sitemap part lists up to 50,000 of them, so
 * only the columns a URL needs are read, in the order of an index (posts and pages by publication, newest first).
 */
export const feedsRepository = {
  /** How many a kind has, and its newest change: one query per kind for the index. */
  async summary(
    db: Executor,
    workspaceId: string,
    kind: SitemapKind,
  ): Promise<{ count: number; lastmod: string | null }> {
    const row = await live(db, workspaceId, kind)
      .select(({ fn }) => [fn.countAll<number>().as('count'), fn.max<string | null>('updated_at').as('lastmod')])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), lastmod: row.lastmod ?? null };
  },

  async postsPart(db: Executor, workspaceId: string, offset: number, limit: number): Promise<SitemapRow[]> {
    return db
      .selectFrom('posts')
      .leftJoin('media', (join) =>
        join.onRef('media.id', '=', 'posts.featured_media_id').onRef('media.workspace_id', '=', 'posts.workspace_id'),
      )
      .select(['posts.slug', 'posts.updated_at', 'media.id as media_id', 'media.filename as media_filename'])
      .where('posts.workspace_id', '=', workspaceId)
      .where('posts.status', '=', 'published')
      .where('posts.deleted_at', 'is', null)
      .orderBy('posts.published_at', 'desc')
      .orderBy('posts.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  async pagesPart(db: Executor, workspaceId: string, offset: number, limit: number): Promise<SitemapRow[]> {
    const rows = await db
      .selectFrom('pages')
      .select(['slug', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'published')
      .where('deleted_at', 'is', null)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((row) => ({ ...row, media_id: null, media_filename: null }));
  },

  async authorsPart(db: Executor, workspaceId: string, offset: number, limit: number) {
    return db
      .selectFrom('authors')
      .select(['slug', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  /** Every category with its parent, for the paths a `{path}` pattern needs. */
  async categories(db: Executor, workspaceId: string) {
    return db
      .selectFrom('categories')
      .select(['id', 'parent_id', 'slug', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },
};

/** The rows a kind's sitemap lists: published posts and pages, every author and category. */
function live(db: Executor, workspaceId: string, kind: SitemapKind) {
  // One table's shape for the four: they share the columns read here.
  const table = kind as 'posts';
  const rows = db.selectFrom(table).where('workspace_id', '=', workspaceId);
  return kind === 'posts' || kind === 'pages'
    ? rows.where('status', '=', 'published').where('deleted_at', 'is', null)
    : rows;
}
