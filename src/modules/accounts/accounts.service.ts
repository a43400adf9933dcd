import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { COMMAND_LINE, recordAudit, recordAuditForUser, type AuditBy } from '../../audit/audit-log.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database, UserRow, WorkspaceRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type Passwords } from '../../security/password.js';
import { firstFreeSlug, slugFrom } from '../../shared/slug.js';
import { nowIso } from '../../shared/time.js';
import { workspacesRepository, type NewWorkspace } from '../workspaces/workspaces.repository.js';
import { accountsRepository as repo } from './accounts.repository.js';
import { ALL_PERMISSIONS, storedPermissions, type Permission } from '../../security/permissions.js';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX_LENGTH = 100;

export interface WorkspaceSummary {
  id: string;
  name: string;
  slug: string;
  ownerUserId: string;
  createdAt: string;
}

export interface MemberSummary {
  workspaceId: string;
  userId: string;
  email: string;
  isOwner: boolean;
  permissions: Permission[];
}

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(normalized) || normalized.length > 254) throw badRequest(`"${email}" is not an email address`);
  return normalized;
}

function presentWorkspace(row: WorkspaceRow | NewWorkspace): WorkspaceSummary {
  return { id: row.id, name: row.name, slug: row.slug, ownerUserId: row.owner_user_id, createdAt: row.created_at };
}

/** A new password's length, the one rule for every way a password is set. */
export function checkPasswordLength(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)
    throw badRequest(`A password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`);
}

/** A workspace name as stored: trimmed, 1 to 100 characters. */
export function checkWorkspaceName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > NAME_MAX_LENGTH)
    throw badRequest(`A workspace name must be 1 to ${NAME_MAX_LENGTH} characters long`);
  return trimmed;
}

/**
 * Inserts a workspace owned by `ownerUserId` with the owner's membership row, inside the caller's
 * transaction (the CLI's create and the dashboard's first-run setup share it). `identity` keeps a given id
 * and slug (an import keeps its archive's); otherwise both are new.
 */
export async function insertOwnedWorkspace(
  trx: Kysely<Database>,
  name: string,
  ownerUserId: string,
  identity?: { id: string; slug: string },
): Promise<WorkspaceSummary> {
  const now = nowIso();
  const slug =
    identity?.slug ??
    (await firstFreeSlug(slugFrom(name, 'workspace'), (candidates) =>
      workspacesRepository.takenSlugs(trx, candidates),
    ));
  const workspace = {
    id: identity?.id ?? crypto.randomUUID(),
    name,
    slug,
    owner_user_id: ownerUserId,
    site_name: name,
    site_url: null,
    logo_media_id: null,
    publisher_name: null,
    publisher_url: null,
    post_url_pattern: null,
    page_url_pattern: null,
    author_url_pattern: null,
    category_url_pattern: null,
    preview_url_pattern: null,
    created_at: now,
    updated_at: now,
  };
  await workspacesRepository.insert(trx, workspace);
  // The owner holds every permission implicitly; the row is there so a later transfer can demote.
  await repo.insertMembership(trx, workspace.id, {
    user_id: ownerUserId,
    permissions: JSON.stringify(ALL_PERMISSIONS),
    created_at: now,
    updated_at: now,
  });
  return presentWorkspace(workspace);
}

/** How the audit log names a person. */
export const userTarget = (user: { id: string; email: string }) => ({ type: 'user', id: user.id, label: user.email });

/** Users, workspaces and memberships: what the CLI and the dashboard manage, and what keys inherit. */
export function createAccountsService({ db, dialect }: DatabaseHandle, passwords: Passwords) {
  async function requireUser(email: string): Promise<UserRow> {
    const user = await repo.findUserByEmail(db, normalizeEmail(email));
    if (!user) throw notFound(`User ${email}`);
    return user;
  }

  async function requireWorkspace(idOrSlug: string): Promise<WorkspaceRow> {
    const workspace = await workspacesRepository.findByIdOrSlug(db, idOrSlug);
    if (!workspace) throw notFound(`Workspace ${idOrSlug}`);
    return workspace;
  }

  async function member(workspace: WorkspaceRow, user: UserRow): Promise<MemberSummary> {
    const membership = await repo.findMembership(db, workspace.id, user.id);
    if (!membership) throw notFound(`${user.email} is not a member of workspace ${workspace.slug}; membership`);
    return {
      workspaceId: workspace.id,
      userId: user.id,
      email: user.email,
      isOwner: workspace.owner_user_id === user.id,
      permissions: storedPermissions(membership.permissions),
    };
  }

  return {
    requireUser,
    requireWorkspace,

    async createUser(email: string, password: string): Promise<{ id: string; email: string; createdAt: string }> {
      const normalized = normalizeEmail(email);
      checkPasswordLength(password);
      if (await repo.findUserByEmail(db, normalized)) throw conflict(`A user with email ${normalized} already exists`);
      const now = nowIso();
      const user = {
        id: crypto.randomUUID(),
        email: normalized,
        password_hash: await passwords.hash(password),
        created_at: now,
        updated_at: now,
      };
      await repo.insertUser(db, user);
      return { id: user.id, email: user.email, createdAt: now };
    },

    countUsers: () => repo.countUsers(db),

    /** A new password, set by an operator: every session of the user ends, and every reset link. */
    /** An operator's: the command line sets a password and ends the account's sessions. */
    async setPassword(email: string, password: string): Promise<{ id: string; email: string }> {
      checkPasswordLength(password);
      const user = await requireUser(email);
      const passwordHash = await passwords.hash(password);
      await db.transaction().execute(async (trx) => {
        await repo.setUserPassword(trx, user.id, passwordHash, nowIso());
        await repo.endSignIns(trx, user.id);
        await recordAuditForUser(trx, user.id, COMMAND_LINE, {
          action: 'password.changed',
          target: userTarget(user),
          details: { by: 'command line' },
        });
      });
      return { id: user.id, email: user.email };
    },

    async createWorkspace(name: string, ownerEmail: string): Promise<WorkspaceSummary> {
      const trimmed = checkWorkspaceName(name);
      const owner = await requireUser(ownerEmail);
      // Two workspaces of one name created at the same moment can pick the same free slug; the unique
      // index refuses all but one, which then try again: each round at least one succeeds.
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await db.transaction().execute((trx) => insertOwnedWorkspace(trx, trimmed, owner.id));
        } catch (error) {
          if (attempt >= 20 || !dialect.uniqueViolation(error)) throw error;
        }
      }
    },

    /** The new owner becomes a member if needed; the old owner stays, holding every permission explicitly. */
    async transferWorkspace(idOrSlug: string, toEmail: string, by: AuditBy): Promise<WorkspaceSummary> {
      const workspace = await requireWorkspace(idOrSlug);
      const target = await requireUser(toEmail);
      if (workspace.owner_user_id === target.id) return presentWorkspace(workspace);
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        const all = JSON.stringify(ALL_PERMISSIONS);
        if (await repo.findMembership(trx, workspace.id, target.id)) {
          await repo.setMembershipPermissions(trx, workspace.id, target.id, all, now);
        } else {
          await repo.insertMembership(trx, workspace.id, {
            user_id: target.id,
            permissions: all,
            created_at: now,
            updated_at: now,
          });
        }
        await repo.setMembershipPermissions(trx, workspace.id, workspace.owner_user_id, all, now);
        await workspacesRepository.setOwner(trx, workspace.id, target.id, now);
        await recordAudit(trx, workspace.id, by, {
          action: 'workspace.transferred',
          target: userTarget(target),
          details: { fromUserId: workspace.owner_user_id },
        });
      });
      return presentWorkspace({ ...workspace, owner_user_id: target.id, updated_at: now });
    },

    async addMember(idOrSlug: string, email: string, permissions: Permission[], by: AuditBy): Promise<MemberSummary> {
      const workspace = await requireWorkspace(idOrSlug);
      const user = await requireUser(email);
      if (await repo.findMembership(db, workspace.id, user.id))
        throw conflict(`${user.email} is already a member of ${workspace.slug}`);
      const now = nowIso();
      try {
        await db.transaction().execute(async (trx) => {
          await repo.insertMembership(trx, workspace.id, {
            user_id: user.id,
            permissions: JSON.stringify(permissions),
            created_at: now,
            updated_at: now,
          });
          await recordAudit(trx, workspace.id, by, {
            action: 'member.added',
            target: userTarget(user),
            details: { permissions },
          });
        });
      } catch (error) {
        // The same person added twice at the same moment: the primary key refuses the second.
        if (dialect.uniqueViolation(error)) throw conflict(`${user.email} is already a member of ${workspace.slug}`);
        throw error;
      }
      return member(workspace, user);
    },

    async setPermissions(
      idOrSlug: string,
      email: string,
      permissions: Permission[],
      by: AuditBy,
    ): Promise<MemberSummary> {
      const workspace = await requireWorkspace(idOrSlug);
      const user = await requireUser(email);
      if (workspace.owner_user_id === user.id) {
        throw badRequest(`${user.email} owns ${workspace.slug} and holds every permission; transfer ownership first`);
      }
      const before = new Set((await member(workspace, user)).permissions);
      const after = new Set(permissions);
      await db.transaction().execute(async (trx) => {
        await repo.setMembershipPermissions(trx, workspace.id, user.id, JSON.stringify(permissions), nowIso());
        await recordAudit(trx, workspace.id, by, {
          action: 'member.permissions_changed',
          target: userTarget(user),
          details: {
            added: permissions.filter((permission) => !before.has(permission)),
            removed: [...before].filter((permission) => !after.has(permission)),
          },
        });
      });
      return member(workspace, user);
    },

    async removeMember(
      idOrSlug: string,
      email: string,
      by: AuditBy,
    ): Promise<{ workspaceId: string; email: string; removed: true }> {
      const workspace = await requireWorkspace(idOrSlug);
      const user = await requireUser(email);
      if (workspace.owner_user_id === user.id)
        throw badRequest(`${user.email} owns ${workspace.slug}; transfer ownership before removing them`);
      await member(workspace, user);
      // Whoever is removed is signed out at once, everywhere: the browser they used here may be shared.
      await db.transaction().execute(async (trx) => {
        await repo.deleteMembership(trx, workspace.id, user.id);
        await repo.endSessions(trx, user.id);
        await recordAudit(trx, workspace.id, by, { action: 'member.removed', target: userTarget(user) });
      });
      return { workspaceId: workspace.id, email: user.email, removed: true };
    },

    async getMember(idOrSlug: string, email: string): Promise<MemberSummary> {
      return member(await requireWorkspace(idOrSlug), await requireUser(email));
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
