import type { Db } from '../db/database.js';
import { forbidden, unauthorized } from '../errors.js';
import { mayUse, type Actor } from '../security/actor.js';
import { ALL_PERMISSIONS, storedPermissions, type Permission } from '../security/permissions.js';
import { apiKeysRepository } from '../modules/api-keys/api-keys.repository.js';
import { hashKey, isWellFormedKey } from '../security/key-token.js';
import { nowIso } from '../shared/time.js';

const EVERY_PERMISSION: ReadonlySet<Permission> = new Set(ALL_PERMISSIONS);

/**
 * Resolves the X-API-Key header to an Actor with one query, afresh on every request: nothing about
 * keys, membership or permissions outlives the request, so a revocation or a permission edit made
 * through any instance applies to the very next request. Every failure is the same 401.
 */
export async function authenticate(
  db: Db,
  header: string | string[] | undefined,
  address: string | null = null,
): Promise<Actor> {
  // The checksum check refuses a malformed key before any database work.
  if (typeof header !== 'string' || !isWellFormedKey(header)) throw unauthorized();
  const row = await apiKeysRepository.findForAuthentication(db, hashKey(header));
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= nowIso())) throw unauthorized();
  const isOwner = row.owner_user_id === row.created_by_user_id;
  return {
    workspaceId: row.workspace_id,
    userId: row.created_by_user_id,
    apiKeyId: row.id,
    isOwner,
    permissions: isOwner ? EVERY_PERMISSION : new Set(storedPermissions(row.permissions)),
    contentVersion: Number(row.content_version),
    address,
  };
}

export function authorize(actor: Actor, permission: Permission | undefined, draft = false): void {
  if (permission !== undefined && !mayUse(actor, permission, draft)) {
    throw forbidden(`This key's creator lacks the ${permission} permission`);
  }
}
