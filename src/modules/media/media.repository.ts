import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { withRowLock, type RowLock } from '../../db/locks.js';
import type { Database, MediaRow, NewMediaRow } from '../../db/schema.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { PageRequest } from '../../shared/paging.js';
import type { MediaSortKey } from './media.schemas.js';

type Executor = Kysely<Database>;

export interface MediaFilter {
  /** Already folded with foldForSearch. */
  q?: string | undefined;
  /** Lowercase, and free of LIKE wildcards (the query schema admits none). */
  mimeTypePrefix?: string | undefined;
}

export type MediaPatch = Partial<Pick<MediaRow, 'alt' | 'caption' | 'focal_point' | 'search_text' | 'updated_at'>>;

const SORT_COLUMNS: Record<MediaSortKey, 'created_at' | 'size_bytes' | 'mime_type'> = {
  createdAt: 'created_at',
  sizeBytes: 'size_bytes',
  mimeType: 'mime_type',
};

/** All SQL of media; every function takes the workspace id first, after the executor. */
export const mediaRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: MediaFilter,
    page: PageRequest<MediaSortKey>,
  ) {
    let query = db.selectFrom('media').where('media.workspace_id', '=', workspaceId);
    if (filter.q) query = query.where(dialect.containsText('media.search_text', filter.q));
    if (filter.mimeTypePrefix) query = query.where('media.mime_type', 'like', `${filter.mimeTypePrefix}%`);
    const column = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('media')
        .orderBy(`media.${column}`, page.order)
        .orderBy('media.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  findById(db: Executor, workspaceId: string, id: string, lock?: RowLock): Promise<MediaRow | undefined> {
    return withRowLock(
      db.selectFrom('media').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id),
      lock,
    ).executeTakeFirst();
  },

  /** Many media rows in one query: featured images, avatars and image blocks of a whole response. */
  async findMany(db: Executor, workspaceId: string, ids: readonly string[]): Promise<MediaRow[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('media')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
  },

  async insert(db: ContentTransaction, workspaceId: string, row: Omit<NewMediaRow, 'workspace_id'>): Promise<void> {
    await db
      .insertInto('media')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  async update(db: ContentTransaction, workspaceId: string, id: string, patch: MediaPatch): Promise<void> {
    await db.updateTable('media').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /**
   * What a deletion of the media row changes: live posts whose featured image or an image block (of the body or
   * the structured blocks) names it, live pages whose image block does, authors whose avatar it is. Posts and
   * pages are locked (PostgreSQL) for the versions their updates move from.
   */
  async usersOf(db: Executor, dialect: DialectHelpers, workspaceId: string, id: string) {
    const lock = { dialect, strength: 'noKeyUpdate' } as const;
    const [posts, pages, authors] = await Promise.all([
      withRowLock(
        db
          .selectFrom('posts')
          .select(['id', 'slug'])
          .where('workspace_id', '=', workspaceId)
          .where('deleted_at', 'is', null)
          .where((eb) =>
            eb.or([
              eb('featured_media_id', '=', id),
              dialect.bodyHasImage('body_json', id),
              dialect.bodyHasImage('structured_blocks', id),
            ]),
          ),
        lock,
      ).execute(),
      withRowLock(
        db
          .selectFrom('pages')
          .select(['id', 'slug', 'updated_at'])
          .where('workspace_id', '=', workspaceId)
          .where('deleted_at', 'is', null)
          .where(dialect.bodyHasImage('body_json', id)),
        lock,
      ).execute(),
      db
        .selectFrom('authors')
        .select(['id', 'slug'])
        .where('workspace_id', '=', workspaceId)
        .where('avatar_media_id', '=', id)
        .execute(),
    ]);
    return { posts, pages, authors };
  },

  /**
   * Where a media item is used, each kind capped at `limit` rows plus its count. A scan of the workspace's
   * bodies rather than an index: it answers one item's details and a deletion's warning, never a list.
   */
  async usage(db: Executor, dialect: DialectHelpers, workspaceId: string, id: string, limit: number) {
    const capped = async (rows: Promise<Array<{ id: string; slug: string; title: string }>>) => {
      const all = await rows;
      return { total: all.length, items: all.slice(0, limit) };
    };
    const [posts, pages, authors, workspace] = await Promise.all([
      capped(
        db
          .selectFrom('posts')
          .select(['id', 'slug', 'title'])
          .where('workspace_id', '=', workspaceId)
          .where('deleted_at', 'is', null)
          .where((eb) => eb.or([eb('featured_media_id', '=', id), dialect.bodyHasImage('body_json', id)]))
          .orderBy('title')
          .execute(),
      ),
      capped(
        db
          .selectFrom('pages')
          .select(['id', 'slug', 'title'])
          .where('workspace_id', '=', workspaceId)
          .where('deleted_at', 'is', null)
          .where(dialect.bodyHasImage('body_json', id))
          .orderBy('title')
          .execute(),
      ),
      capped(
        db
          .selectFrom('authors')
          .select(['id', 'slug', 'display_name as title'])
          .where('workspace_id', '=', workspaceId)
          .where('avatar_media_id', '=', id)
          .orderBy('display_name')
          .execute(),
      ),
      db.selectFrom('workspaces').select('logo_media_id').where('id', '=', workspaceId).executeTakeFirst(),
    ]);
    return { posts, pages, authors, logo: workspace?.logo_media_id === id };
  },

  /**
   * Deletes the row. Posts' featured images and authors' avatars let go through their foreign keys
   * (ON DELETE SET NULL); the workspace logo has none (workspacesRepository.releaseLogo).
   */
  async delete(db: ContentTransaction, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('media').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /**
   * Records a size made of a media item beyond the ladder, unless it is recorded already, while fewer than `limit`
   * are: answers whether it is recorded now, or null when the media row is gone. Run in a write transaction: the
   * media row is locked first (PostgreSQL; SQLite's writes run one at a time), so two requests for new sizes
   * at once are counted one after the other.
   */
  async reserveVariant(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    mediaId: string,
    variant: { size: string; format: string; created_at: string },
    limit: number,
  ): Promise<boolean | null> {
    const media = await withRowLock(
      db.selectFrom('media').select('id').where('workspace_id', '=', workspaceId).where('id', '=', mediaId),
      { dialect, strength: 'noKeyUpdate' },
    ).executeTakeFirst();
    if (!media) return null;
    const { made, known } = await db
      .selectFrom('media_variants')
      .select((eb) => [
        eb.fn.countAll<number>().as('made'),
        eb.fn
          .count<number>('size')
          .filterWhere('size', '=', variant.size)
          .filterWhere('format', '=', variant.format)
          .as('known'),
      ])
      .where('workspace_id', '=', workspaceId)
      .where('media_id', '=', mediaId)
      .executeTakeFirstOrThrow();
    if (Number(known) > 0) return true;
    if (Number(made) >= limit) return false;
    await db
      .insertInto('media_variants')
      .values({ workspace_id: workspaceId, media_id: mediaId, ...variant })
      .execute();
    return true;
  },

  async releaseVariant(db: Executor, workspaceId: string, mediaId: string, size: string, format: string) {
    await db
      .deleteFrom('media_variants')
      .where('workspace_id', '=', workspaceId)
      .where('media_id', '=', mediaId)
      .where('size', '=', size)
      .where('format', '=', format)
      .execute();
  },

  /** The sizes made of a media item beyond the ladder, for its deletion to remove their files. */
  variantsOf(db: Executor, workspaceId: string, mediaId: string) {
    return db
      .selectFrom('media_variants')
      .select(['size', 'format'])
      .where('workspace_id', '=', workspaceId)
      .where('media_id', '=', mediaId)
      .execute();
  },

  async exists(db: Executor, workspaceId: string, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('media')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  },
};
