import { sql, type Kysely } from 'kysely';
import type { Database, NotificationsTable, ReviewEntriesTable, ReviewsTable } from '../../db/schema.js';
import { idOrSlugKey } from '../../shared/slug.js';
import type { ReviewKind, ReviewState } from './reviews.schemas.js';

type Executor = Kysely<Database>;

export type ReviewRow = ReviewsTable;
export type EntryRow = ReviewEntriesTable;
export type NotificationRow = NotificationsTable;

/** The live post or page a review is of, as the review shows it. */
export interface ResourceRow {
  id: string;
  title: string;
  slug: string;
  status: string;
  updated_at: string;
}

/** A review with its resource's title, slug, status and version, and how many comments its thread holds. */
export interface ReviewListRow extends ReviewRow {
  title: string;
  slug: string;
  status: string;
  resource_updated_at: string;
  comments: number | string;
}

export interface NotificationView extends NotificationRow {
  resource_type: ReviewKind;
  resource_id: string;
  state: ReviewState;
  title: string;
}

const TABLES = { post: 'posts', page: 'pages' } as const;

export interface QueueFilter {
  state: ReviewState;
  kinds: readonly ReviewKind[];
  submittedBy?: string;
  before?: { updatedAt: string; id: string };
  limit: number;
}

/**
 * Reviews with their resource: the post or the page, whichever the row is of, and only while it is not deleted. A
 * review outlives its resource's deletion (restoring nothing), but nobody is shown one of a resource that is gone.
 */
function reviewsWithResources(db: Executor, workspaceId: string) {
  return db
    .selectFrom('reviews')
    .leftJoin('posts', (join) =>
      join
        .onRef('posts.id', '=', 'reviews.resource_id')
        .on('reviews.resource_type', '=', 'post')
        .on('posts.workspace_id', '=', workspaceId)
        .on('posts.deleted_at', 'is', null),
    )
    .leftJoin('pages', (join) =>
      join
        .onRef('pages.id', '=', 'reviews.resource_id')
        .on('reviews.resource_type', '=', 'page')
        .on('pages.workspace_id', '=', workspaceId)
        .on('pages.deleted_at', 'is', null),
    )
    .where('reviews.workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('posts.id', 'is not', null), eb('pages.id', 'is not', null)]));
}

/**
 * A page of the queue, newest activity first: a walk of (workspace_id, state, updated_at, id), its index. Each
 * row's comment count is read by the same query, from the thread's index.
 */
export function reviewQueueQuery(db: Executor, workspaceId: string, filter: QueueFilter) {
  let query = reviewsWithResources(db, workspaceId)
    .selectAll('reviews')
    .select((eb) => [
      eb.fn.coalesce('posts.title', 'pages.title').as('title'),
      eb.fn.coalesce('posts.slug', 'pages.slug').as('slug'),
      eb.fn.coalesce('posts.status', 'pages.status').as('status'),
      eb.fn.coalesce('posts.updated_at', 'pages.updated_at').as('resource_updated_at'),
      eb
        .selectFrom('review_entries')
        .select((inner) => inner.fn.countAll<number | string>().as('count'))
        .whereRef('review_entries.review_id', '=', 'reviews.id')
        .where('review_entries.workspace_id', '=', workspaceId)
        .where('review_entries.type', '=', 'comment')
        .as('comments'),
    ])
    .where('reviews.state', '=', filter.state)
    .where('reviews.resource_type', 'in', filter.kinds);
  if (filter.submittedBy !== undefined) query = query.where('reviews.submitted_by', '=', filter.submittedBy);
  if (filter.before) {
    const { updatedAt, id } = filter.before;
    query = query.where((eb) =>
      eb.or([
        eb('reviews.updated_at', '<', updatedAt),
        eb.and([eb('reviews.updated_at', '=', updatedAt), eb('reviews.id', '<', id)]),
      ]),
    );
  }
  return query.orderBy('reviews.updated_at', 'desc').orderBy('reviews.id', 'desc').limit(filter.limit);
}

/** A member's notifications, newest first: a walk of (workspace_id, user_id, created_at, id), with their review. */
export function inboxQuery(
  db: Executor,
  workspaceId: string,
  userId: string,
  options: { unread: boolean; limit: number },
) {
  let query = db
    .selectFrom('notifications')
    .innerJoin('reviews', 'reviews.id', 'notifications.review_id')
    .leftJoin('posts', (join) =>
      join
        .onRef('posts.id', '=', 'reviews.resource_id')
        .on('reviews.resource_type', '=', 'post')
        .on('posts.workspace_id', '=', workspaceId),
    )
    .leftJoin('pages', (join) =>
      join
        .onRef('pages.id', '=', 'reviews.resource_id')
        .on('reviews.resource_type', '=', 'page')
        .on('pages.workspace_id', '=', workspaceId),
    )
    .selectAll('notifications')
    .select((eb) => [
      'reviews.resource_type',
      'reviews.resource_id',
      'reviews.state',
      eb.fn.coalesce('posts.title', 'pages.title', sql.lit('')).as('title'),
    ])
    .where('notifications.workspace_id', '=', workspaceId)
    .where('notifications.user_id', '=', userId);
  if (options.unread) query = query.where('notifications.read_at', 'is', null);
  return query.orderBy('notifications.created_at', 'desc').orderBy('notifications.id', 'desc').limit(options.limit);
}

/** All SQL of reviews, their threads and their notifications; the workspace id comes first after the executor. */
export const reviewsRepository = {
  /** The live post or page by id or slug, as a review shows it. */
  async findResource(
    db: Executor,
    workspaceId: string,
    kind: ReviewKind,
    idOrSlug: string,
  ): Promise<ResourceRow | undefined> {
    const { column, value } = idOrSlugKey(idOrSlug);
    return db
      .selectFrom(TABLES[kind])
      .select(['id', 'title', 'slug', 'status', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .where(column, '=', value)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },

  find(db: Executor, workspaceId: string, kind: ReviewKind, resourceId: string): Promise<ReviewRow | undefined> {
    return db
      .selectFrom('reviews')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .executeTakeFirst();
  },

  entries(db: Executor, workspaceId: string, reviewId: string): Promise<EntryRow[]> {
    return db
      .selectFrom('review_entries')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('review_id', '=', reviewId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  countEntries(db: Executor, workspaceId: string, reviewId: string): Promise<number> {
    return db
      .selectFrom('review_entries')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .where('review_id', '=', reviewId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  },

  async insert(db: Executor, row: ReviewRow): Promise<void> {
    await db.insertInto('reviews').values(row).execute();
  },

  /**
   * Moves a review from one of `from` to its next state; false when it was no longer in one of them (another
   * reviewer decided first), so two decisions never both stand.
   */
  async move(
    db: Executor,
    workspaceId: string,
    id: string,
    from: readonly ReviewState[],
    set: Partial<Omit<ReviewRow, 'id' | 'workspace_id' | 'resource_type' | 'resource_id'>>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('reviews')
      .set(set)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async touch(db: Executor, workspaceId: string, id: string, at: string): Promise<void> {
    await db
      .updateTable('reviews')
      .set({ updated_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async addEntry(db: Executor, row: EntryRow): Promise<void> {
    await db.insertInto('review_entries').values(row).execute();
  },

  queue(db: Executor, workspaceId: string, filter: QueueFilter): Promise<ReviewListRow[]> {
    return reviewQueueQuery(db, workspaceId, filter).execute() as Promise<ReviewListRow[]>;
  },

  /** How many reviews of `kinds` are in each open state, optionally only `submittedBy`'s. */
  async openCounts(
    db: Executor,
    workspaceId: string,
    kinds: readonly ReviewKind[],
    submittedBy?: string,
  ): Promise<Record<'in_review' | 'changes_requested', number>> {
    let query = reviewsWithResources(db, workspaceId)
      .select(['reviews.state', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('reviews.state', 'in', ['in_review', 'changes_requested'])
      .where('reviews.resource_type', 'in', kinds);
    if (submittedBy !== undefined) query = query.where('reviews.submitted_by', '=', submittedBy);
    const rows = await query.groupBy('reviews.state').execute();
    const counts = { in_review: 0, changes_requested: 0 };
    for (const row of rows) counts[row.state as keyof typeof counts] = Number(row.count);
    return counts;
  },

  /** The members who may decide on a review of `kind`: the owner, and whoever holds its `:write` permission. */
  async reviewers(
    db: Executor,
    workspaceId: string,
  ): Promise<Array<{ user_id: string; email: string; permissions: string; owner_user_id: string }>> {
    return db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['memberships.user_id', 'users.email', 'memberships.permissions', 'workspaces.owner_user_id'])
      .where('memberships.workspace_id', '=', workspaceId)
      .execute();
  },

  /** Who took part in a thread: the authors of its entries, with their emails now. */
  async participants(
    db: Executor,
    workspaceId: string,
    reviewId: string,
  ): Promise<Array<{ id: string; email: string }>> {
    return db
      .selectFrom('review_entries')
      .innerJoin('users', 'users.id', 'review_entries.author_id')
      .innerJoin('memberships', (join) =>
        join.onRef('memberships.user_id', '=', 'users.id').on('memberships.workspace_id', '=', workspaceId),
      )
      .select(['users.id', 'users.email'])
      .distinct()
      .where('review_entries.workspace_id', '=', workspaceId)
      .where('review_entries.review_id', '=', reviewId)
      .execute();
  },

  async notify(db: Executor, rows: NotificationRow[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('notifications').values(rows).execute();
  },

  inbox(
    db: Executor,
    workspaceId: string,
    userId: string,
    options: { unread: boolean; limit: number },
  ): Promise<NotificationView[]> {
    return inboxQuery(db, workspaceId, userId, options).execute() as Promise<NotificationView[]>;
  },

  async unreadCount(db: Executor, workspaceId: string, userId: string): Promise<number> {
    const row = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /** Deletes up to `limit` notifications made before `before`, of every workspace; answers how many went. */
  async pruneNotifications(db: Executor, before: string, limit: number): Promise<number> {
    const deleted = await db
      .deleteFrom('notifications')
      .where('id', 'in', (eb) =>
        eb.selectFrom('notifications').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  },

  async markRead(db: Executor, workspaceId: string, userId: string, ids: readonly string[] | undefined, at: string) {
    let query = db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (ids !== undefined) query = query.where('id', 'in', ids);
    await query.execute();
  },
};
