import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import type { CategoriesTable, CategoryRow, Database } from '../../db/schema.js';
import type { PageRequest } from '../../shared/paging.js';
import { taxonomyQueries } from '../content/taxonomy.js';
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

  ...taxonomyQueries<CategoryRow, NewCategory, CategoryPatch>('categories'),

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
