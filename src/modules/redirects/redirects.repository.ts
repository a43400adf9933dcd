import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import type { Database, RedirectsTable } from '../../db/schema.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { PageRequest } from '../../shared/paging.js';
import type { RedirectSortKey } from './redirects.schemas.js';

type Executor = Kysely<Database>;
export type RedirectRow = Selectable<RedirectsTable>;
export type NewRedirectRow = Omit<Insertable<RedirectsTable>, 'workspace_id'>;
export type RedirectPatch = Omit<Updateable<RedirectsTable>, 'id' | 'workspace_id' | 'created_at'>;

const SORT_COLUMNS: Record<RedirectSortKey, 'created_at' | 'updated_at' | 'from_path'> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  fromPath: 'from_path',
};

function redirectsOf(db: Executor, workspaceId: string) {
  return db.selectFrom('redirects').where('redirects.workspace_id', '=', workspaceId);
}

/** All SQL of redirects; every function takes the workspace id first, after the executor. */
export const redirectsRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: { q?: string | undefined },
    page: PageRequest<RedirectSortKey>,
  ) {
    let query = redirectsOf(db, workspaceId);
    const q = filter.q;
    if (q)
      query = query.where((eb) =>
        eb.or([dialect.containsText('redirects.from_path', q), dialect.containsText('redirects.to_path', q)]),
      );
    const column = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('redirects')
        .orderBy(`redirects.${column}`, page.order)
        .orderBy('redirects.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  findById(db: Executor, workspaceId: string, id: string): Promise<RedirectRow | undefined> {
    return redirectsOf(db, workspaceId).selectAll('redirects').where('redirects.id', '=', id).executeTakeFirst();
  },

  /** `fromPath` must already be normalised: the unique index compares stored strings. */
  findByFromPath(db: Executor, workspaceId: string, fromPath: string): Promise<RedirectRow | undefined> {
    return redirectsOf(db, workspaceId)
      .selectAll('redirects')
      .where('redirects.from_path', '=', fromPath)
      .executeTakeFirst();
  },

  async insert(db: ContentTransaction, workspaceId: string, row: NewRedirectRow): Promise<void> {
    await db
      .insertInto('redirects')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  async update(db: ContentTransaction, workspaceId: string, id: string, patch: RedirectPatch): Promise<void> {
    await db.updateTable('redirects').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  async remove(db: ContentTransaction, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('redirects').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },
};
