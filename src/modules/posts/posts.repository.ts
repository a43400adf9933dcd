import type { Kysely } from 'kysely';
import { withRowLock, type RowLock } from '../../db/locks.js';
import type { Database, NewPostRow, PostRow, StoredPost } from '../../db/schema.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import { idOrSlugKey } from '../../shared/slug.js';
import { postColumns } from './posts.columns.js';
import { nextVersion, type Version } from '../../writes/versions.js';

type Executor = Kysely<Database>;

/** The columns a post is read with: every one but its search text and render stamp, which serve indexes and renders. */
const READ_COLUMNS = [
  ...new Set([
    'id',
    'workspace_id',
    'slug',
    'body_json',
    'body_text',
    'toc_items',
    'word_count',
    'reading_time_min',
    'scheduled_at',
    'view_count',
    'structured_blocks',
    'seo_score',
    'readability_score',
    'deleted_at',
    'created_at',
    'updated_at',
    ...postColumns.columns,
  ]),
].map((column) => `posts.${column}` as `posts.${keyof StoredPost}`);

/** Live posts of one workspace: reads and writes start here. */
export function livePosts(db: Executor, workspaceId: string) {
  return db.selectFrom('posts').where('posts.workspace_id', '=', workspaceId).where('posts.deleted_at', 'is', null);
}

/** A change of a post's row; its new `updated_at` is the repository's to set (postsRepository.update). */
export type PostPatch = Partial<Omit<PostRow, 'id' | 'workspace_id' | 'created_at' | 'updated_at'>>;

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

  /** The id of the live post `idOrSlug` names, for routes about its history (revisions). */
  async liveId(db: Executor, workspaceId: string, idOrSlug: string): Promise<string | undefined> {
    const key = idOrSlugKey(idOrSlug);
    const row = await livePosts(db, workspaceId)
      .select('posts.id')
      .where(`posts.${key.column}`, '=', key.value)
      .executeTakeFirst();
    return row?.id;
  },

  async takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>> {
    const rows = await livePosts(db, workspaceId).select('posts.slug').where('posts.slug', 'in', candidates).execute();
    return new Set(rows.map((row) => row.slug));
  },

  async insert(db: ContentTransaction, workspaceId: string, row: Omit<NewPostRow, 'workspace_id'>): Promise<void> {
    await db
      .insertInto('posts')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  /**
   * Every update of a post's row moves its version (answered as the new `updated_at`) and its render stamp,
   * so no writer can change a post and leave a client's If-Match or a stored render passing for current.
   * `post` is the row as the writer read it, under its lock.
   */
  async update(
    db: ContentTransaction,
    workspaceId: string,
    post: Pick<StoredPost, 'id' | 'updated_at'>,
    patch: PostPatch,
    now: string = new Date().toISOString(),
  ): Promise<Version> {
    const version = nextVersion(post.updated_at, now);
    await db
      .updateTable('posts')
      .set((eb) => ({ ...patch, updated_at: version, render_stamp: eb('render_stamp', '+', 1) }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', post.id)
      .execute();
    return version;
  },

  /** The live posts a tag is attached to, locked (PostgreSQL) for the versions their updates move from. */
  withTag(db: Executor, workspaceId: string, tagId: string, lock: RowLock) {
    return withRowLock(
      livePosts(db, workspaceId)
        .innerJoin('post_tags', 'post_tags.post_id', 'posts.id')
        .select(['posts.id', 'posts.slug', 'posts.updated_at'])
        .where('post_tags.workspace_id', '=', workspaceId)
        .where('post_tags.tag_id', '=', tagId),
      lock,
    ).execute();
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
    db: ContentTransaction,
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
    db: ContentTransaction,
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

  /** The post's tags become exactly `tagIds`. */
  async replaceTags(
    db: ContentTransaction,
    workspaceId: string,
    postId: string,
    tagIds: readonly string[],
    now: string,
  ): Promise<void> {
    let stale = db.deleteFrom('post_tags').where('workspace_id', '=', workspaceId).where('post_id', '=', postId);
    if (tagIds.length > 0) stale = stale.where('tag_id', 'not in', [...new Set(tagIds)]);
    await stale.execute();
    if (tagIds.length > 0) await this.attachTags(db, workspaceId, postId, tagIds, now);
  },

  async detachTags(
    db: ContentTransaction,
    workspaceId: string,
    postId: string,
    tagIds: readonly string[],
  ): Promise<void> {
    await db
      .deleteFrom('post_tags')
      .where('workspace_id', '=', workspaceId)
      .where('post_id', '=', postId)
      .where('tag_id', 'in', [...new Set(tagIds)])
      .execute();
  },
};
