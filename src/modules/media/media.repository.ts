import type { Kysely } from 'kysely';
import type { Database, MediaRow } from '../../db/schema.js';

type Executor = Kysely<Database>;

export const mediaRepository = {
  /** Many media rows in one query: featured images, avatars and image blocks of a whole response. */
  async findMany(db: Executor, workspaceId: string, ids: readonly string[]): Promise<MediaRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('media').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', [...new Set(ids)]).execute();
  },
};
