import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Database, LinkHealthTable } from '../../db/schema.js';
import type { PageRequest } from '../../shared/paging.js';
import type { LinkHealthSortKey } from './link-health.schemas.js';

type Executor = Kysely<Database>;
export type LinkHealthRow = Selectable<LinkHealthTable>;
/** One report: the row to insert when the path is new; its hit count is 1 and both times are now. */
export type LinkHealthReport = Pick<Insertable<LinkHealthTable>, 'id' | 'path' | 'referrer' | 'status_code'> & {
  seen_at: string;
};

const SORT_COLUMNS: Record<LinkHealthSortKey, 'hit_count' | 'last_seen_at'> = {
  hitCount: 'hit_count',
  lastSeenAt: 'last_seen_at',
};

/** The hot path of reports: built and compiled by Kysely once per dialect. */
const runRecordHit = preparedQuery(
  (
    db: Executor,
    workspaceId: string,
    id: string,
    path: string,
    referrer: string | null,
    statusCode: number,
    seenAt: string,
  ) =>
    db
      .insertInto('link_health')
      .values({
        id,
        path,
        referrer,
        status_code: statusCode,
        workspace_id: workspaceId,
        hit_count: 1,
        first_seen_at: seenAt,
        last_seen_at: seenAt,
      })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'path']).doUpdateSet((eb) => ({
          hit_count: eb('link_health.hit_count', '+', 1),
          status_code: eb.ref('excluded.status_code'),
          referrer: eb.fn.coalesce('excluded.referrer', 'link_health.referrer'),
          last_seen_at: eb
            .case()
            .when('excluded.last_seen_at', '>', eb.ref('link_health.last_seen_at'))
            .then(eb.ref('excluded.last_seen_at'))
            .else(eb.ref('link_health.last_seen_at'))
            .end(),
        })),
      )
      .returningAll(),
);

/** All SQL of link-health reports; every function takes the workspace id first, after the executor. */
export const linkHealthRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: { q?: string | undefined },
    page: PageRequest<LinkHealthSortKey>,
  ) {
    let query = db.selectFrom('link_health').where('link_health.workspace_id', '=', workspaceId);
    if (filter.q) query = query.where(dialect.containsText('link_health.path', filter.q));
    const column = SORT_COLUMNS[page.orderBy ?? 'hitCount'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('link_health')
        .orderBy(`link_health.${column}`, page.order)
        .orderBy('link_health.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /**
   * Records one report in a single atomic statement, never read-then-write, so the count is exact
   * under any concurrency: PostgreSQL's speculative insertion and SQLite's one writer both make
   * concurrent first reports of a path end as one row, and every repeat adds exactly 1.
   * The latest report's status wins; a report without a referrer keeps the last one known; and
   * lastSeenAt never moves back when two reports commit out of the order of their clocks.
   */
  async recordHit(db: Executor, workspaceId: string, report: LinkHealthReport): Promise<LinkHealthRow> {
    const { rows } = await runRecordHit(
      db,
      workspaceId,
      report.id,
      report.path,
      report.referrer ?? null,
      report.status_code,
      report.seen_at,
    );
    return rows[0]!;
  },
};
