import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { Passwords } from '../../security/password.js';
import type { Actor } from '../../security/actor.js';
import { accountsRepository as accountsRepo } from '../accounts/accounts.repository.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { normalizePermissions } from '../../security/permissions.js';
import { presentMember } from './dashboard.presenter.js';
import type { AddedMember, Member, MemberAddBody, WorkspaceSummary } from './dashboard.schemas.js';
import { emailField } from './input.js';
import { dashboardWorkspacesRepository as repo } from './workspaces.repository.js';
import { ownerOnly } from '../../security/actor.js';
import type { DashboardWorkspacesService } from './workspaces.service.js';

/** 18 random bytes: 24 base64url characters, shown once to the owner who created the user. */
const oneTimePassword = () => crypto.randomBytes(18).toString('base64url');

/**
 * Members of the actor's workspace. The rules (the owner cannot be edited or removed, a transfer
 * keeps the old owner's permissions explicit) are the accounts service's, shared with the CLI.
 */
export function createMembersService(
  { db }: DatabaseHandle,
  accounts: AccountsService,
  workspaces: DashboardWorkspacesService,
  passwords: Passwords,
) {
  async function member(workspaceId: string, userId: string): Promise<Member> {
    const row = await repo.findMember(db, workspaceId, userId);
    if (!row) throw notFound('Member');
    return presentMember(row);
  }

  async function requireMemberUser(actor: Actor, userId: string): Promise<UserRow> {
    if (!actor.isOwner) throw ownerOnly();
    const user = await accountsRepo.findUserById(db, userId);
    if (!user || !(await repo.findMember(db, actor.workspaceId, user.id))) throw notFound('Member');
    return user;
  }

  /** A new user holding a random password, and their membership, in one transaction. */
  async function createUserAsMember(actor: Actor, email: string, permissions: string): Promise<AddedMember> {
    const password = oneTimePassword();
    const passwordHash = await passwords.hash(password);
    const id = crypto.randomUUID();
    await db.transaction().execute(async (trx) => {
      if (await accountsRepo.findUserByEmail(trx, email)) throw conflict(`A user with email ${email} already exists`);
      const now = new Date().toISOString();
      await accountsRepo.insertUser(trx, { id, email, password_hash: passwordHash, created_at: now, updated_at: now });
      await accountsRepo.insertMembership(trx, actor.workspaceId, {
        user_id: id,
        permissions,
        created_at: now,
        updated_at: now,
      });
    });
    return { ...(await member(actor.workspaceId, id)), oneTimePassword: password };
  }

  return {
    async list(actor: Actor): Promise<Member[]> {
      return (await repo.listMembers(db, actor.workspaceId)).map(presentMember);
    },

    /** An existing user by email; with `createUser`, an unknown email becomes a new user first. */
    async add(actor: Actor, body: MemberAddBody): Promise<AddedMember> {
      if (!actor.isOwner) throw ownerOnly();
      const email = emailField(body.email);
      const permissions = normalizePermissions(body.permissions);
      const existing = await accountsRepo.findUserByEmail(db, email);
      if (!existing && body.createUser) return createUserAsMember(actor, email, JSON.stringify(permissions));
      const added = await accounts.addMember(actor.workspaceId, email, permissions);
      return member(actor.workspaceId, added.userId);
    },

    async setPermissions(actor: Actor, userId: string, permissions: readonly string[]): Promise<Member> {
      const user = await requireMemberUser(actor, userId);
      await accounts.setPermissions(actor.workspaceId, user.email, normalizePermissions(permissions));
      return member(actor.workspaceId, user.id);
    },

    async remove(actor: Actor, userId: string): Promise<{ removed: true }> {
      const user = await requireMemberUser(actor, userId);
      await accounts.removeMember(actor.workspaceId, user.email);
      return { removed: true };
    },

    /** Only to a member: an owner picks the heir from their members list, not from every user there is. */
    async transfer(actor: Actor, userId: string): Promise<WorkspaceSummary> {
      const user = await requireMemberUser(actor, userId);
      await accounts.transferWorkspace(actor.workspaceId, user.email);
      return workspaces.summary(actor.workspaceId, actor.userId);
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
