import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, ReviewLinksTable } from '../../db/schema.js';

type Executor = Kysely<Database>;
export type ReviewLinkRow = Selectable<ReviewLinksTable>;
export type ReviewKind = ReviewLinksTable['resource_type'];

/** All SQL of review_links; the workspace id comes first after the executor, but for the one read a token signs. */
export const reviewLinksRepository = {
  /** The links of one post or page, newest first, at most `limit`. */
  list(db: Executor, workspaceId: string, kind: ReviewKind, resourceId: string, limit: number) {
    return db
      .selectFrom('review_links')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** The links of a resource that have not expired at `now`. */
  async countLive(
    db: Executor,
    workspaceId: string,
    kind: ReviewKind,
    resourceId: string,
    now: string,
  ): Promise<number> {
    const row = await db
      .selectFrom('review_links')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  },

  /** Deletes a resource's links that expired before `before`: they read nothing, and the list has shown them. */
  async pruneExpired(db: Executor, workspaceId: string, kind: ReviewKind, resourceId: string, before: string) {
    await db
      .deleteFrom('review_links')
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .where('expires_at', '<', before)
      .execute();
  },

  async insert(db: Executor, workspaceId: string, row: Omit<Insertable<ReviewLinksTable>, 'workspace_id'>) {
    await db
      .insertInto('review_links')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  find(db: Executor, workspaceId: string, kind: ReviewKind, resourceId: string, id: string) {
    return db
      .selectFrom('review_links')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** Revoking is deleting: the token of a row that is gone reads nothing. Answers whether a row went. */
  async remove(db: Executor, workspaceId: string, kind: ReviewKind, resourceId: string, id: string) {
    const result = await db
      .deleteFrom('review_links')
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /**
   * The link a token names. The public page has nothing but the token, so this read alone is not scoped by a
   * workspace: the id is one the master key signed, and the row it finds says which workspace it reads.
   */
  findSigned(db: Executor, id: string) {
    return db.selectFrom('review_links').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** One read of the page through the link, counted in place so that two reads at once are both counted. */
  async recordOpen(db: Executor, workspaceId: string, id: string, now: string): Promise<void> {
    await db
      .updateTable('review_links')
      .set((eb) => ({ opened_count: eb('opened_count', '+', 1), last_opened_at: now }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },
};
