import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Database, MembershipRow, UserRow, WorkspaceRow } from '../../db/schema.js';
import { isUuid } from '../../shared/slug.js';

type Executor = Kysely<Database>;

/** Users are global; everything else here is reached through a workspace id. */
export const accountsRepository = {
  findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  },

  findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async setUserPassword(db: Executor, id: string, passwordHash: string, now: string): Promise<void> {
    await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
  },

  async insertUser(db: Executor, user: UserRow): Promise<void> {
    await db.insertInto('users').values(user).execute();
  },

  countUsers(db: Executor): Promise<number> {
    return db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  },

  findWorkspace(db: Executor, idOrSlug: string): Promise<WorkspaceRow | undefined> {
    return db
      .selectFrom('workspaces')
      .selectAll()
      .where(isUuid(idOrSlug) ? 'id' : 'slug', '=', idOrSlug.toLowerCase())
      .executeTakeFirst();
  },

  async takenWorkspaceSlugs(db: Executor, candidates: string[]): Promise<Set<string>> {
    const rows = await db.selectFrom('workspaces').select('slug').where('slug', 'in', candidates).execute();
    return new Set(rows.map((row) => row.slug));
  },

  async insertWorkspace(
    db: Executor,
    workspace: Omit<WorkspaceRow, 'content_version' | 'embeds_version' | 'live_post_count'>,
  ): Promise<void> {
    await db.insertInto('workspaces').values(workspace).execute();
  },

  async setWorkspaceOwner(db: Executor, workspaceId: string, ownerUserId: string, now: string): Promise<void> {
    await db
      .updateTable('workspaces')
      .set({ owner_user_id: ownerUserId, updated_at: now })
      .where('id', '=', workspaceId)
      .execute();
  },

  findMembership(db: Executor, workspaceId: string, userId: string): Promise<MembershipRow | undefined> {
    return db
      .selectFrom('memberships')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  async insertMembership(
    db: Executor,
    workspaceId: string,
    membership: Omit<MembershipRow, 'workspace_id'>,
  ): Promise<void> {
    await db
      .insertInto('memberships')
      .values({ ...membership, workspace_id: workspaceId })
      .execute();
  },

  async setMembershipPermissions(
    db: Executor,
    workspaceId: string,
    userId: string,
    permissions: string,
    now: string,
  ): Promise<void> {
    await db
      .updateTable('memberships')
      .set({ permissions, updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  async deleteMembership(db: Executor, workspaceId: string, userId: string): Promise<void> {
    await db.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  },
};

/**
 * Bumped in the same transaction as every content write: a response cached under an older version
 * can never be served after the write commits. The embeds version moves with it unless the caller
 * says the write touched nothing a stored post render embeds (a post's own stamp labels the renders
 * that show it, posts.renders.ts; pages and redirects are embedded by no post).
 */
export async function bumpContentVersion(
  db: Executor,
  workspaceId: string,
  touched: 'post-embeds' | 'no-post-embeds' = 'post-embeds',
): Promise<void> {
  await (touched === 'post-embeds' ? bumpBoth : bumpContent)(db, workspaceId);
}

// Every content write runs one of these: Kysely builds and compiles each once per dialect.
const bumpBoth = preparedQuery((db: Executor, workspaceId: string) =>
  db
    .updateTable('workspaces')
    .set((eb) => ({ content_version: eb('content_version', '+', 1), embeds_version: eb('embeds_version', '+', 1) }))
    .where('id', '=', workspaceId),
);
const bumpContent = preparedQuery((db: Executor, workspaceId: string) =>
  db
    .updateTable('workspaces')
    .set((eb) => ({ content_version: eb('content_version', '+', 1) }))
    .where('id', '=', workspaceId),
);
