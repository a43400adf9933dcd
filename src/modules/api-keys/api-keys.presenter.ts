import type { ApiKeyWithCreator } from './api-keys.repository.js';
import type { ApiKey, ApiKeyStatus } from './api-keys.schemas.js';

/** Revoked wins over Expired: a revoked key stays revoked whatever its expiry says. */
export function keyStatus(row: Pick<ApiKeyWithCreator, 'revoked_at' | 'expires_at'>, now: string): ApiKeyStatus {
  if (row.revoked_at !== null) return 'Revoked';
  if (row.expires_at !== null && row.expires_at <= now) return 'Expired';
  return 'Active';
}

/** Never the hash or the ciphertext: those stay in the database. */
export function presentApiKey(row: ApiKeyWithCreator, now: string): ApiKey {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    keyPrefix: row.key_prefix,
    status: keyStatus(row, now),
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: { userId: row.created_by_user_id, email: row.creator_email },
  };
}
