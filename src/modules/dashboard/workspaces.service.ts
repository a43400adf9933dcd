import type { DatabaseHandle } from '../../db/database.js';
import { AppError, conflict, notFound } from '../../errors.js';
import { isUuid } from '../../shared/slug.js';
import { ownerOnly, type Actor } from '../../security/actor.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { checkWorkspaceName } from '../accounts/accounts.service.js';
import { ALL_PERMISSIONS, storedPermissions, type Permission } from '../../security/permissions.js';
import { presentWorkspaceSummary, secondFactorMissing } from './dashboard.presenter.js';
import { secondFactorRepository as secondFactors } from './second-factor.repository.js';
import type { WorkspaceSummary } from './dashboard.schemas.js';
import { workspacesRepository } from '../workspaces/workspaces.repository.js';
import { dashboardWorkspacesRepository as repo } from './workspaces.repository.js';

const EVERY_PERMISSION: ReadonlySet<Permission> = new Set(ALL_PERMISSIONS);

export function createDashboardWorkspacesService({ db }: DatabaseHandle, accounts: AccountsService) {
  async function summary(workspaceId: string, userId: string): Promise<WorkspaceSummary> {
    const view = await repo.findMembership(db, workspaceId, userId);
    if (!view) throw notFound('Workspace');
    return presentWorkspaceSummary(view, userId);
  }

  return {
    summary,

    /**
     * The Actor of a dashboard request on `workspaceId`: the signed-in user through their membership,
     * read afresh, with no API key. Not being a member reads as the workspace not existing, so the
     * ids of other people's workspaces reveal nothing.
     */
    async actorFor(userId: string, workspaceId: string | undefined): Promise<Actor> {
      const view =
        workspaceId !== undefined && isUuid(workspaceId)
          ? await repo.findMembership(db, workspaceId.toLowerCase(), userId)
          : undefined;
      if (!view) throw notFound('Workspace');
      if (secondFactorMissing(view))
        throw new AppError('FORBIDDEN', 'This workspace requires a second factor; set one up under Account', {
          reason: 'second_factor_required',
        });
      const isOwner = view.owner_user_id === userId;
      return {
        workspaceId: view.id,
        userId,
        apiKeyId: null,
        isOwner,
        permissions: isOwner ? EVERY_PERMISSION : new Set(storedPermissions(view.permissions)),
        contentVersion: Number(view.content_version),
      };
    },

    async list(userId: string): Promise<WorkspaceSummary[]> {
      const views = await repo.listForUser(db, userId);
      return views.map((view) => presentWorkspaceSummary(view, userId));
    },

    async create(user: { id: string; email: string }, name: string): Promise<WorkspaceSummary> {
      const created = await accounts.createWorkspace(name, user.email);
      return summary(created.id, user.id);
    },

    /** Whether every member must sign in with a second factor; the owner turns it on only with one of their own. */
    async requireSecondFactor(actor: Actor, required: boolean): Promise<WorkspaceSummary> {
      if (!actor.isOwner) throw ownerOnly();
      if (required && (await secondFactors.factorsOf(db, actor.userId)).length === 0)
        throw conflict('Set up a second factor for yourself before requiring one of every member', {
          reason: 'owner_without_second_factor',
        });
      await db.transaction().execute(async (trx) => {
        await workspacesRepository.setRequireSecondFactor(trx, actor.workspaceId, required, new Date().toISOString());
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'workspace.second_factor_required',
          details: { required },
        });
      });
      return summary(actor.workspaceId, actor.userId);
    },

    /** The slug stays: the CLI and scripts name workspaces by it. */
    async rename(actor: Actor, name: string): Promise<WorkspaceSummary> {
      if (!actor.isOwner) throw ownerOnly();
      const renamed = checkWorkspaceName(name);
      await db.transaction().execute(async (trx) => {
        await workspacesRepository.rename(trx, actor.workspaceId, renamed, new Date().toISOString());
        await recordAudit(trx, actor.workspaceId, actor, { action: 'workspace.renamed', details: { name: renamed } });
      });
      return summary(actor.workspaceId, actor.userId);
    },
  };
}

export type DashboardWorkspacesService = ReturnType<typeof createDashboardWorkspacesService>;
