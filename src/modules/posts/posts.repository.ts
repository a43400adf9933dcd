import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { withRowLock, type RowLock } from '../../db/locks.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Database, NewPostRow, PostRow, StoredPost } from '../../db/schema.js';
import { impliedTotal, type PageRequest } from '../../shared/paging.js';
import { idOrSlugKey } from '../../shared/slug.js';
import { workspacesRepository } from '../workspaces/workspaces.repository.js';
import type { PostHandle } from './posts.renders.js';
import type { PostSortKey } from './posts.schemas.js';

type Executor = Kysely<Database>;

export interface PostFilter {
  /** Already folded with foldForSearch. */
  q?: string | undefined;
  status?: PostRow['status'] | undefined;
  /** null: uncategorised posts only. */
  categoryId?: string | null | undefined;
  authorId?: string | undefined;
  tagId?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/**
 * Up to this many index matches, a search lists them all in one statement and counts them there. The
 * matches of every workspace count, and each costs a row lookup and a place in the sort: 500 cost about
 * 1 ms at 10,000 posts.
 */
const FEW_MATCHES = 500;

const SORT_COLUMNS: Record<PostSortKey, keyof PostRow> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  publishedAt: 'published_at',
  title: 'title',
  status: 'status',
  seoScore: 'seo_score',
  readabilityScore: 'readability_score',
};

const READ_FLAGS = {
  id: true,
  workspace_id: true,
  slug: true,
  title: true,
  excerpt: true,
  body_json: true,
  body_text: true,
  toc_items: true,
  word_count: true,
  reading_time_min: true,
  featured_media_id: true,
  author_id: true,
  category_id: true,
  status: true,
  published_at: true,
  scheduled_at: true,
  is_how_to: true,
  summary_for_ai: true,
  canonical_url: true,
  view_count: true,
  seo: true,
  schema_type: true,
  structured_data: true,
  structured_blocks: true,
  seo_score: true,
  readability_score: true,
  deleted_at: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof StoredPost, true>;
/** Every column but search_text, which would double the text read and decoded for each post (6 kB of 21 kB). */
const READ_COLUMNS = Object.keys(READ_FLAGS).map((column) => `posts.${column}` as `posts.${keyof StoredPost}`);

function livePosts(db: Executor, workspaceId: string) {
  return db.selectFrom('posts').where('posts.workspace_id', '=', workspaceId).where('posts.deleted_at', 'is', null);
}

/**
 * The sum of the render stamps of the posts `posts` lists as related, deleted ones included. Each write
 * to a post moves its own stamp up, and the list itself changes only by a write to `posts`, which moves
 * its stamp instead: so the post's stamp and this sum never come back to values they had with other rows
 * behind them, and a render stored under both is never served after a write that could change it.
 */
function relatedStamp(workspaceId: string) {
  return sql<number>`(select coalesce(sum(related.render_stamp), 0) from related_posts
    inner join posts as related on related.id = related_posts.related_post_id
    where related_posts.workspace_id = ${workspaceId} and related_posts.post_id = posts.id)`;
}

/**
 * Posts as reads find them: id, the labels of stored renders (posts.renders.ts) and the
 * stored render when it is current for `format`; the rows themselves are loaded only for the posts
 * without one.
 */
function postHandles(db: Executor, workspaceId: string, format: string) {
  return db
    .selectFrom('posts')
    .innerJoin('workspaces', 'workspaces.id', 'posts.workspace_id')
    .leftJoin('post_renders', (join) =>
      join
        .onRef('post_renders.post_id', '=', 'posts.id')
        .onRef('post_renders.render_stamp', '=', 'posts.render_stamp')
        .onRef('post_renders.embeds_version', '=', 'workspaces.embeds_version')
        .on('post_renders.format', '=', format)
        // Summed here and again in the select, which the join cannot name: the second sum cost 7 µs of a
        // 10-post list's 220 µs statement (better-sqlite3, 5,000 runs), less than a comparison in JS would move.
        .on(sql<boolean>`post_renders.related_stamp = ${relatedStamp(workspaceId)}`),
    )
    .select([
      'posts.id',
      'posts.render_stamp',
      relatedStamp(workspaceId).as('related_stamp'),
      'workspaces.embeds_version',
      'post_renders.json',
      'workspaces.live_post_count',
    ])
    .where('posts.workspace_id', '=', workspaceId);
}

/** Every uncached read of one post runs one of these: Kysely builds and compiles each once per dialect. */
const handleById = preparedQuery((db: Executor, workspaceId: string, format: string, id: string) =>
  postHandles(db, workspaceId, format).where('posts.deleted_at', 'is', null).where('posts.id', '=', id),
);
const handleBySlug = preparedQuery((db: Executor, workspaceId: string, format: string, slug: string) =>
  postHandles(db, workspaceId, format).where('posts.deleted_at', 'is', null).where('posts.slug', '=', slug),
);

export type PostPatch = Partial<Omit<PostRow, 'id' | 'workspace_id' | 'created_at'>>;

export interface RelatedRow {
  post_id: string;
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  status: PostRow['status'];
  featured_media_id: string | null;
}

/** All SQL of posts; every function takes the workspace id first, after the executor. */
export const postsRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    format: string,
    filter: PostFilter,
    page: PageRequest<PostSortKey>,
  ) {
    // A term the index finds in few rows: the planner starts from exactly those (DialectHelpers.searchFew).
    const few = filter.q ? await dialect.searchFew(db, 'posts', filter.q, FEW_MATCHES) : undefined;
    let query = livePosts(db, workspaceId);
    if (filter.q) query = query.where(few ?? dialect.searchIndexed('posts', filter.q));
    if (filter.status) query = query.where('posts.status', '=', filter.status);
    if (filter.categoryId === null) query = query.where('posts.category_id', 'is', null);
    else if (filter.categoryId) query = query.where('posts.category_id', '=', filter.categoryId);
    if (filter.authorId) query = query.where('posts.author_id', '=', filter.authorId);
    if (filter.tagId) {
      const tagId = filter.tagId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('post_tags')
            .select('post_tags.post_id')
            .whereRef('post_tags.post_id', '=', 'posts.id')
            .where('post_tags.tag_id', '=', tagId),
        ),
      );
    }
    if (filter.dateFrom) query = query.where('posts.created_at', '>=', filter.dateFrom);
    if (filter.dateTo) query = query.where('posts.created_at', '<=', filter.dateTo);

    const column = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const offset = (page.page - 1) * page.pageSize;
    let idsQuery = query.select('posts.id');
    // Posts never published sort after the rest in both directions, on both dialects alike.
    if (column === 'published_at') idsQuery = idsQuery.orderBy(sql`(posts.published_at is null)`);
    let ids: string[];
    let total: number | undefined;
    if (few) {
      // Every match at once, which gives the total too. The unary plus keeps the planner off the sort
      // index, whose walk over the whole workspace would meet the handful of rows one probe at a time.
      const all = (
        await idsQuery
          .orderBy(sql`+${sql.ref(`posts.${column}`)}`, page.order)
          .orderBy(sql`+posts.id`, page.order)
          .execute()
      ).map((row) => row.id);
      ids = all.slice(offset, offset + page.pageSize);
      total = all.length;
    } else {
      // The page's ids first, through the index alone; then only those rows. A deep offset would
      // otherwise read every skipped row whole, bodies included (85 ms for page 1,000 of 10,000 posts).
      ids = (
        await idsQuery
          .orderBy(`posts.${column}`, page.order)
          .orderBy('posts.id', page.order)
          .limit(page.pageSize)
          .offset(offset)
          .execute()
      ).map((row) => row.id);
    }
    // In the page's order, put back here: sorting in SQL would carry every stored render through the sorter.
    const found =
      ids.length === 0 ? [] : await postHandles(db, workspaceId, format).where('posts.id', 'in', ids).execute();
    const byId = new Map(found.map((handle) => [handle.id, handle]));
    const handles = ids.flatMap((id) => byId.get(id) ?? []);
    const unfiltered = Object.values(filter).every((value) => value === undefined);
    total ??=
      impliedTotal(page, handles.length) ??
      (unfiltered && handles[0]
        ? handles[0].live_post_count
        : Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total));
    return { handles, total };
  },

  /** The live post a read names (a UUID by id, anything else by slug), as a handle. */
  async findHandle(
    db: Executor,
    workspaceId: string,
    format: string,
    idOrSlug: string,
  ): Promise<PostHandle | undefined> {
    const key = idOrSlugKey(idOrSlug);
    const { rows } = await (key.column === 'id' ? handleById : handleBySlug)(db, workspaceId, format, key.value);
    return rows[0];
  },

  /**
   * The rows of posts a read already found, whatever happened to them since: a post deleted in between
   * is still presented as read (its render, built under the old stamp, is never served).
   */
  findByIds(db: Executor, workspaceId: string, ids: readonly string[]): Promise<StoredPost[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('posts')
      .select(READ_COLUMNS)
      .where('posts.workspace_id', '=', workspaceId)
      .where('posts.id', 'in', [...ids])
      .execute();
  },

  /** A UUID resolves by id, any other string by slug; live rows of this workspace only. */
  findByIdOrSlug(db: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<StoredPost | undefined> {
    const key = idOrSlugKey(idOrSlug);
    return withRowLock(
      livePosts(db, workspaceId).select(READ_COLUMNS).where(`posts.${key.column}`, '=', key.value),
      lock,
    ).executeTakeFirst();
  },

  async takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>> {
    const rows = await livePosts(db, workspaceId).select('posts.slug').where('posts.slug', 'in', candidates).execute();
    return new Set(rows.map((row) => row.slug));
  },

  async insert(db: Executor, workspaceId: string, row: Omit<NewPostRow, 'workspace_id'>): Promise<void> {
    await db
      .insertInto('posts')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
    await workspacesRepository.addLivePosts(db, workspaceId, 1);
  },

  /** Every update of a post's row moves its render stamp: its stored render is never served again. */
  async update(db: Executor, workspaceId: string, id: string, patch: PostPatch): Promise<void> {
    await db
      .updateTable('posts')
      .set((eb) => ({ ...patch, render_stamp: eb('render_stamp', '+', 1) }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async tagsOf(db: Executor, workspaceId: string, postIds: readonly string[]) {
    if (postIds.length === 0) return [];
    return db
      .selectFrom('post_tags')
      .innerJoin('tags', 'tags.id', 'post_tags.tag_id')
      .selectAll('tags')
      .select('post_tags.post_id')
      .where('post_tags.workspace_id', '=', workspaceId)
      .where('post_tags.post_id', 'in', postIds)
      .orderBy('tags.name')
      .orderBy('tags.id')
      .execute();
  },

  /** Related posts of many posts at once, live ones only, in each post's manual order. */
  async relatedOf(db: Executor, workspaceId: string, postIds: readonly string[]): Promise<RelatedRow[]> {
    if (postIds.length === 0) return [];
    return db
      .selectFrom('related_posts')
      .innerJoin('posts', 'posts.id', 'related_posts.related_post_id')
      .select([
        'related_posts.post_id',
        'posts.id',
        'posts.slug',
        'posts.title',
        'posts.excerpt',
        'posts.status',
        'posts.featured_media_id',
      ])
      .where('related_posts.workspace_id', '=', workspaceId)
      .where('related_posts.post_id', 'in', postIds)
      .where('posts.deleted_at', 'is', null)
      .orderBy('related_posts.post_id')
      .orderBy('related_posts.position')
      .execute();
  },

  async replaceRelated(
    db: Executor,
    workspaceId: string,
    postId: string,
    relatedIds: readonly string[],
  ): Promise<void> {
    await db
      .deleteFrom('related_posts')
      .where('workspace_id', '=', workspaceId)
      .where('post_id', '=', postId)
      .execute();
    if (relatedIds.length === 0) return;
    await db
      .insertInto('related_posts')
      .values(
        relatedIds.map((related, position) => ({
          workspace_id: workspaceId,
          post_id: postId,
          related_post_id: related,
          position,
        })),
      )
      .execute();
  },

  /** Idempotent: a tag already attached is skipped by the primary key. */
  async attachTags(
    db: Executor,
    workspaceId: string,
    postId: string,
    tagIds: readonly string[],
    now: string,
  ): Promise<void> {
    await db
      .insertInto('post_tags')
      .values(
        [...new Set(tagIds)].map((tagId) => ({
          workspace_id: workspaceId,
          post_id: postId,
          tag_id: tagId,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['post_id', 'tag_id']).doNothing())
      .execute();
  },

  async detachTags(db: Executor, workspaceId: string, postId: string, tagIds: readonly string[]): Promise<void> {
    await db
      .deleteFrom('post_tags')
      .where('workspace_id', '=', workspaceId)
      .where('post_id', '=', postId)
      .where('tag_id', 'in', [...new Set(tagIds)])
      .execute();
  },
};
