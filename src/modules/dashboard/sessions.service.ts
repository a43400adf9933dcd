import crypto from 'node:crypto';
import { recordAuditForUser, type AuditBy, type AuditDetails } from '../../audit/audit-log.js';
import { userTarget } from '../accounts/accounts.service.js';
import type { DatabaseHandle, Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { AppError, invalid, notFound } from '../../errors.js';
import {
  hashToken,
  isWellFormedToken,
  newSecret,
  SESSION_TTL_MS,
  type DashboardSession,
} from '../../http/session-auth.js';
import type { Passwords } from '../../security/password.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { presentWorkspaceSummary } from './dashboard.presenter.js';
import type { Session, SessionInfo } from './dashboard.schemas.js';
import { secondFactorRepository as secondFactors } from './second-factor.repository.js';
import { sessionListQuery, sessionsRepository as repo } from './sessions.repository.js';
import { createSignInThrottle } from './sign-in-throttle.js';
import { dashboardWorkspacesRepository } from './workspaces.repository.js';

/** Sliding expiry is written at most this often, so a busy dashboard does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const USER_AGENT_MAX_LENGTH = 500;

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/** How long a right password waits for its second factor. */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** How recent a sign-in stands in for the password of an account without one (made by single sign-on). */
const RECENT_SIGN_IN_MS = 10 * 60_000;

/** The second factors an account has, in the order the sign-in's second step offers them. */
export type SecondFactorKind = 'totp' | 'passkey';

/**
 * What a right password gets: a session, or, for an account with a second factor, a challenge to answer with a
 * code (second-factor.service.ts) or a passkey (passkeys.service.ts), whichever of `factors` the account has.
 */
export type SignInOutcome = { started: StartedSession } | { challenge: string; factors: SecondFactorKind[] };

/** A session just begun: the token goes into the cookie and is never seen again. */
export interface StartedSession {
  token: string;
  session: DashboardSession;
}

/** The same 401 for an unknown email and a wrong password, so neither can be told from the other. */
export const wrongCredentials = () => new AppError('UNAUTHORIZED', 'The email or password is not right');

/** Where what goes wrong behind an answer is told. */
export interface ErrorLog {
  error(details: object, message: string): void;
}

/** A person acting for themselves from a browser, as the audit log records them. */
export const byUser = (user: { id: string }, client: ClientInfo): AuditBy => ({
  userId: user.id,
  apiKeyId: null,
  address: client.ip,
});

/** Someone not signed in (a failed sign-in): only their address is known. */
const anonymous = (client: ClientInfo): AuditBy => ({ userId: null, apiKeyId: null, address: client.ip });

export function createSessionsService({ db }: DatabaseHandle, passwords: Passwords) {
  const throttle = createSignInThrottle(db);

  async function start(executor: Db, user: { id: string; email: string }, client: ClientInfo): Promise<StartedSession> {
    const token = newSecret();
    const now = Date.now();
    const row = {
      id: crypto.randomUUID(),
      token_hash: hashToken(token),
      user_id: user.id,
      csrf_token: newSecret(),
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      expires_at: new Date(now + SESSION_TTL_MS).toISOString(),
      user_agent: client.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
      ip: client.ip,
    };
    await repo.insert(executor, row);
    return { token, session: { id: row.id, userId: user.id, email: user.email, csrfToken: row.csrf_token } };
  }

  /** A sign-in's session begun, and recorded in the person's workspaces (with how: a second factor, sign-on). */
  function signedIn(
    user: { id: string; email: string },
    client: ClientInfo,
    details?: AuditDetails,
  ): Promise<StartedSession> {
    return db.transaction().execute(async (trx) => {
      const started = await start(trx, user, client);
      await recordAuditForUser(trx, user.id, byUser(user, client), {
        action: 'session.signed_in',
        target: userTarget(user),
        ...(details && { details }),
      });
      return started;
    });
  }

  /**
   * The signed-in person's own password, before a change a stolen session must not make alone: wrong ones count
   * against the same throttle as sign-ins, and are a 400 at the body's `field`.
   */
  async function confirmPassword(
    current: DashboardSession,
    password: string,
    client: ClientInfo,
    field: { path: string; message: string },
  ): Promise<UserRow> {
    const attempt = await throttle.begin(current.email, client.ip);
    const user = await accountsRepository.findUserById(db, current.userId);
    if (!(await passwordMatches(user, password)) || !user) throw invalid([{ in: 'body', ...field }]);
    await throttle.succeeded(attempt);
    return user;
  }

  /**
   * The person's password, checked against the sign-in throttle, before a change of their second factors: a stolen
   * session is not enough. An account made by single sign-on has none; for it, a sign-in within the last ten minutes
   * stands in (its provider asked then).
   */
  async function requirePassword(current: DashboardSession, password: string, client: ClientInfo): Promise<UserRow> {
    const user = await accountsRepository.findUserById(db, current.userId);
    if (user && user.password_hash === null) {
      const began = (await repo.findById(db, current.id))?.created_at;
      if (began === undefined || Date.now() - Date.parse(began) > RECENT_SIGN_IN_MS)
        throw new AppError(
          'FORBIDDEN',
          'Your account has no password: sign in again, then make this change within ten minutes',
          { reason: 'recent_sign_in_required' },
        );
      return user;
    }
    return confirmPassword(current, password, client, { path: '/password', message: 'This is not your password' });
  }

  /** Checks a password against the user's hash, or spends the same time when there is none to check. */
  async function passwordMatches(
    user: { password_hash: string | null } | undefined,
    password: string,
  ): Promise<boolean> {
    return user?.password_hash ? passwords.verify(password, user.password_hash) : passwords.verifyNothing(password);
  }

  return {
    start,
    signedIn,
    confirmPassword,
    requirePassword,
    throttle,

    /**
     * The session of a cookie's token, read afresh (nothing is cached between requests); null when
     * unknown or expired. `refreshed` says the expiry slid, so the cookie should be sent again.
     */
    async authenticate(token: string | undefined): Promise<{ session: DashboardSession; refreshed: boolean } | null> {
      if (!isWellFormedToken(token)) return null;
      const row = await repo.findByTokenHash(db, hashToken(token));
      if (!row) return null;
      const now = Date.now();
      if (Date.parse(row.expires_at) <= now) {
        await repo.delete(db, row.id);
        return null;
      }
      const refreshed = now - Date.parse(row.last_seen_at) >= TOUCH_INTERVAL_MS;
      if (refreshed)
        await repo.touch(db, row.id, new Date(now).toISOString(), new Date(now + SESSION_TTL_MS).toISOString());
      return { session: { id: row.id, userId: row.user_id, email: row.email, csrfToken: row.csrf_token }, refreshed };
    },

    async signIn(email: string, password: string, client: ClientInfo, log?: ErrorLog): Promise<SignInOutcome> {
      passwords.warmUp();
      const normalized = email.trim().toLowerCase();
      const attempt = await throttle.begin(normalized, client.ip);
      const user = await accountsRepository.findUserByEmail(db, normalized);
      if (!(await passwordMatches(user, password)) || !user) {
        // Recorded for a known account only: the log belongs to its workspaces, and an unknown email has none. Not
        // awaited, so the refusal takes as long for a known email as for an unknown one.
        if (user)
          void recordAuditForUser(db, user.id, anonymous(client), {
            action: 'session.sign_in_failed',
            target: userTarget(user),
          }).catch((error: unknown) =>
            log?.error({ err: error }, 'a failed sign-in was not recorded in the audit log'),
          );
        throw wrongCredentials();
      }
      await throttle.succeeded(attempt);
      const now = new Date().toISOString();
      // The one moment the password is known: a hash from before QUIRE_PASSWORD_COST was raised is made anew.
      if (user.password_hash && passwords.needsRehash(user.password_hash))
        await accountsRepository.setUserPassword(db, user.id, await passwords.hash(password), now);
      await repo.deleteExpired(db, now);
      const factors = await secondFactors.factorsOf(db, user.id);
      if (factors.length > 0) {
        const challenge = newSecret();
        await secondFactors.deleteExpiredChallenges(db, now);
        await secondFactors.insertChallenge(db, {
          token_hash: hashToken(challenge),
          user_id: user.id,
          created_at: now,
          expires_at: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString(),
        });
        return { challenge, factors };
      }
      return { started: await signedIn(user, client) };
    },

    async signOut(sessionId: string): Promise<void> {
      await repo.delete(db, sessionId);
    },

    async endToken(token: string | undefined): Promise<void> {
      if (isWellFormedToken(token)) await repo.deleteByTokenHash(db, hashToken(token));
    },

    /**
     * A stolen session must not be enough to guess the password: wrong current passwords count
     * against the same throttle as sign-ins. Every session of the user ends; the caller gets a new one.
     */
    async changePassword(
      current: DashboardSession,
      currentPassword: string,
      newPassword: string,
      client: ClientInfo,
    ): Promise<StartedSession> {
      const user = await confirmPassword(current, currentPassword, client, {
        path: '/currentPassword',
        message: 'currentPassword is not the current password',
      });
      const passwordHash = await passwords.hash(newPassword);
      return db.transaction().execute(async (trx) => {
        await accountsRepository.setUserPassword(trx, user.id, passwordHash, new Date().toISOString());
        await accountsRepository.endSignIns(trx, user.id);
        await recordAuditForUser(trx, user.id, byUser(user, client), {
          action: 'password.changed',
          target: userTarget(user),
        });
        return start(trx, user, client);
      });
    },

    /** The user's sessions, most recently seen first, the asking one marked. */
    async list(current: DashboardSession): Promise<SessionInfo[]> {
      const rows = await sessionListQuery(db, current.userId, new Date().toISOString()).execute();
      return rows.map((row) => ({
        id: row.id,
        current: row.id === current.id,
        userAgent: row.user_agent,
        ip: row.ip,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        expiresAt: row.expires_at,
      }));
    },

    /** Ends one of the user's own sessions (the current one too: that is signing out). */
    async end(current: DashboardSession, id: string): Promise<{ ended: number }> {
      if (!(await repo.deleteOwn(db, current.userId, id))) throw notFound('Session');
      return { ended: 1 };
    },

    /** Signs out everywhere else. */
    async endOthers(current: DashboardSession): Promise<{ ended: number }> {
      return { ended: await repo.deleteOthers(db, current.userId, current.id) };
    },

    /** The Session shape: the user, the CSRF token and their workspaces, as they are now. */
    async view(session: DashboardSession): Promise<Session> {
      const memberships = await dashboardWorkspacesRepository.listForUser(db, session.userId);
      return {
        user: { id: session.userId, email: session.email },
        csrfToken: session.csrfToken,
        workspaces: memberships.map((membership) => presentWorkspaceSummary(membership, session.userId)),
      };
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
