import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { ApiKeyRow, Database, NewApiKeyRow } from '../../db/schema.js';
import type { PageRequest } from '../../shared/paging.js';

type Executor = Kysely<Database>;

export type ApiKeyWithCreator = ApiKeyRow & { creator_email: string };

export interface ApiKeyFilter {
  isActive?: boolean;
  now: string;
}

/** What one request needs to know about its key, read by one indexed query (the unique key_hash index). */
export interface KeyAuthentication {
  id: string;
  workspace_id: string;
  created_by_user_id: string;
  expires_at: string | null;
  revoked_at: string | null;
  permissions: string;
  owner_user_id: string;
  content_version: number;
}

const SORT_COLUMNS = {
  createdAt: 'api_keys.created_at',
  name: 'api_keys.name',
  expiresAt: 'api_keys.expires_at',
} as const;

function keysOf(db: Executor, workspaceId: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.created_by_user_id')
    .where('api_keys.workspace_id', '=', workspaceId);
}

/**
 * The query behind findForAuthentication, exported so a test can EXPLAIN exactly what runs: it must
 * stay an index lookup on the unique key_hash. The inner join on memberships makes a key whose
 * creator left the workspace indistinguishable from an unknown one.
 */
export function authenticationQuery(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('memberships', (join) =>
      join
        .onRef('memberships.workspace_id', '=', 'api_keys.workspace_id')
        .onRef('memberships.user_id', '=', 'api_keys.created_by_user_id'),
    )
    .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .select([
      'api_keys.id',
      'api_keys.workspace_id',
      'api_keys.created_by_user_id',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'memberships.permissions',
      'workspaces.owner_user_id',
      'workspaces.content_version',
    ])
    .where('api_keys.key_hash', '=', keyHash);
}

/** Every request runs it: Kysely builds and compiles it once per dialect. */
const runAuthentication = preparedQuery((db: Executor, keyHash: string) => authenticationQuery(db, keyHash));

export const apiKeysRepository = {
  /**
   * The authentication query. The only read that starts from something other than a workspace id:
   * it is how a request finds its workspace.
   */
  async findForAuthentication(db: Executor, keyHash: string): Promise<KeyAuthentication | undefined> {
    const { rows } = await runAuthentication(db, keyHash);
    return rows[0];
  },

  async list(db: Executor, workspaceId: string, filter: ApiKeyFilter, page: PageRequest<keyof typeof SORT_COLUMNS>) {
    let query = keysOf(db, workspaceId);
    if (filter.isActive === true) {
      query = query
        .where('api_keys.revoked_at', 'is', null)
        .where((eb) => eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', filter.now)]));
    } else if (filter.isActive === false) {
      query = query.where((eb) =>
        eb.or([eb('api_keys.revoked_at', 'is not', null), eb('api_keys.expires_at', '<=', filter.now)]),
      );
    }
    const sortColumn = SORT_COLUMNS[page.orderBy ?? 'createdAt'];
    const [rows, count] = await Promise.all([
      query
        .selectAll('api_keys')
        .select('users.email as creator_email')
        .orderBy(sortColumn, page.order)
        .orderBy('api_keys.id', page.order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  findById(db: Executor, workspaceId: string, id: string): Promise<ApiKeyWithCreator | undefined> {
    return keysOf(db, workspaceId)
      .selectAll('api_keys')
      .select('users.email as creator_email')
      .where('api_keys.id', '=', id)
      .executeTakeFirst();
  },

  async insert(db: Executor, workspaceId: string, row: Omit<NewApiKeyRow, 'workspace_id'>): Promise<void> {
    await db
      .insertInto('api_keys')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  async update(
    db: Executor,
    workspaceId: string,
    id: string,
    patch: Partial<Pick<ApiKeyRow, 'name' | 'expires_at' | 'revoked_at' | 'updated_at'>>,
  ): Promise<void> {
    await db.updateTable('api_keys').set(patch).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },
};
