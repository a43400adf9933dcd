import crypto from 'node:crypto';
import { recordAudit } from '../../audit/audit-log.js';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import { hashToken, isWellFormedToken, newSecret } from '../../http/session-auth.js';
import type { MailLog, Mailer } from '../../mail/mailer.js';
import { checkGrantable, requirePermission, type Actor } from '../../security/actor.js';
import type { Passwords } from '../../security/password.js';
import { normalizePermissions, storedPermissions } from '../../security/permissions.js';
import { accountsRepository as accounts } from '../accounts/accounts.repository.js';
import { checkPasswordLength } from '../accounts/accounts.service.js';
import { emailField } from '../dashboard/input.js';
import { byUser, type ClientInfo, type SessionsService, type StartedSession } from '../dashboard/sessions.service.js';
import { createSignInThrottle } from '../dashboard/sign-in-throttle.js';
import { workspacesRepository } from '../workspaces/workspaces.repository.js';
import { invitationsRepository as repo, type InvitationRow, type InvitationView } from './invitations.repository.js';
import type { Invitation, InvitationPreview, InvitationSent, InviteBody } from './team.schemas.js';
import { invitationMail } from './team-mail.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Pending invitations a workspace may hold: each is a mail sent in its name. */
export const INVITATIONS_MAX = 100;
/** A resend sooner than this after the last mail is refused: a mailbox is not to be flooded from the dashboard. */
export const RESEND_INTERVAL_MS = 60_000;

/** Every link that cannot be used gets this one answer: unknown, used, revoked and expired look alike. */
export const invitationGone = () =>
  new AppError(
    'NOT_FOUND',
    'This invitation link cannot be used: it has expired, been used or been withdrawn. Ask for a new one.',
  );

const invitedAlready = (email: string) =>
  conflict(`${email} has been invited already; resend or withdraw that invitation`, { reason: 'invited' });

function present(row: InvitationView, now = Date.now()): Invitation {
  return {
    id: row.id,
    email: row.email,
    permissions: storedPermissions(row.permissions),
    invitedByEmail: row.invited_by_email,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    expiresAt: row.expires_at,
    expired: Date.parse(row.expires_at) <= now,
  };
}

export interface InvitationsDeps {
  mailer: Mailer;
  publicUrl: string;
  passwords: Passwords;
  sessions: SessionsService;
}

/**
 * Invitations to a workspace (docs/team.md): made and managed by whoever holds `members:write` (the owner
 * does), accepted by whoever holds the link. The link carries the only copy of its token; the table keeps its
 * sha256.
 */
/** How the audit log names an invitation: by its email, never by its link. */
const invitationTarget = (row: { id: string; email: string }) => ({ type: 'invitation', id: row.id, label: row.email });

export function createInvitationsService({ db }: DatabaseHandle, deps: InvitationsDeps) {
  const { mailer, passwords, sessions } = deps;
  const throttle = createSignInThrottle(db);
  const linkOf = (token: string) => `${deps.publicUrl}/dashboard/invitation#${token}`;

  async function requireInvitation(actor: Actor, id: string): Promise<InvitationView> {
    const row = await repo.find(db, actor.workspaceId, id);
    if (!row) throw notFound('Invitation');
    return row;
  }

  /** Mails the link, or says why not and hands it to the inviter instead. */
  async function send(actor: Actor, row: InvitationView, token: string, log: MailLog): Promise<InvitationSent> {
    const workspace = await workspacesRepository.findByIdOrSlug(db, actor.workspaceId);
    const url = linkOf(token);
    const mail = await mailer.send(
      invitationMail({
        to: row.email,
        workspaceName: workspace?.name ?? '',
        invitedBy: row.invited_by_email,
        url,
        expiresAt: row.expires_at,
      }),
      log,
    );
    return { invitation: present(row), mail, ...(mail.sent ? {} : { link: url }) };
  }

  /** A live (unexpired) invitation of a token; the same refusal for every other string. */
  async function byToken(token: string) {
    if (!isWellFormedToken(token)) throw invitationGone();
    const row = await repo.findByTokenHash(db, hashToken(token));
    if (!row || Date.parse(row.expires_at) <= Date.now()) throw invitationGone();
    return row;
  }

  return {
    async list(actor: Actor): Promise<Invitation[]> {
      requirePermission(actor, 'members:write');
      const now = Date.now();
      return (await repo.list(db, actor.workspaceId)).map((row) => present(row, now));
    },

    async invite(actor: Actor, body: InviteBody, log: MailLog): Promise<InvitationSent> {
      requirePermission(actor, 'members:write');
      const email = emailField(body.email);
      const permissions = normalizePermissions(body.permissions);
      checkGrantable(actor, permissions);
      const user = await accounts.findUserByEmail(db, email);
      if (user && (await accounts.findMembership(db, actor.workspaceId, user.id)))
        throw conflict(`${email} is already a member of this workspace`, { reason: 'member' });
      if (await repo.findByEmail(db, actor.workspaceId, email)) throw invitedAlready(email);
      if ((await repo.count(db, actor.workspaceId)) >= INVITATIONS_MAX)
        throw conflict(`A workspace holds at most ${INVITATIONS_MAX} pending invitations; withdraw some first`, {
          reason: 'invitations_max',
        });
      const token = newSecret();
      const now = new Date();
      const row: InvitationRow = {
        id: crypto.randomUUID(),
        workspace_id: actor.workspaceId,
        email,
        permissions: JSON.stringify(permissions),
        token_hash: hashToken(token),
        invited_by_user_id: actor.userId,
        created_at: now.toISOString(),
        sent_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
      };
      try {
        await db.transaction().execute(async (trx) => {
          await repo.insert(trx, row);
          await recordAudit(trx, actor.workspaceId, actor, {
            action: 'invitation.created',
            target: invitationTarget(row),
            details: { permissions },
          });
        });
      } catch (error) {
        // The same email invited twice at the same moment: the unique index refuses the second.
        if (await repo.findByEmail(db, actor.workspaceId, email)) throw invitedAlready(email);
        throw error;
      }
      const inviter = await accounts.findUserById(db, actor.userId);
      return send(actor, { ...row, invited_by_email: inviter?.email ?? null }, token, log);
    },

    /** A new link (the old one stops working), seven more days, and the mail again. */
    async resend(actor: Actor, id: string, log: MailLog): Promise<InvitationSent> {
      requirePermission(actor, 'members:write');
      const row = await requireInvitation(actor, id);
      const waited = Date.now() - Date.parse(row.sent_at);
      if (waited < RESEND_INTERVAL_MS) {
        const retryAfterSeconds = Math.ceil((RESEND_INTERVAL_MS - waited) / 1000);
        throw new AppError(
          'RATE_LIMITED',
          'This invitation was sent less than a minute ago; wait before sending it again',
          {
            retryAfterSeconds,
          },
        );
      }
      const token = newSecret();
      const now = new Date();
      const renewal = {
        token_hash: hashToken(token),
        sent_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
      };
      await db.transaction().execute(async (trx) => {
        await repo.renew(trx, actor.workspaceId, id, renewal);
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'invitation.resent',
          target: invitationTarget(row),
        });
      });
      return send(actor, { ...row, ...renewal }, token, log);
    },

    async revoke(actor: Actor, id: string): Promise<{ revoked: true }> {
      requirePermission(actor, 'members:write');
      const row = await requireInvitation(actor, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.delete(trx, actor.workspaceId, id))) throw notFound('Invitation');
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'invitation.withdrawn',
          target: invitationTarget(row),
        });
      });
      return { revoked: true };
    },

    async preview(token: string): Promise<InvitationPreview> {
      const row = await byToken(token);
      const [user, inviter] = await Promise.all([
        accounts.findUserByEmail(db, row.email),
        row.invited_by_user_id ? accounts.findUserById(db, row.invited_by_user_id) : undefined,
      ]);
      return {
        workspaceId: row.workspace_id,
        workspaceName: row.workspace_name,
        email: row.email,
        invitedByEmail: inviter?.email ?? null,
        accountExists: user !== undefined,
        expiresAt: row.expires_at,
      };
    },

    /**
     * Joins the workspace and signs in. With an account of the invited email, `password` is its password (a wrong
     * one counts against the sign-in throttle); without, it is the new account's. The invitation goes in the
     * same transaction as the membership, so a link works once.
     */
    async accept(token: string, password: string, client: ClientInfo): Promise<StartedSession> {
      const row = await byToken(token);
      const existing = await accounts.findUserByEmail(db, row.email);
      if (existing) {
        const attempt = await throttle.begin(existing.email, client.ip);
        if (!existing.password_hash || !(await passwords.verify(password, existing.password_hash)))
          throw invalid([{ in: 'body', path: '/password', message: `This is not the password of ${existing.email}` }]);
        await throttle.succeeded(attempt);
      } else {
        try {
          checkPasswordLength(password);
        } catch (error) {
          if (error instanceof AppError) throw invalid([{ in: 'body', path: '/password', message: error.message }]);
          throw error;
        }
      }
      const passwordHash = existing ? null : await passwords.hash(password);
      return db.transaction().execute(async (trx) => {
        if (!(await repo.delete(trx, row.workspace_id, row.id))) throw invitationGone();
        const now = new Date().toISOString();
        let user = existing ?? (await accounts.findUserByEmail(trx, row.email));
        if (!user) {
          user = {
            id: crypto.randomUUID(),
            email: row.email,
            password_hash: passwordHash,
            created_at: now,
            updated_at: now,
          };
          await accounts.insertUser(trx, user);
        }
        // Added meanwhile by other means (the CLI): the invitation is spent all the same.
        if (!(await accounts.findMembership(trx, row.workspace_id, user.id)))
          await accounts.insertMembership(trx, row.workspace_id, {
            user_id: user.id,
            permissions: row.permissions,
            created_at: now,
            updated_at: now,
          });
        await recordAudit(trx, row.workspace_id, byUser(user, client), {
          action: 'invitation.accepted',
          target: invitationTarget(row),
          details: { accountCreated: existing === undefined, permissions: storedPermissions(row.permissions) },
        });
        return sessions.start(trx, user, client);
      });
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
