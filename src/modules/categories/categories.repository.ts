import type { Kysely } from 'kysely';
import type { CategoryRow, Database } from '../../db/schema.js';

type Executor = Kysely<Database>;

export const categoriesRepository = {
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
