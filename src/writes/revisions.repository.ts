import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, RevisionsTable } from '../db/schema.js';
import { impliedTotal, type PageRequest } from '../shared/paging.js';

type Executor = Kysely<Database>;

/** Whose revisions: a post's (post_revisions) or a page's (page_revisions). */
export type RevisedKind = 'post' | 'page';
export type RevisionRow = Selectable<RevisionsTable>;
export type RevisionSummaryRow = Omit<RevisionRow, 'fields' | 'workspace_id' | 'opened_at'>;

/**
 * The table of a kind. Both have the same columns (migration 0012), so every query is written once against
 * post_revisions' type and runs on either table.
 */
function table(kind: RevisedKind): 'post_revisions' {
  return (kind === 'post' ? 'post_revisions' : 'page_revisions') as 'post_revisions';
}

/** Rows per insert: eleven parameters each, well under either driver's limit on one statement's parameters. */
const ROWS_PER_STATEMENT = 500;

const SUMMARY_COLUMNS = [
  'resource_id',
  'n',
  'action',
  'slug',
  'title',
  'actor_user_id',
  'actor_api_key_id',
  'created_at',
] as const;

/**
 * All SQL of post_revisions and page_revisions; the workspace id comes first after the executor and kind.
 * Recording is contentWrite's (writes/revisions.ts): an eslint rule keeps other modules from writing here.
 */
export const revisionsRepository = {
  /**
   * Inserts one revision per row, each numbered after its resource's newest one by the statement itself (its
   * writes are serialized by the workspace lock the write's events took), and answers the numbers given.
   */
  async insert(
    db: Executor,
    kind: RevisedKind,
    rows: ReadonlyArray<Omit<Insertable<RevisionsTable>, 'n'>>,
  ): Promise<Array<{ resource_id: string; n: number }>> {
    const numbered: Array<{ resource_id: string; n: number }> = [];
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const inserted = await db
        .insertInto(table(kind))
        .values(
          rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({
            ...row,
            n: (eb: ExpressionBuilder<Database, 'post_revisions'>) =>
              eb
                .selectFrom(table(kind))
                .select(sql<number>`coalesce(max(n), 0) + 1`.as('n'))
                .where('workspace_id', '=', row.workspace_id)
                .where('resource_id', '=', row.resource_id),
          })),
        )
        .returning(['resource_id', 'n'])
        .execute();
      for (const row of inserted) numbered.push({ resource_id: row.resource_id, n: Number(row.n) });
    }
    return numbered;
  },

  /** Deletes a resource's revisions numbered `upTo` and below. */
  async prune(db: Executor, kind: RevisedKind, workspaceId: string, resourceId: string, upTo: number): Promise<void> {
    await db
      .deleteFrom(table(kind))
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', '=', resourceId)
      .where('n', '<=', upTo)
      .execute();
  },

  /** A page of a resource's revisions, without their fields; newest first unless `order` says asc. */
  async list(
    db: Executor,
    kind: RevisedKind,
    workspaceId: string,
    resourceId: string,
    page: PageRequest,
  ): Promise<{ rows: RevisionSummaryRow[]; total: number }> {
    const query = db
      .selectFrom(table(kind))
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', '=', resourceId);
    const rows = await query
      .select(SUMMARY_COLUMNS)
      .orderBy('n', page.order)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute();
    const total =
      impliedTotal(page, rows.length) ??
      Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
    return { rows, total };
  },

  find(
    db: Executor,
    kind: RevisedKind,
    workspaceId: string,
    resourceId: string,
    n: number,
  ): Promise<RevisionRow | undefined> {
    return db
      .selectFrom(table(kind))
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', '=', resourceId)
      .where('n', '=', n)
      .executeTakeFirst();
  },
};
