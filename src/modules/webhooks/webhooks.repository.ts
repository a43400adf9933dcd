import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { withRowLock } from '../../db/locks.js';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.js';
import type { PageRequest } from '../../shared/paging.js';

type Executor = Kysely<Database>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** The columns a delivery list shows (the body is the event's, in webhook_events). */
const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'next_attempt_at',
  'last_status_code',
  'last_error',
  'skipped_reason',
  'created_at',
  'updated_at',
] as const;

/** All SQL of webhook endpoints, and the reads of their deliveries; the workspace id is always first. */
export const webhooksRepository = {
  insert(db: Executor, workspaceId: string, row: Omit<Insertable<WebhookEndpointsTable>, 'workspace_id'>) {
    return db
      .insertInto('webhook_endpoints')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  /**
   * How many endpoints the workspace has, its row locked first on PostgreSQL until the transaction ends (SQLite's
   * write transactions run one at a time).
   */
  async countLocked(db: Executor, dialect: DialectHelpers, workspaceId: string): Promise<number> {
    await withRowLock(db.selectFrom('workspaces').select('id').where('id', '=', workspaceId), {
      dialect,
      strength: 'noKeyUpdate',
    }).execute();
    const row = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  },

  findById(db: Executor, workspaceId: string, id: string) {
    return db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async list(db: Executor, workspaceId: string, page: PageRequest) {
    const query = db.selectFrom('webhook_endpoints').where('workspace_id', '=', workspaceId);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_at', page.order)
        .orderBy('id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  update(db: Executor, workspaceId: string, id: string, patch: Updateable<WebhookEndpointsTable>) {
    return db
      .updateTable('webhook_endpoints')
      .set(patch)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Its deliveries go with it (a cascade): the pending ones are never sent. */
  delete(db: Executor, workspaceId: string, id: string) {
    return db.deleteFrom('webhook_endpoints').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** An endpoint's deliveries, newest first, and how many there are. */
  async listDeliveries(
    db: Executor,
    workspaceId: string,
    endpointId: string,
    filter: { status?: WebhookDeliveriesTable['status'] | undefined },
    page: PageRequest,
  ) {
    let query = db
      .selectFrom('webhook_deliveries')
      .where('workspace_id', '=', workspaceId)
      .where('endpoint_id', '=', endpointId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const [rows, count] = await Promise.all([
      query
        .select(DELIVERY_COLUMNS)
        .orderBy('created_at', page.order)
        .orderBy('id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  findDelivery(db: Executor, workspaceId: string, endpointId: string, id: string) {
    return db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** The attempts of the deliveries given, in one query, oldest first. */
  attemptsOf(db: Executor, workspaceId: string, deliveryIds: readonly string[]) {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'attempt', 'status_code', 'duration_ms', 'response_excerpt', 'error', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('delivery_id', 'in', [...deliveryIds])
      .orderBy('delivery_id')
      .orderBy('attempt')
      .execute();
  },
};
