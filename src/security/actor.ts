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
}

export function can(actor: Actor, permission: Permission): boolean {
  return actor.isOwner || actor.permissions.has(permission);
}

/** The refusal of what only the workspace's owner may do. */
export const ownerOnly = () => new AppError('FORBIDDEN', 'Only the owner of this workspace may do this');
