import type { Writer } from './writer.js';
import { AppError } from '../errors.js';
import type { Permission } from './permissions.js';

/**
 * Who is acting, resolved afresh for every request from the key, its creator's membership and the
 * workspace. Services take it first: its workspaceId is the only workspace they may touch.
 */
export interface Actor extends Writer {
  workspaceId: string;
  userId: string;
  apiKeyId: string | null;
  isOwner: boolean;
  permissions: ReadonlySet<Permission>;
  /** The workspace's content version as read by the authentication query. */
  contentVersion: number;
  /** The request's client address, for the audit log; none from the command line. */
  address?: string | null;
}

export function can(actor: Actor, permission: Permission): boolean {
  return actor.isOwner || actor.permissions.has(permission);
}

/**
 * Whether a route needing `permission` lets the actor in. A route that takes drafts (`draft`) also lets in the
 * holder of the resource's `:draft` permission; its service then holds them to drafts (checkDraftWrite).
 */
export function mayUse(actor: Actor, permission: Permission, draft = false): boolean {
  if (can(actor, permission)) return true;
  return draft && permission.endsWith(':write') && can(actor, permission.replace(/:write$/, ':draft') as Permission);
}

/**
 * A writer without `<resource>:write` writes drafts only: a new one as a draft, an existing one while it is a
 * draft, and never a status move. `current` is the stored status (null for a creation), `next` the body's.
 */
export function checkDraftWrite(
  actor: Actor,
  resource: 'posts' | 'pages',
  current: string | null,
  next: string | undefined,
): void {
  // Only a writer let in by the draft permission is held to drafts. Whoever holds neither was let in by no route:
  // the server's own rehearsals of an Update (a review link's or a preview's outlook of pending changes).
  if (can(actor, `${resource}:write`) || !can(actor, `${resource}:draft`)) return;
  if ((current ?? 'draft') === 'draft' && (next ?? 'draft') === 'draft') return;
  throw new AppError(
    'FORBIDDEN',
    current !== null && current !== 'draft'
      ? `Editing a ${current} ${resource === 'posts' ? 'post' : 'page'} needs ${resource}:write; ${resource}:draft writes drafts only`
      : `Publishing needs ${resource}:write; ${resource}:draft writes drafts only`,
    { permission: `${resource}:write` },
  );
}

/** Services check their permission too, so a caller other than a route (the CLI, an import) is held alike. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (!can(actor, permission))
    throw new AppError('FORBIDDEN', `You lack the ${permission} permission in this workspace`, { permission });
}

/**
 * Whoever manages members without owning the workspace grants only permissions they hold themselves: an admin
 * can make another admin, never a member stronger than they are.
 */
export function checkGrantable(actor: Actor, permissions: readonly Permission[]): void {
  if (actor.isOwner) return;
  const beyond = permissions.filter((permission) => !actor.permissions.has(permission));
  if (beyond.length > 0)
    throw new AppError('FORBIDDEN', `You cannot grant permissions you do not hold: ${beyond.join(', ')}`, {
      permissions: beyond,
    });
}

/** The refusal of what only the workspace's owner may do. */
export const ownerOnly = () => new AppError('FORBIDDEN', 'Only the owner of this workspace may do this');
