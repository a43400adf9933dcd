import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import type { Database, TagRow, TagsTable } from '../../db/schema.js';
import type { PageRequest } from '../../shared/paging.js';
import { taxonomyQueries } from '../content/taxonomy.js';
import type { TagSortKey } from './tags.schemas.js';

type Executor = Kysely<Database>;

export type NewTag = Omit<Insertable<TagsTable>, 'workspace_id'>;
export type TagPatch = Omit<Updateable<TagsTable>, 'id' | 'workspace_id' | 'created_at'>;

const SORT_COLUMNS: Record<TagSortKey, 'created_at' | 'name'> = { createdAt: 'created_at', name: 'name' };

function tagsOf(db: Executor, workspaceId: string) {
  return db.selectFrom('tags').where('tags.workspace_id', '=', workspaceId);
}

/** All SQL of tags; every function takes the workspace id first, after the executor. */
export const tagsRepository = {
  /** `q` is already folded with foldForSearch. */
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: { q?: string | undefined },
    page: PageRequest<TagSortKey>,
  ) {
    let query = tagsOf(db, workspaceId);
    if (filter.q) query = query.where(dialect.containsText('tags.search_text', filter.q));
    const column = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('tags')
        .orderBy(`tags.${column}`, page.order)
        .orderBy('tags.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  // Its delete detaches the tag from every post with it: post_tags rows go by ON DELETE CASCADE.
  ...taxonomyQueries<TagRow, NewTag, TagPatch>('tags'),
};
