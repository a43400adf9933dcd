import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../../../db/dialects/dialect.js';
import type { Database } from '../../../db/schema.js';
import type { Candidate } from './fair-share.js';

type Executor = Kysely<Database>;

/** What an attempt came to, as recorded. */
export interface AttemptRecord {
  deliveryId: string;
  workspaceId: string;
  endpointId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  succeeded: boolean;
  /** When the next attempt is due; undefined when there is none (succeeded, or the last attempt failed). */
  retryAt: string | undefined;
  /** Why the endpoint is to be disabled by this outcome, if it is. */
  disable: string | undefined;
}

/** Workspaces and endpoints whose deliveries a claim does not look at (they hold their share already). */
export interface PassOver {
  workspaces: readonly string[];
  endpoints: readonly string[];
}
const NO_ONE: PassOver = { workspaces: [], endpoints: [] };

/**
 * The oldest due deliveries of enabled endpoints, a claim's candidates: a walk of the partial index of pending
 * deliveries in due order (exported for the plan test). The status is a literal, so the partial index matches.
 */
export function dueQuery(db: Executor, dialect: DialectHelpers, now: string, limit: number, passOver: PassOver) {
  let query = db
    .selectFrom('webhook_deliveries as due')
    .select(['due.id', 'due.workspace_id', 'due.endpoint_id'])
    .where('due.status', '=', sql.lit('pending'))
    .where('due.next_attempt_at', '<=', now)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('webhook_endpoints as endpoint')
          .select('endpoint.id')
          .whereRef('endpoint.id', '=', 'due.endpoint_id')
          .where('endpoint.enabled', '=', true),
      ),
    );
  if (passOver.workspaces.length > 0) query = query.where('due.workspace_id', 'not in', [...passOver.workspaces]);
  if (passOver.endpoints.length > 0) query = query.where('due.endpoint_id', 'not in', [...passOver.endpoints]);
  return dialect.skippingLocked(query.orderBy('due.next_attempt_at').limit(limit));
}

/** All SQL of the dispatcher: claiming due deliveries, reading their bodies, recording what each attempt came to. */
export const deliveriesRepository = {
  /**
   * Claims due deliveries of enabled endpoints, in one short transaction: reads up to `scan` of the oldest due,
   * passing over the workspaces and endpoints named in `passOver`, lets `choose` pick among them, and moves
   * each picked one to `leaseUntil`, its attempt counted. On PostgreSQL rows another instance is claiming are
   * passed over, not waited for, and those read but not picked are free again at commit.
   */
  claim(
    db: Executor,
    dialect: DialectHelpers,
    now: string,
    leaseUntil: string,
    scan: number,
    passOver: PassOver = NO_ONE,
    choose: (due: Candidate[]) => string[] = (due) => due.map((row) => row.id),
  ) {
    return db.transaction().execute(async (trx) => {
      const picked = choose(await dueQuery(trx, dialect, now, scan, passOver).execute());
      if (picked.length === 0) return [];
      return trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', picked)
        .where('status', '=', 'pending')
        .returning(['id', 'workspace_id', 'endpoint_id', 'event_id', 'event_type', 'attempts'])
        .execute();
    });
  },

  /** The bodies of the events given, as sent and signed. */
  bodies(db: Executor, eventIds: readonly string[]) {
    return db
      .selectFrom('webhook_events')
      .select(['event_id', 'payload'])
      .where('event_id', 'in', [...eventIds])
      .execute();
  },

  /**
   * The endpoints of claimed deliveries: where to send, the secret to sign with, and what their user may read
   * now (whether they own the workspace; their membership's permissions, null once they are no member).
   */
  endpoints(db: Executor, ids: readonly string[]) {
    return db
      .selectFrom('webhook_endpoints as endpoint')
      .innerJoin('workspaces as workspace', 'workspace.id', 'endpoint.workspace_id')
      .leftJoin('memberships as member', (join) =>
        join
          .onRef('member.workspace_id', '=', 'endpoint.workspace_id')
          .onRef('member.user_id', '=', 'endpoint.user_id'),
      )
      .select([
        'endpoint.id',
        'endpoint.workspace_id',
        'endpoint.url',
        'endpoint.secret_encrypted',
        'endpoint.failing_since',
        'endpoint.user_id',
        'workspace.owner_user_id',
        'member.permissions',
      ])
      .where('endpoint.id', 'in', [...ids])
      .execute();
  },

  /**
   * Ends a claimed delivery unsent, saying why: it counts no attempt, and its endpoint's run of failures is
   * neither broken nor extended (the receiver was not asked).
   */
  async skip(db: Executor, deliveryId: string, reason: string, now: string): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'failed',
        attempts: eb('attempts', '-', 1),
        last_error: reason,
        skipped_reason: reason,
        updated_at: now,
      }))
      .where('id', '=', deliveryId)
      .where('status', '=', 'pending')
      .execute();
  },

  /**
   * Records one attempt and moves its delivery and its endpoint on: a success ends the delivery and the
   * endpoint's run of failures; a failure schedules the retry (or fails the delivery) and starts the run, or
   * disables the endpoint when the outcome says so. Run it in a transaction.
   */
  async record(db: Executor, outcome: AttemptRecord, now: string): Promise<void> {
    await db
      .insertInto('webhook_attempts')
      .values({
        delivery_id: outcome.deliveryId,
        attempt: outcome.attempt,
        workspace_id: outcome.workspaceId,
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        response_excerpt: outcome.responseExcerpt,
        error: outcome.error,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
    const last = { last_status_code: outcome.statusCode, last_error: outcome.error, updated_at: now };
    await db
      .updateTable('webhook_deliveries')
      .set(
        outcome.succeeded
          ? { ...last, status: 'succeeded' }
          : outcome.retryAt === undefined
            ? { ...last, status: 'failed' }
            : { ...last, next_attempt_at: outcome.retryAt },
      )
      .where('id', '=', outcome.deliveryId)
      .where('status', '=', 'pending')
      .execute();
    const endpoint = db.updateTable('webhook_endpoints').where('id', '=', outcome.endpointId);
    if (outcome.succeeded) {
      await endpoint.set({ failing_since: null }).where('failing_since', 'is not', null).execute();
      return;
    }
    await endpoint.set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) })).execute();
    if (outcome.disable !== undefined)
      await endpoint
        .set({ enabled: false, disabled_reason: outcome.disable, disabled_at: now, updated_at: now })
        .where('enabled', '=', true)
        .execute();
  },
};
