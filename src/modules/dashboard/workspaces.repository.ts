import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Executor = Kysely<Database>;

export interface MembershipView {
  id: string;
  name: string;
  slug: string;
  owner_user_id: string;
  content_version: number;
  created_at: string;
  permissions: string;
  require_second_factor: boolean | 0 | 1;
  /** When the member's authenticator app was confirmed, else when they added a first passkey; null without either. */
  second_factor_at: string | null;
}

export interface MemberRow {
  user_id: string;
  email: string;
  permissions: string;
  created_at: string;
  owner_user_id: string;
}

/** A member's workspaces, with whether each requires a second factor and whether they have one. */
function membershipsOf(db: Executor) {
  return db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .leftJoin('totp_factors', 'totp_factors.user_id', 'memberships.user_id')
    .select((eb) => [
      'workspaces.require_second_factor',
      eb.fn
        .coalesce(
          'totp_factors.confirmed_at',
          eb
            .selectFrom('passkeys')
            .select((sub) => sub.fn.min('passkeys.created_at').as('first'))
            .whereRef('passkeys.user_id', '=', 'memberships.user_id'),
        )
        .as('second_factor_at'),
      'workspaces.id',
      'workspaces.name',
      'workspaces.slug',
      'workspaces.owner_user_id',
      'workspaces.content_version',
      'workspaces.created_at',
      'memberships.permissions',
    ]);
}

function membersOf(db: Executor, workspaceId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select([
      'memberships.user_id',
      'users.email',
      'memberships.permissions',
      'memberships.created_at',
      'workspaces.owner_user_id',
    ])
    .where('memberships.workspace_id', '=', workspaceId);
}

/** What the dashboard reads of workspaces through a user's memberships. */
export const dashboardWorkspacesRepository = {
  /** A user's workspaces: those they hold a membership of (the owner always does). */
  listForUser(db: Executor, userId: string): Promise<MembershipView[]> {
    return membershipsOf(db)
      .where('memberships.user_id', '=', userId)
      .orderBy('workspaces.created_at')
      .orderBy('workspaces.id')
      .execute();
  },

  /** The workspace as one member sees it; undefined when they are not a member. */
  findMembership(db: Executor, workspaceId: string, userId: string): Promise<MembershipView | undefined> {
    return membershipsOf(db)
      .where('memberships.workspace_id', '=', workspaceId)
      .where('memberships.user_id', '=', userId)
      .executeTakeFirst();
  },

  listMembers(db: Executor, workspaceId: string): Promise<MemberRow[]> {
    return membersOf(db, workspaceId).orderBy('memberships.created_at').orderBy('users.email').execute();
  },

  findMember(db: Executor, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
    return membersOf(db, workspaceId).where('memberships.user_id', '=', userId).executeTakeFirst();
  },
};
