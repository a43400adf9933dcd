import type { Kysely, Selectable } from 'kysely';
import type { AuditEventsTable, Database } from '../db/schema.js';
import { categoryOf } from './audit-log.js';

type Executor = Kysely<Database>;

export type AuditRow = Selectable<AuditEventsTable> & { actor_key_name: string | null };

/** What the screen and the export narrow the log by; every field is optional. */
export interface AuditFilter {
  category?: string | undefined;
  action?: string | undefined;
  actorUserId?: string | undefined;
  /** Inclusive. */
  since?: string | undefined;
  /** Exclusive. */
  until?: string | undefined;
}

/** Where a page ends: the (at, id) of its last entry. */
export interface AuditPosition {
  at: string;
  id: string;
}

/**
 * A workspace's entries, newest first, after `before`. Each filter walks an index in time order: the category's
 * (an action is filtered within its category), the person's, or the workspace's.
 */
export function auditListQuery(
  db: Executor,
  workspaceId: string,
  filter: AuditFilter,
  before: AuditPosition | undefined,
  limit: number,
) {
  const category = filter.action !== undefined ? categoryOf(filter.action) : filter.category;
  let query = db
    .selectFrom('audit_events')
    .leftJoin('api_keys', 'api_keys.id', 'audit_events.actor_key_id')
    .selectAll('audit_events')
    .select('api_keys.name as actor_key_name')
    .where('audit_events.workspace_id', '=', workspaceId);
  if (category !== undefined) query = query.where('audit_events.category', '=', category);
  if (filter.action !== undefined) query = query.where('audit_events.action', '=', filter.action);
  if (filter.actorUserId !== undefined) query = query.where('audit_events.actor_user_id', '=', filter.actorUserId);
  if (filter.since !== undefined) query = query.where('audit_events.at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('audit_events.at', '<', filter.until);
  if (before !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('audit_events.at', '<', before.at),
        eb.and([eb('audit_events.at', '=', before.at), eb('audit_events.id', '<', before.id)]),
      ]),
    );
  return query.orderBy('audit_events.at', 'desc').orderBy('audit_events.id', 'desc').limit(limit);
}

export const auditRepository = {
  list(
    db: Executor,
    workspaceId: string,
    filter: AuditFilter,
    before: AuditPosition | undefined,
    limit: number,
  ): Promise<AuditRow[]> {
    return auditListQuery(db, workspaceId, filter, before, limit).execute();
  },

  /** Deletes up to `limit` entries older than `before`, of every workspace; answers how many went. */
  async prune(db: Executor, before: string, limit: number): Promise<number> {
    const deleted = await db
      .deleteFrom('audit_events')
      .where('id', 'in', (eb) =>
        eb.selectFrom('audit_events').select('id').where('at', '<', before).orderBy('at').limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  },
};
