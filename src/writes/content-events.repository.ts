import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Writer } from '../security/writer.js';
import { WITHDRAWALS, type Change } from './changes.js';

type Executor = Kysely<Database>;

/** Rows per insert: eight parameters each, well under either driver's limit on one statement's parameters. */
const ROWS_PER_STATEMENT = 1000;

/** Which events a feed answers (writes/change-feed.ts). */
export interface EventFilter {
  /** The resource types to keep; every type when undefined. */
  types?: readonly string[] | undefined;
  /**
   * What is published only: a post's or page's events while it is published (not deleted), and those that
   * withdraw one (`WITHDRAWALS`), each with the slug it has now while published, else null; every other type's
   * events.
   */
  published?: boolean;
}

export interface FeedEventRow {
  seq: number;
  resource_type: string;
  resource_id: string;
  slug: string | null;
  action: string;
  created_at: string;
}

/**
 * The statement of listBetween (the plan tests explain it): a walk of (workspace_id, seq) in order. The
 * published view looks each post and page event's resource up by its id, in the same statement, so the limit
 * counts only the events it shows and a page costs one statement whatever it skips.
 */
export function eventsBetweenQuery(
  db: Executor,
  workspaceId: string,
  afterSeq: number,
  upToSeq: number,
  filter: EventFilter,
  limit: number,
) {
  let query = db
    .selectFrom('content_events')
    .where('workspace_id', '=', workspaceId)
    .where('seq', '>', afterSeq)
    .where('seq', '<=', upToSeq);
  if (filter.types !== undefined) query = query.where('resource_type', 'in', [...filter.types]);
  const columns = ['seq', 'resource_type', 'resource_id', 'action', 'created_at'] as const;
  if (!filter.published)
    return query
      .select([...columns, 'slug'])
      .orderBy('seq')
      .limit(limit);
  return query
    .where((eb) =>
      eb.or([
        eb('resource_type', 'not in', STATUSED),
        eb('action', 'in', WITHDRAWALS),
        eb(statusNow(eb), '=', 'published'),
      ]),
    )
    .select((eb) => [
      ...columns,
      // A post's or page's slug as it is now while it is published, else none: the slug an event recorded may be
      // one it had as a draft (renamed before it went out), which is no more public than the draft was.
      eb.case().when('resource_type', 'in', STATUSED).then(publishedSlugNow(eb)).else(eb.ref('slug')).end().as('slug'),
    ])
    .orderBy('seq')
    .limit(limit);
}

/** The resource types that are published or not by their status. */
const STATUSED = ['post', 'page'];

/**
 * A column of the event's post or page as it is now: null when the row is deleted or of another workspace, and
 * for other types; the slug only while the row is published. Looked up for each event by the primary key, the one
 * condition of the subquery: on tables without statistics PostgreSQL chose to walk the workspace's rows for a
 * condition on workspace_id or deleted_at (indexes lead with the one, and most are partial on the other), so both
 * are checked on the row found instead. Either database runs it per event: a scalar subquery, unlike a join or
 * EXISTS, cannot be planned as a hash of every workspace's posts.
 */
function rowNow(eb: ExpressionBuilder<Database, 'content_events'>, column: 'status' | 'slug') {
  const valueIn = (table: 'posts' | 'pages') =>
    eb
      .selectFrom(table)
      .select((row) =>
        row
          .case()
          .when(
            row.and([
              row(`${table}.workspace_id`, '=', row.ref('content_events.workspace_id')),
              row(`${table}.deleted_at`, 'is', null),
              ...(column === 'slug' ? [row(`${table}.status`, '=', 'published')] : []),
            ]),
          )
          .then(row.ref(`${table}.${column}`))
          .end()
          .as(column),
      )
      .whereRef(`${table}.id`, '=', 'content_events.resource_id');
  return eb
    .case('content_events.resource_type')
    .when('post')
    .then(valueIn('posts'))
    .when('page')
    .then(valueIn('pages'))
    .end();
}

/** The status of the event's post or page now (rowNow). */
const statusNow = (eb: ExpressionBuilder<Database, 'content_events'>) => rowNow(eb, 'status');

/** The slug of the event's post or page now, while it is published (rowNow). */
const publishedSlugNow = (eb: ExpressionBuilder<Database, 'content_events'>) => rowNow(eb, 'slug');

/** All SQL of content_events. Recording is private to contentWrite (an eslint rule keeps it so). */
export const contentEventsRepository = {
  /** One row per change, in the order given; the database numbers them and moves the workspace's versions. */
  async record(db: Executor, writer: Writer, changes: readonly Change[], now: string): Promise<void> {
    for (let start = 0; start < changes.length; start += ROWS_PER_STATEMENT) {
      await db
        .insertInto('content_events')
        .values(
          changes.slice(start, start + ROWS_PER_STATEMENT).map((change) => ({
            workspace_id: writer.workspaceId,
            resource_type: change.type,
            resource_id: change.id,
            slug: change.slug,
            action: change.action,
            actor_user_id: writer.userId,
            actor_api_key_id: writer.apiKeyId,
            created_at: now,
          })),
        )
        .execute();
    }
  },

  /**
   * Deletes up to `limit` events recorded before `before`, oldest first, and raises the horizon of each
   * workspace it pruned to the highest number it deleted; answers how many went. Run it in a transaction, so
   * that no event goes without its horizon moving: the change feed tells a reader behind it to resync.
   */
  async prune(db: Executor, before: string, limit: number): Promise<number> {
    const deleted = await db
      .deleteFrom('content_events')
      .where('seq', 'in', (eb) =>
        eb.selectFrom('content_events').select('seq').where('created_at', '<', before).orderBy('seq').limit(limit),
      )
      .returning(['workspace_id', 'seq'])
      .execute();
    const highest = new Map<string, number>();
    for (const { workspace_id, seq } of deleted)
      highest.set(workspace_id, Math.max(highest.get(workspace_id) ?? 0, Number(seq)));
    if (highest.size > 0)
      await db
        .insertInto('content_event_horizons')
        .values([...highest].map(([workspace_id, pruned_through]) => ({ workspace_id, pruned_through })))
        .onConflict((oc) =>
          oc
            .column('workspace_id')
            .doUpdateSet({ pruned_through: (eb) => eb.ref('excluded.pruned_through') })
            .where((eb) => eb('content_event_horizons.pruned_through', '<', eb.ref('excluded.pruned_through'))),
        )
        .execute();
    return deleted.length;
  },

  /**
   * Where a workspace's feed stands: its newest event's number (0 when it has none) and the highest number
   * retention deleted (0 when none). Read before the events, so that every event up to `latest` has committed
   * (numbers are drawn in commit order, migration 0011) and a reader may move its cursor there.
   */
  async feedState(db: Executor, workspaceId: string): Promise<{ latest: number; prunedThrough: number }> {
    const row = await db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('content_events')
          .select((inner) => inner.fn.max('seq').as('latest'))
          .where('workspace_id', '=', workspaceId)
          .as('latest'),
        eb
          .selectFrom('content_event_horizons')
          .select('pruned_through')
          .where('workspace_id', '=', workspaceId)
          .as('pruned_through'),
      ])
      .executeTakeFirstOrThrow();
    return { latest: Number(row.latest ?? 0), prunedThrough: Number(row.pruned_through ?? 0) };
  },

  /**
   * A workspace's events numbered after `afterSeq` and up to `upToSeq`, of the resource types given (every
   * type when undefined), in order; at most `limit`.
   */
  listBetween(
    db: Executor,
    workspaceId: string,
    afterSeq: number,
    upToSeq: number,
    filter: EventFilter,
    limit: number,
  ): Promise<FeedEventRow[]> {
    if (filter.types?.length === 0) return Promise.resolve([]);
    return eventsBetweenQuery(db, workspaceId, afterSeq, upToSeq, filter, limit).execute();
  },

  /** A workspace's events after `afterSeq`, in order (tests and, later, the change feed). */
  listAfter(db: Executor, workspaceId: string, afterSeq: number, limit: number) {
    return db
      .selectFrom('content_events')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  },
};
