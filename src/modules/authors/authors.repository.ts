import type { Kysely } from 'kysely';
import type { AuthorRow, Database } from '../../db/schema.js';

type Executor = Kysely<Database>;

export const authorsRepository = {
  async findMany(db: Executor, workspaceId: string, ids: readonly string[]): Promise<AuthorRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('authors').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...new Set(ids)]).execute();
  },
};
