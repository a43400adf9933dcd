import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { ContentKeyRow, ContentKeysTable, Database } from '../../db/schema.js';
import type { Insertable } from 'kysely';
import type { PageRequest } from '../../shared/paging.js';

type Executor = Kysely<Database>;

/** What one content API request needs of its key, read by one query on the unique key_hash index. */
export interface ContentKeyAuthentication {
  id: string;
  workspace_id: string;
  allowed_origins: string;
  revoked_at: string | null;
  content_version: number;
}

const SORT_COLUMNS = { createdAt: 'created_at', name: 'name' } as const;

/** Exported so a test can EXPLAIN exactly what runs: an index lookup on the unique key_hash. */
export function contentKeyAuthenticationQuery(db: Executor, keyHash: string) {
  return db
    .selectFrom('content_keys')
    .innerJoin('workspaces', 'workspaces.id', 'content_keys.workspace_id')
    .select([
      'content_keys.id',
      'content_keys.workspace_id',
      'content_keys.allowed_origins',
      'content_keys.revoked_at',
      'workspaces.content_version',
    ])
    .where('content_keys.key_hash', '=', keyHash);
}

const runAuthentication = preparedQuery((db: Executor, keyHash: string) => contentKeyAuthenticationQuery(db, keyHash));

export const contentKeysRepository = {
  async findForAuthentication(db: Executor, keyHash: string): Promise<ContentKeyAuthentication | undefined> {
    const { rows } = await runAuthentication(db, keyHash);
    return rows[0];
  },

  async list(
    db: Executor,
    workspaceId: string,
    filter: { isActive?: boolean | undefined },
    page: PageRequest<keyof typeof SORT_COLUMNS>,
  ) {
    let query = db.selectFrom('content_keys').where('workspace_id', '=', workspaceId);
    if (filter.isActive === true) query = query.where('revoked_at', 'is', null);
    else if (filter.isActive === false) query = query.where('revoked_at', 'is not', null);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy(SORT_COLUMNS[page.orderBy ?? 'createdAt'], page.order)
        .orderBy('id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  findById(db: Executor, workspaceId: string, id: string): Promise<ContentKeyRow | undefined> {
    return db
      .selectFrom('content_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async insert(db: Executor, workspaceId: string, row: Omit<Insertable<ContentKeysTable>, 'workspace_id'>) {
    await db
      .insertInto('content_keys')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  async update(
    db: Executor,
    workspaceId: string,
    id: string,
    patch: Partial<Pick<ContentKeyRow, 'name' | 'allowed_origins' | 'revoked_at' | 'updated_at'>>,
  ): Promise<void> {
    await db
      .updateTable('content_keys')
      .set(patch)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },
};
