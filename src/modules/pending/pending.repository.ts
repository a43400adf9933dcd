import type { Kysely, Selectable } from 'kysely';
import type { RowLock } from '../../db/locks.js';
import { withRowLock } from '../../db/locks.js';
import type { Database, PendingChangesTable } from '../../db/schema.js';

type Executor = Kysely<Database>;
export type PendingRow = Selectable<PendingChangesTable>;
export type PendingKind = PendingChangesTable['resource_type'];

/** All SQL of pending_changes; the workspace id comes first after the executor. */
export const pendingRepository = {
  find(
    db: Executor,
    workspaceId: string,
    kind: PendingKind,
    resourceId: string,
    lock?: RowLock,
  ): Promise<PendingRow | undefined> {
    return withRowLock(
      db
        .selectFrom('pending_changes')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('resource_type', '=', kind)
        .where('resource_id', '=', resourceId),
      lock,
    ).executeTakeFirst();
  },

  async insert(db: Executor, row: PendingRow): Promise<void> {
    await db.insertInto('pending_changes').values(row).execute();
  },

  async update(
    db: Executor,
    workspaceId: string,
    kind: PendingKind,
    resourceId: string,
    patch: Pick<
      PendingRow,
      'base_version' | 'base_fields' | 'changes' | 'updated_by_user_id' | 'updated_by_api_key_id' | 'updated_at'
    >,
  ): Promise<void> {
    await db
      .updateTable('pending_changes')
      .set(patch)
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId)
      .execute();
  },

  /** Deletes the set, only as of `version` when one is named; answers whether a row went. */
  async remove(
    db: Executor,
    workspaceId: string,
    kind: PendingKind,
    resourceId: string,
    version?: string,
  ): Promise<boolean> {
    let query = db
      .deleteFrom('pending_changes')
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', kind)
      .where('resource_id', '=', resourceId);
    if (version !== undefined) query = query.where('updated_at', '=', version);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
