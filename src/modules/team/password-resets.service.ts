import { recordAuditForUser } from '../../audit/audit-log.js';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError, conflict } from '../../errors.js';
import { hashToken, isWellFormedToken, newSecret } from '../../http/session-auth.js';
import type { MailLog, Mailer } from '../../mail/mailer.js';
import type { Passwords } from '../../security/password.js';
import { accountsRepository as accounts } from '../accounts/accounts.repository.js';
import { byUser, type ClientInfo, type SessionsService, type StartedSession } from '../dashboard/sessions.service.js';
import { userTarget } from '../accounts/accounts.service.js';
import { createSignInThrottle } from '../dashboard/sign-in-throttle.js';
import { passwordResetsRepository as repo } from './password-resets.repository.js';
import { passwordResetMail } from './team-mail.js';

/** A reset link is short-lived: it opens an account to whoever reads the mailbox. */
export const RESET_TTL_MS = 60 * 60 * 1000;

export const resetGone = () =>
  new AppError('NOT_FOUND', 'This reset link cannot be used: it has expired or been used. Ask for a new one.');

export const mailOff = () =>
  conflict('This server sends no mail, so a password cannot be reset by email; ask whoever runs it', {
    reason: 'mail_off',
  });

export type ResetLog = MailLog & { error(details: object, message: string): void };

export interface PasswordResetsDeps {
  mailer: Mailer;
  publicUrl: string;
  passwords: Passwords;
  sessions: SessionsService;
}

/**
 * Password reset by email (docs/team.md). A request answers the same whether or not the account exists, and
 * before any mail is sent, so neither its answer nor its time tells; every request counts against a throttle of
 * its own, since each may send a mail.
 */
export function createPasswordResetsService({ db }: DatabaseHandle, deps: PasswordResetsDeps) {
  const { mailer, passwords, sessions } = deps;
  const throttle = createSignInThrottle(db, 'password-reset');

  async function mailLink(user: { id: string; email: string }, log: ResetLog): Promise<void> {
    const token = newSecret();
    const now = Date.now();
    const expiresAt = new Date(now + RESET_TTL_MS).toISOString();
    await repo.deleteExpired(db, new Date(now).toISOString());
    await repo.insert(db, {
      token_hash: hashToken(token),
      user_id: user.id,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt,
    });
    const url = `${deps.publicUrl}/dashboard/reset-password#${token}`;
    await mailer.send(passwordResetMail({ to: user.email, url, expiresAt }), log);
  }

  return {
    /** `log` hears what goes wrong after the answer has gone: the mail is sent behind it. */
    async request(email: string, client: ClientInfo, log: ResetLog): Promise<void> {
      if (!mailer.configured) throw mailOff();
      const normalized = email.trim().toLowerCase();
      await throttle.begin(normalized, client.ip);
      const user = await accounts.findUserByEmail(db, normalized);
      if (user)
        void mailLink(user, log).catch((error: unknown) =>
          log.error({ err: error }, 'a password reset link was not made'),
        );
    },

    /** The new password; every session of the account ends, every other reset link too, and a new session begins. */
    async reset(token: string, newPassword: string, client: ClientInfo): Promise<StartedSession> {
      if (!isWellFormedToken(token)) throw resetGone();
      const row = await repo.findByTokenHash(db, hashToken(token));
      if (!row || Date.parse(row.expires_at) <= Date.now()) throw resetGone();
      const passwordHash = await passwords.hash(newPassword);
      return db.transaction().execute(async (trx) => {
        const user = (await repo.take(trx, row.token_hash)) && (await accounts.findUserById(trx, row.user_id));
        if (!user) throw resetGone();
        await accounts.setUserPassword(trx, user.id, passwordHash, new Date().toISOString());
        await accounts.endSignIns(trx, user.id);
        await recordAuditForUser(trx, user.id, byUser(user, client), {
          action: 'password.reset',
          target: userTarget(user),
        });
        return sessions.start(trx, user, client);
      });
    },
  };
}

export type PasswordResetsService = ReturnType<typeof createPasswordResetsService>;
