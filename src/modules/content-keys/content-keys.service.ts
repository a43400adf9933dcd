import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import type { ContentKeyRow } from '../../db/schema.js';
import { invalid, notFound } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import { recordAudit } from '../../audit/audit-log.js';
import { writeTransaction } from '../../db/transaction.js';
import { CONTENT_KEY_BRAND, generateKey, hashKey, keyPrefix } from '../../security/key-token.js';
import type { MasterKey } from '../../security/master-key.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { nowIso, toIso } from '../../shared/time.js';
import { decryptSecret, encryptSecret } from '../api-keys/key-cipher.js';
import { contentKeysRepository as repo } from './content-keys.repository.js';
import type {
  ContentKey,
  ContentKeyCreateBody,
  ContentKeySortKey,
  ContentKeyUpdateBody,
} from './content-keys.schemas.js';
import { parseOrigins } from './origins.js';

/** The associated data that binds a stored content key to its row (api-keys/key-cipher.ts). */
const binding = (row: Pick<ContentKeyRow, 'id' | 'workspace_id'>) => `quire-content-key:${row.id}:${row.workspace_id}`;

function originsOf(body: { allowedOrigins?: string[] | undefined }): string[] | undefined {
  if (body.allowedOrigins === undefined) return undefined;
  const { origins, issues } = parseOrigins(body.allowedOrigins);
  if (issues.length > 0) throw invalid(issues);
  return origins;
}

/**
 * Read-only keys for sites and browsers (docs/content-api.md). They belong to the workspace, not to a member:
 * managed by whoever holds `api-keys:write`, and they keep working when their creator leaves.
 */
export function createContentKeysService(database: DatabaseHandle, masterKey: MasterKey) {
  const { db } = database;
  function present(row: ContentKeyRow): ContentKey {
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      name: row.name,
      key: decryptSecret(masterKey, row.key_encrypted, binding(row)),
      keyPrefix: row.key_prefix,
      allowedOrigins: JSON.parse(row.allowed_origins) as string[],
      status: row.revoked_at === null ? 'Active' : 'Revoked',
      revokedAt: row.revoked_at === null ? null : toIso(row.revoked_at),
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
      createdByUserId: row.created_by_user_id,
    };
  }

  async function requireKey(workspaceId: string, id: string): Promise<ContentKeyRow> {
    const row = await repo.findById(db, workspaceId, id);
    if (!row) throw notFound('Content key');
    return row;
  }

  return {
    async list(
      actor: Actor,
      filter: { isActive?: boolean | undefined },
      page: PageRequest<ContentKeySortKey>,
    ): Promise<Paginated<ContentKey>> {
      const { rows, total } = await repo.list(db, actor.workspaceId, filter, page);
      return pageOf(page, rows.map(present), total);
    },

    async get(actor: Actor, id: string): Promise<ContentKey> {
      return present(await requireKey(actor.workspaceId, id));
    },

    async create(actor: Actor, body: ContentKeyCreateBody): Promise<ContentKey> {
      const origins = originsOf(body) ?? [];
      const now = nowIso();
      const id = crypto.randomUUID();
      const key = generateKey(CONTENT_KEY_BRAND);
      const name = body.name.trim();
      await writeTransaction(database, async (trx) => {
        await repo.insert(trx, actor.workspaceId, {
          id,
          name,
          key_prefix: keyPrefix(key),
          key_hash: hashKey(key),
          key_encrypted: encryptSecret(masterKey, key, binding({ id, workspace_id: actor.workspaceId })),
          master_key_id: masterKey.id,
          allowed_origins: JSON.stringify(origins),
          created_by_user_id: actor.userId,
          revoked_at: null,
          created_at: now,
          updated_at: now,
        });
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'content_key.created',
          target: { type: 'content_key', id, label: name },
          details: { allowedOrigins: origins },
        });
      });
      return present(await requireKey(actor.workspaceId, id));
    },

    async update(actor: Actor, id: string, body: ContentKeyUpdateBody): Promise<ContentKey> {
      const row = await requireKey(actor.workspaceId, id);
      const origins = originsOf(body);
      const name = body.name?.trim();
      await writeTransaction(database, async (trx) => {
        await repo.update(trx, actor.workspaceId, id, {
          ...(name === undefined ? {} : { name }),
          ...(origins === undefined ? {} : { allowed_origins: JSON.stringify(origins) }),
          updated_at: nowIso(),
        });
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'content_key.updated',
          target: { type: 'content_key', id, label: name ?? row.name },
          details: { ...(name !== undefined && { name }), ...(origins !== undefined && { allowedOrigins: origins }) },
        });
      });
      return present(await requireKey(actor.workspaceId, id));
    },

    /** Idempotent: a revoked key stays revoked, answered as it is. Its very next request is refused. */
    async revoke(actor: Actor, id: string): Promise<ContentKey> {
      const row = await requireKey(actor.workspaceId, id);
      if (row.revoked_at === null) {
        const now = nowIso();
        await writeTransaction(database, async (trx) => {
          await repo.update(trx, actor.workspaceId, id, { revoked_at: now, updated_at: now });
          await recordAudit(trx, actor.workspaceId, actor, {
            action: 'content_key.revoked',
            target: { type: 'content_key', id, label: row.name },
          });
        });
      }
      return present(await requireKey(actor.workspaceId, id));
    },
  };
}

export type ContentKeysService = ReturnType<typeof createContentKeysService>;
