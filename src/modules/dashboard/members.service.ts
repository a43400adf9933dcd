import type { DatabaseHandle } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import { accountsRepository as accountsRepo } from '../accounts/accounts.repository.js';
import { userTarget, type AccountsService } from '../accounts/accounts.service.js';
import { recordAudit } from '../../audit/audit-log.js';
import { normalizePermissions } from '../../security/permissions.js';
import { presentMember } from './dashboard.presenter.js';
import type { Member, MemberAddBody, WorkspaceSummary } from './dashboard.schemas.js';
import { emailField } from './input.js';
import { dashboardWorkspacesRepository as repo } from './workspaces.repository.js';
import { checkGrantable, ownerOnly, requirePermission } from '../../security/actor.js';
import type { DashboardWorkspacesService } from './workspaces.service.js';

/**
 * Members of the actor's workspace. The rules (the owner cannot be edited or removed, a transfer
 * keeps the old owner's permissions explicit) are the accounts service's, shared with the CLI.
 */
export function createMembersService(
  { db }: DatabaseHandle,
  accounts: AccountsService,
  workspaces: DashboardWorkspacesService,
) {
  async function member(workspaceId: string, userId: string): Promise<Member> {
    const row = await repo.findMember(db, workspaceId, userId);
    if (!row) throw notFound('Member');
    return presentMember(row);
  }

  async function requireMemberUser(actor: Actor, userId: string): Promise<UserRow> {
    requirePermission(actor, 'members:write');
    const user = await accountsRepo.findUserById(db, userId);
    if (!user || !(await repo.findMember(db, actor.workspaceId, user.id))) throw notFound('Member');
    return user;
  }

  return {
    async list(actor: Actor): Promise<Member[]> {
      return (await repo.listMembers(db, actor.workspaceId)).map(presentMember);
    },

    /** An existing user by email, at once; anyone else is invited (src/modules/team). */
    async add(actor: Actor, body: MemberAddBody): Promise<Member> {
      requirePermission(actor, 'members:write');
      const email = emailField(body.email);
      const permissions = normalizePermissions(body.permissions);
      checkGrantable(actor, permissions);
      const added = await accounts.addMember(actor.workspaceId, email, permissions, actor);
      return member(actor.workspaceId, added.userId);
    },

    async setPermissions(actor: Actor, userId: string, permissions: readonly string[]): Promise<Member> {
      const user = await requireMemberUser(actor, userId);
      const granted = normalizePermissions(permissions);
      // Only what this change adds: a manager may edit a member who holds something the manager does not.
      const held = new Set((await member(actor.workspaceId, user.id)).permissions);
      checkGrantable(
        actor,
        granted.filter((permission) => !held.has(permission)),
      );
      await accounts.setPermissions(actor.workspaceId, user.email, granted, actor);
      return member(actor.workspaceId, user.id);
    },

    async remove(actor: Actor, userId: string): Promise<{ removed: true }> {
      const user = await requireMemberUser(actor, userId);
      await accounts.removeMember(actor.workspaceId, user.email, actor);
      return { removed: true };
    },

    /** Signs a member out everywhere (a lost laptop): the owner's, as it reaches beyond this workspace. */
    async endSessions(actor: Actor, userId: string): Promise<{ ended: number }> {
      if (!actor.isOwner) throw ownerOnly();
      const user = await requireMemberUser(actor, userId);
      const ended = await db.transaction().execute(async (trx) => {
        const count = await accountsRepo.endSessions(trx, user.id);
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'member.sessions_ended',
          target: userTarget(user),
          details: { ended: count },
        });
        return count;
      });
      return { ended };
    },

    /** Only to a member: an owner picks the heir from their members list, not from every user there is. */
    async transfer(actor: Actor, userId: string): Promise<WorkspaceSummary> {
      if (!actor.isOwner) throw ownerOnly();
      const user = await requireMemberUser(actor, userId);
      await accounts.transferWorkspace(actor.workspaceId, user.email, actor);
      return workspaces.summary(actor.workspaceId, actor.userId);
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
