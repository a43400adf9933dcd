import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Executor = Kysely<Database>;

export interface PendingWorkspace {
  workspace_id: string;
  content_version: number;
  /** The seq purged through; null when the workspace has no cursor yet (created since the purger started). */
  seq: number | null;
}

export interface PurgeEvent {
  seq: number;
  resource_type: string;
  resource_id: string;
}

/**
 * Where each workspace's purges stand (migration 0023): the seq of the newest content event purged, and the
 * workspace's content version when it was read. Every event moves the version, so a workspace whose version is
 * ahead of its cursor's has events to purge; the rest cost nothing but the comparison.
 */
export const purgeCursorsRepository = {
  /**
   * Starts every workspace without a cursor at its newest event: a purger turned on does not replay history,
   * which the shared cache's own expiry has long covered.
   */
  async initialize(db: Executor, now: string): Promise<void> {
    await db
      .insertInto('cdn_purge_cursors')
      .columns(['workspace_id', 'seq', 'content_version', 'updated_at'])
      .expression(
        db
          .selectFrom('workspaces')
          .leftJoin('cdn_purge_cursors', 'cdn_purge_cursors.workspace_id', 'workspaces.id')
          .where('cdn_purge_cursors.workspace_id', 'is', null)
          .select((eb) => [
            'workspaces.id',
            eb
              .selectFrom('content_events')
              .whereRef('content_events.workspace_id', '=', 'workspaces.id')
              .select(sql<number>`coalesce(max(content_events.seq), 0)`.as('seq'))
              .as('seq'),
            'workspaces.content_version',
            sql<string>`${now}`.as('updated_at'),
          ]),
      )
      .onConflict((conflict) => conflict.column('workspace_id').doNothing())
      .execute();
  },

  async pending(db: Executor, limit: number): Promise<PendingWorkspace[]> {
    const rows = await db
      .selectFrom('workspaces')
      .leftJoin('cdn_purge_cursors', 'cdn_purge_cursors.workspace_id', 'workspaces.id')
      .where((eb) =>
        eb.or([
          eb('cdn_purge_cursors.workspace_id', 'is', null),
          eb('workspaces.content_version', '>', eb.ref('cdn_purge_cursors.content_version')),
        ]),
      )
      .select(['workspaces.id as workspace_id', 'workspaces.content_version', 'cdn_purge_cursors.seq'])
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      workspace_id: row.workspace_id,
      content_version: Number(row.content_version),
      seq: row.seq === null ? null : Number(row.seq),
    }));
  },

  async eventsAfter(db: Executor, workspaceId: string, seq: number, limit: number): Promise<PurgeEvent[]> {
    const rows = await db
      .selectFrom('content_events')
      .select(['seq', 'resource_type', 'resource_id'])
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  },

  /** Moves the cursor forward, never back: another instance may have purged further meanwhile. */
  async advance(db: Executor, workspaceId: string, seq: number, contentVersion: number, now: string): Promise<void> {
    await db
      .insertInto('cdn_purge_cursors')
      .values({ workspace_id: workspaceId, seq, content_version: contentVersion, updated_at: now })
      .onConflict((conflict) =>
        conflict.column('workspace_id').doUpdateSet({
          seq: sql`case when cdn_purge_cursors.seq > excluded.seq then cdn_purge_cursors.seq else excluded.seq end`,
          content_version: sql`case when cdn_purge_cursors.content_version > excluded.content_version
            then cdn_purge_cursors.content_version else excluded.content_version end`,
          updated_at: now,
        }),
      )
      .execute();
  },
};
