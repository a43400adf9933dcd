import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError, badRequest, invalid, notFound } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import type { MasterKey } from '../../security/master-key.js';
import { nowIso, toIso } from '../../shared/time.js';
import type { Actor } from '../../security/actor.js';
import { recordAudit, type AuditBy } from '../../audit/audit-log.js';
import { writeTransaction } from '../../db/transaction.js';
import { apiKeysRepository as repo, type ApiKeyWithCreator } from './api-keys.repository.js';
import { keyStatus, presentApiKey } from './api-keys.presenter.js';
import type {
  ApiKey,
  ApiKeyCreateBody,
  ApiKeySortKey,
  ApiKeyUpdateBody,
  ApiKeyWithSecret,
} from './api-keys.schemas.js';
import { decryptKey, encryptKey } from './key-cipher.js';
import { generateKey, hashKey, keyPrefix } from '../../security/key-token.js';

export interface IssueKeyInput {
  name: string;
  expiresAt?: string | null | undefined;
}

/**
 * A member who is not the owner may reveal or edit only the keys they created: a key carries its
 * creator's permissions, so revealing the owner's key would hand a member the owner's rights.
 */
function requireOwnKeyUnlessOwner(actor: Actor, row: ApiKeyWithCreator, verb: string): void {
  if (!actor.isOwner && row.created_by_user_id !== actor.userId) {
    throw new AppError('FORBIDDEN', `Only the workspace owner may ${verb} a key created by another member`);
  }
}

const keyTarget = (id: string, name: string) => ({ type: 'api_key', id, label: name });

export function createApiKeysService(database: DatabaseHandle, masterKey: MasterKey) {
  const { db } = database;
  async function requireKey(workspaceId: string, id: string): Promise<ApiKeyWithCreator> {
    const row = await repo.findById(db, workspaceId, id);
    if (!row) throw notFound('API key');
    return row;
  }

  /**
   * Creates a key for `creatorUserId` in `workspaceId`, made by `by` (the creator, or the command line); the
   * plaintext leaves this function once, here.
   */
  async function issueKey(
    workspaceId: string,
    creatorUserId: string,
    input: IssueKeyInput,
    by: AuditBy,
  ): Promise<ApiKeyWithSecret> {
    const now = nowIso();
    const name = input.name.trim();
    const expiresAt = input.expiresAt ? toIso(input.expiresAt) : null;
    if (expiresAt !== null && expiresAt <= now) {
      throw invalid([{ in: 'body', path: '/expiresAt', message: 'expiresAt must be in the future' }]);
    }
    const id = crypto.randomUUID();
    const key = generateKey();
    await writeTransaction(database, async (trx) => {
      await repo.insert(trx, workspaceId, {
        id,
        created_by_user_id: creatorUserId,
        name,
        key_prefix: keyPrefix(key),
        key_hash: hashKey(key),
        key_encrypted: encryptKey(masterKey, key, id, workspaceId),
        master_key_id: masterKey.id,
        expires_at: expiresAt,
        revoked_at: null,
        created_at: now,
        updated_at: now,
      });
      await recordAudit(trx, workspaceId, by, {
        action: 'api_key.created',
        target: keyTarget(id, name),
        details: { expiresAt },
      });
    });
    return { ...presentApiKey(await requireKey(workspaceId, id), now), key };
  }

  return {
    issueKey,

    async list(
      actor: Actor,
      filter: { isActive?: boolean | undefined },
      page: PageRequest<ApiKeySortKey>,
    ): Promise<Paginated<ApiKey>> {
      const now = nowIso();
      const { rows, total } = await repo.list(db, actor.workspaceId, { isActive: filter.isActive, now }, page);
      return pageOf(
        page,
        rows.map((row) => presentApiKey(row, now)),
        total,
      );
    },

    create(actor: Actor, body: ApiKeyCreateBody): Promise<ApiKeyWithSecret> {
      return issueKey(actor.workspaceId, actor.userId, body, actor);
    },

    async update(actor: Actor, id: string, body: ApiKeyUpdateBody): Promise<ApiKey> {
      const row = await requireKey(actor.workspaceId, id);
      requireOwnKeyUnlessOwner(actor, row, 'edit');
      const now = nowIso();
      const patch: { name?: string; expires_at?: string | null; updated_at: string } = { updated_at: now };
      if (body.name !== undefined) patch.name = body.name.trim();
      // A past expiry is allowed here: it expires the key now, as the lifecycle's "edit" move says.
      if (body.expiresAt !== undefined) patch.expires_at = body.expiresAt === null ? null : toIso(body.expiresAt);
      await writeTransaction(database, async (trx) => {
        await repo.update(trx, actor.workspaceId, id, patch);
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'api_key.updated',
          target: keyTarget(id, patch.name ?? row.name),
          details: {
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.expires_at !== undefined && { expiresAt: patch.expires_at }),
          },
        });
      });
      return presentApiKey(await requireKey(actor.workspaceId, id), now);
    },

    async reveal(actor: Actor, id: string): Promise<ApiKeyWithSecret> {
      const row = await requireKey(actor.workspaceId, id);
      requireOwnKeyUnlessOwner(actor, row, 'reveal');
      const now = nowIso();
      const status = keyStatus(row, now);
      if (status !== 'Active')
        throw badRequest(`Only an Active key can be revealed; this key is ${status}`, { status });
      await recordAudit(db, actor.workspaceId, actor, { action: 'api_key.revealed', target: keyTarget(id, row.name) });
      return { ...presentApiKey(row, now), key: decryptKey(masterKey, row.key_encrypted, row.id, row.workspace_id) };
    },

    /** Idempotent: revoking a revoked key changes nothing and answers the key as it is. */
    async revoke(actor: Actor, id: string): Promise<ApiKey> {
      return revokeKey(actor.workspaceId, id, actor);
    },

    revokeKey,

    async listAll(workspaceId: string): Promise<ApiKey[]> {
      const now = nowIso();
      const page = { page: 1, pageSize: 1_000_000, order: 'desc' as const, orderBy: undefined };
      const { rows } = await repo.list(db, workspaceId, { now }, page);
      return rows.map((row) => presentApiKey(row, now));
    },
  };

  async function revokeKey(workspaceId: string, id: string, by: AuditBy): Promise<ApiKey> {
    const row = await requireKey(workspaceId, id);
    const now = nowIso();
    if (row.revoked_at === null)
      await writeTransaction(database, async (trx) => {
        await repo.update(trx, workspaceId, id, { revoked_at: now, updated_at: now });
        await recordAudit(trx, workspaceId, by, { action: 'api_key.revoked', target: keyTarget(id, row.name) });
      });
    return presentApiKey(await requireKey(workspaceId, id), now);
  }
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
