import { ALL_PERMISSIONS, storedPermissions } from '../../security/permissions.js';
import type { Member, WorkspaceSummary } from './dashboard.schemas.js';
import type { MemberRow, MembershipView } from './workspaces.repository.js';

/** A workspace as `userId` sees it: the owner holds every permission, whatever the membership row says. */
export function presentWorkspaceSummary(view: MembershipView, userId: string): WorkspaceSummary {
  const isOwner = view.owner_user_id === userId;
  return {
    id: view.id,
    name: view.name,
    slug: view.slug,
    ownerUserId: view.owner_user_id,
    isOwner,
    permissions: isOwner ? [...ALL_PERMISSIONS] : storedPermissions(view.permissions),
    createdAt: view.created_at,
    requireSecondFactor: Boolean(view.require_second_factor),
    secondFactorMissing: secondFactorMissing(view),
  };
}

/** The workspace requires a second factor and this member has none. */
export const secondFactorMissing = (view: MembershipView): boolean =>
  Boolean(view.require_second_factor) && view.second_factor_at === null;

export function presentMember(row: MemberRow): Member {
  const isOwner = row.owner_user_id === row.user_id;
  return {
    userId: row.user_id,
    email: row.email,
    isOwner,
    permissions: isOwner ? [...ALL_PERMISSIONS] : storedPermissions(row.permissions),
    createdAt: row.created_at,
  };
}
