import type { Kysely } from 'kysely';
import type { Database, MembershipRow, UserRow } from '../../db/schema.js';

type Executor = Kysely<Database>;

/** Users and memberships; the workspace row itself belongs to workspacesRepository. */
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

  /** Every session of the user: what removing them from a workspace, or their owner's "end sessions", does. */
  async endSessions(db: Executor, userId: string): Promise<number> {
    const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Every session of the user, and every password reset link: what a new password ends. */
  async endSignIns(db: Executor, userId: string): Promise<void> {
    await accountsRepository.endSessions(db, userId);
    await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
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
