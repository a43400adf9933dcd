import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { withRowLock, type RowLock } from '../../db/locks.js';
import type { AuthorRow, AuthorsTable, Database } from '../../db/schema.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { PageRequest } from '../../shared/paging.js';
import { idOrSlugKey } from '../../shared/slug.js';
import type { AuthorSortKey } from './authors.schemas.js';

type Executor = Kysely<Database>;

export interface AuthorFilter {
  /** Already folded with foldForSearch. */
  q?: string | undefined;
  isActive?: boolean | undefined;
}

export type NewAuthor = Omit<Insertable<AuthorsTable>, 'workspace_id'>;
export type AuthorPatch = Omit<Updateable<AuthorsTable>, 'id' | 'workspace_id' | 'created_at'>;

const SORT_COLUMNS: Record<AuthorSortKey, 'created_at' | 'updated_at' | 'display_name'> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  displayName: 'display_name',
};

function authorsOf(db: Executor, workspaceId: string) {
  return db.selectFrom('authors').where('authors.workspace_id', '=', workspaceId);
}

/** All SQL of authors; every function takes the workspace id first, after the executor. */
export const authorsRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: AuthorFilter,
    page: PageRequest<AuthorSortKey>,
  ) {
    let query = authorsOf(db, workspaceId);
    if (filter.q) query = query.where(dialect.containsText('authors.search_text', filter.q));
    if (filter.isActive !== undefined) query = query.where('authors.is_active', '=', filter.isActive);
    const column = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('authors')
        .orderBy(`authors.${column}`, page.order)
        .orderBy('authors.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** Many authors in one query: the authors a page of posts embeds. */
  async findMany(db: Executor, workspaceId: string, ids: readonly string[]): Promise<AuthorRow[]> {
    if (ids.length === 0) return [];
    return authorsOf(db, workspaceId)
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
  },

  /** A UUID resolves by id, any other string by slug, in this workspace only. */
  findByIdOrSlug(db: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<AuthorRow | undefined> {
    const key = idOrSlugKey(idOrSlug);
    return withRowLock(
      authorsOf(db, workspaceId).selectAll('authors').where(`authors.${key.column}`, '=', key.value),
      lock,
    ).executeTakeFirst();
  },

  async takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>> {
    const rows = await authorsOf(db, workspaceId)
      .select('authors.slug')
      .where('authors.slug', 'in', candidates)
      .execute();
    return new Set(rows.map((row) => row.slug));
  },

  async insert(db: ContentTransaction, workspaceId: string, row: NewAuthor): Promise<void> {
    await db
      .insertInto('authors')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  async update(db: ContentTransaction, workspaceId: string, id: string, patch: AuthorPatch): Promise<void> {
    await db.updateTable('authors').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  async delete(db: ContentTransaction, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('authors').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Live posts carrying the author: what blocks its deletion. Soft-deleted ones lose it (ON DELETE SET NULL). */
  async countLivePosts(db: Executor, workspaceId: string, authorId: string): Promise<number> {
    const row = await db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('workspace_id', '=', workspaceId)
      .where('author_id', '=', authorId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  },
};
