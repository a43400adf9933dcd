import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Change, Writer } from './changes.js';

type Executor = Kysely<Database>;

/** Rows per insert: eight parameters each, well under either driver's limit on one statement's parameters. */
const ROWS_PER_STATEMENT = 1000;

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

  /** Deletes up to `limit` events recorded before `before`, oldest first; answers how many went. */
  async prune(db: Executor, before: string, limit: number): Promise<number> {
    const result = await db
      .deleteFrom('content_events')
      .where('seq', 'in', (eb) =>
        eb.selectFrom('content_events').select('seq').where('created_at', '<', before).orderBy('seq').limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
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
