import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, RevisionsTable } from '../db/schema.js';
import { impliedTotal, type PageRequest } from '../shared/paging.js';
import type { NewestRevision } from './revision-windows.js';

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

  /**
   * The newest revision of each resource named, as far as a save merging into it needs it
   * (writes/revision-windows.ts). Read after the write's events took the workspace lock, as the numbering is.
   */
  async newest(
    db: Executor,
    kind: RevisedKind,
    workspaceId: string,
    resourceIds: readonly string[],
  ): Promise<Map<string, NewestRevision & { resource_id: string }>> {
    if (resourceIds.length === 0) return new Map();
    const rows = await db
      .selectFrom(`${table(kind)} as r`)
      .select(['r.resource_id', 'r.n', 'r.action', 'r.actor_user_id', 'r.actor_api_key_id', 'r.opened_at'])
      .where('r.workspace_id', '=', workspaceId)
      .where('r.resource_id', 'in', resourceIds)
      .where('r.n', '=', (eb) =>
        eb
          .selectFrom(`${table(kind)} as last`)
          .select(sql<number>`max(last.n)`.as('n'))
          .whereRef('last.workspace_id', '=', 'r.workspace_id')
          .whereRef('last.resource_id', '=', 'r.resource_id'),
      )
      .execute();
    return new Map(rows.map((row) => [row.resource_id, { ...row, n: Number(row.n) }]));
  },

  /**
   * Writes a save into a resource's revision `n` (a draft's save merged into its window): its slug, title,
   * fields and time become the save's; its number, action, writer and the time its window opened stay.
   */
  async overwrite(
    db: Executor,
    kind: RevisedKind,
    workspaceId: string,
    resourceId: string,
    n: number,
    save: Pick<Insertable<RevisionsTable>, 'slug' | 'title' | 'fields' | 'created_at'>,
  ): Promise<void> {
    await db
      .updateTable(table(kind))
      .set({ slug: save.slug, title: save.title, fields: save.fields, created_at: save.created_at })
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', '=', resourceId)
      .where('n', '=', n)
      .execute();
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
