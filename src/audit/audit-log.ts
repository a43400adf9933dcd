import { timeOrderedId } from '../shared/time-ordered-id.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Executor = Kysely<Database>;

/**
 * What the audit log records (docs/team.md, "Audit log"). The part before the dot is the entry's category, the
 * dashboard's filter.
 */
export const AUDIT_ACTIONS = [
  'session.signed_in',
  'session.sign_in_failed',
  'session.second_factor_failed',
  'second_factor.enabled',
  'second_factor.disabled',
  'second_factor.recovery_codes_renewed',
  'passkey.added',
  'passkey.removed',
  'password.changed',
  'password.reset',
  'invitation.created',
  'invitation.resent',
  'invitation.withdrawn',
  'invitation.accepted',
  'member.added',
  'member.permissions_changed',
  'member.removed',
  'member.sessions_ended',
  'workspace.renamed',
  'workspace.transferred',
  'workspace.settings_changed',
  'workspace.second_factor_required',
  'api_key.created',
  'api_key.revealed',
  'api_key.updated',
  'api_key.revoked',
  'content_key.created',
  'content_key.updated',
  'content_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_revealed',
  'webhook.secret_rotated',
  'import.finished',
  'export.made',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_CATEGORIES = [...new Set(AUDIT_ACTIONS.map(categoryOf))];

export function categoryOf(action: string): string {
  return action.slice(0, action.indexOf('.'));
}

/**
 * Who acted: a signed-in person (no key), a key and its creator, or the command line (neither). `address` is the
 * request's client address; the command line has none.
 */
export interface AuditBy {
  userId: string | null;
  apiKeyId: string | null;
  address?: string | null;
}

export const COMMAND_LINE: AuditBy = { userId: null, apiKeyId: null, address: null };

/**
 * Plain values only. What goes in is named, never a token, password, key or secret: the tests search the whole log
 * for every secret they made.
 */
export type AuditDetails = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

export interface AuditEntry {
  action: AuditAction;
  target?: { type: string; id: string; label?: string | null };
  details?: AuditDetails;
}

/** One row of the log. Given the write's transaction, the record stands or falls with what it records. */
export async function recordAudit(db: Executor, workspaceId: string, by: AuditBy, entry: AuditEntry): Promise<void> {
  await insertEntries(db, [workspaceId], by, entry);
}

/**
 * An entry about a person rather than one workspace (a sign-in, a password reset): recorded in every workspace
 * they belong to, as each workspace's owner wants to see it.
 */
export async function recordAuditForUser(db: Executor, userId: string, by: AuditBy, entry: AuditEntry): Promise<void> {
  const memberships = await db.selectFrom('memberships').select('workspace_id').where('user_id', '=', userId).execute();
  await insertEntries(
    db,
    memberships.map((membership) => membership.workspace_id),
    by,
    entry,
  );
}

async function insertEntries(db: Executor, workspaceIds: string[], by: AuditBy, entry: AuditEntry): Promise<void> {
  if (workspaceIds.length === 0) return;
  const now = Date.now();
  const at = new Date(now).toISOString();
  const details = JSON.stringify(entry.details ?? {});
  await db
    .insertInto('audit_events')
    .values(
      workspaceIds.map((workspaceId) => ({
        id: timeOrderedId(now),
        workspace_id: workspaceId,
        at,
        action: entry.action,
        category: categoryOf(entry.action),
        actor_user_id: by.userId,
        actor_key_id: by.apiKeyId,
        actor_email:
          by.userId === null ? null : db.selectFrom('users').select('email').where('id', '=', by.userId).limit(1),
        address: by.address ?? null,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        target_label: entry.target?.label ?? null,
        details,
      })),
    )
    .execute();
}
