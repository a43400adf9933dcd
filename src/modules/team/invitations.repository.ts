import type { Kysely } from 'kysely';
import type { Database, InvitationsTable } from '../../db/schema.js';

type Executor = Kysely<Database>;

export type InvitationRow = InvitationsTable;

/** An invitation as a list shows it: with the email of whoever sent it, when they still exist. */
export interface InvitationView extends InvitationRow {
  invited_by_email: string | null;
}

/** A token's invitation, with what its accept page shows: the workspace's name. */
export interface InvitationByToken extends InvitationRow {
  workspace_name: string;
}

/** A workspace's invitations, newest first: a walk of (workspace_id, created_at, id), the list's index. */
export function invitationListQuery(db: Executor, workspaceId: string) {
  return db
    .selectFrom('invitations')
    .leftJoin('users', 'users.id', 'invitations.invited_by_user_id')
    .selectAll('invitations')
    .select('users.email as invited_by_email')
    .where('invitations.workspace_id', '=', workspaceId)
    .orderBy('invitations.created_at', 'desc')
    .orderBy('invitations.id', 'desc');
}

/** All SQL of `invitations`; the workspace id comes first after the executor. */
export const invitationsRepository = {
  list(db: Executor, workspaceId: string): Promise<InvitationView[]> {
    return invitationListQuery(db, workspaceId).execute();
  },

  find(db: Executor, workspaceId: string, id: string): Promise<InvitationView | undefined> {
    return invitationListQuery(db, workspaceId).where('invitations.id', '=', id).executeTakeFirst();
  },

  findByEmail(db: Executor, workspaceId: string, email: string): Promise<InvitationRow | undefined> {
    return db
      .selectFrom('invitations')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('email', '=', email)
      .executeTakeFirst();
  },

  count(db: Executor, workspaceId: string): Promise<number> {
    return db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  },

  /** Not scoped by workspace: the token is all an invitee has, and it names one invitation. */
  findByTokenHash(db: Executor, tokenHash: string): Promise<InvitationByToken | undefined> {
    return db
      .selectFrom('invitations')
      .innerJoin('workspaces', 'workspaces.id', 'invitations.workspace_id')
      .selectAll('invitations')
      .select('workspaces.name as workspace_name')
      .where('invitations.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  async insert(db: Executor, row: InvitationRow): Promise<void> {
    await db.insertInto('invitations').values(row).execute();
  },

  async renew(
    db: Executor,
    workspaceId: string,
    id: string,
    renewal: Pick<InvitationRow, 'token_hash' | 'sent_at' | 'expires_at'>,
  ): Promise<void> {
    await db
      .updateTable('invitations')
      .set(renewal)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** True when this call deleted it: of two accepts of one link, one wins. */
  async delete(db: Executor, workspaceId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('invitations')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
