import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { withRowLock, type RowLock } from '../../db/locks.js';
import type { CategoriesTable, CategoryRow, Database } from '../../db/schema.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { PageRequest } from '../../shared/paging.js';
import { idOrSlugKey } from '../../shared/slug.js';
import type { CategorySortKey } from './categories.schemas.js';

type Executor = Kysely<Database>;

export interface CategoryFilter {
  /** Already folded with foldForSearch. */
  q?: string | undefined;
  /** null: root categories only. */
  parentId?: string | null | undefined;
}

export type NewCategory = Omit<Insertable<CategoriesTable>, 'workspace_id'>;
export type CategoryPatch = Omit<Updateable<CategoriesTable>, 'id' | 'workspace_id' | 'created_at'>;

const SORT_COLUMNS: Record<CategorySortKey, 'created_at' | 'updated_at' | 'name' | 'sort_order'> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  name: 'name',
  sortOrder: 'sort_order',
};

function categoriesOf(db: Executor, workspaceId: string) {
  return db.selectFrom('categories').where('categories.workspace_id', '=', workspaceId);
}

/** All SQL of categories; every function takes the workspace id first, after the executor. */
export const categoriesRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: CategoryFilter,
    page: PageRequest<CategorySortKey>,
  ) {
    let query = categoriesOf(db, workspaceId);
    if (filter.q) query = query.where(dialect.containsText('categories.search_text', filter.q));
    if (filter.parentId === null) query = query.where('categories.parent_id', 'is', null);
    else if (filter.parentId) query = query.where('categories.parent_id', '=', filter.parentId);
    const column = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('categories')
        .orderBy(`categories.${column}`, page.order)
        .orderBy('categories.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** A UUID resolves by id, any other string by slug, in this workspace only. */
  findByIdOrSlug(
    db: Executor,
    workspaceId: string,
    idOrSlug: string,
    lock?: RowLock,
  ): Promise<CategoryRow | undefined> {
    const key = idOrSlugKey(idOrSlug);
    return withRowLock(
      categoriesOf(db, workspaceId).selectAll('categories').where(`categories.${key.column}`, '=', key.value),
      lock,
    ).executeTakeFirst();
  },

  async takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>> {
    const rows = await categoriesOf(db, workspaceId)
      .select('categories.slug')
      .where('categories.slug', 'in', candidates)
      .execute();
    return new Set(rows.map((row) => row.slug));
  },

  async insert(db: ContentTransaction, workspaceId: string, row: NewCategory): Promise<void> {
    await db
      .insertInto('categories')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  async update(db: ContentTransaction, workspaceId: string, id: string, patch: CategoryPatch): Promise<void> {
    await db
      .updateTable('categories')
      .set(patch)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async delete(db: ContentTransaction, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('categories').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** What blocks a deletion: child categories, and live posts (soft-deleted ones lose it: ON DELETE SET NULL). */
  async countDependents(db: Executor, workspaceId: string, id: string): Promise<{ children: number; posts: number }> {
    const [children, posts] = await Promise.all([
      categoriesOf(db, workspaceId)
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('categories.parent_id', '=', id)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('workspace_id', '=', workspaceId)
        .where('category_id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    return { children: Number(children.total), posts: Number(posts.total) };
  },

  /**
   * The categories `ids` and every ancestor of theirs, in one recursive query, so each one's `path`
   * can be resolved without a query per level.
   */
  async findManyWithAncestors(db: Executor, workspaceId: string, ids: readonly string[]): Promise<CategoryRow[]> {
    if (ids.length === 0) return [];
    return db
      .withRecursive('chain', (qb) =>
        qb
          .selectFrom('categories')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', [...new Set(ids)])
          .union((union) =>
            union
              .selectFrom('categories as parent')
              .innerJoin('chain', 'chain.parent_id', 'parent.id')
              .selectAll('parent')
              .where('parent.workspace_id', '=', workspaceId),
          ),
      )
      .selectFrom('chain')
      .selectAll()
      .execute() as Promise<CategoryRow[]>;
  },
};
