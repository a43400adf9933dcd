import crypto from 'node:crypto';
import { recordAuditForUser } from '../../audit/audit-log.js';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError, conflict, invalid } from '../../errors.js';
import { hashToken, isWellFormedToken, type DashboardSession } from '../../http/session-auth.js';
import type { MasterKey } from '../../security/master-key.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { userTarget } from '../accounts/accounts.service.js';
import { decryptSecret, encryptSecret } from '../api-keys/key-cipher.js';
import { passkeysRepository } from './passkeys.repository.js';
import { secondFactorRepository as repo } from './second-factor.repository.js';
import { byUser, type ClientInfo, type SessionsService, type StartedSession } from './sessions.service.js';
import { newTotpSecret, totpStep, totpUri } from './totp.js';
import type { SecondFactorStatus } from './second-factor.schemas.js';

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The associated data binding a stored secret to its user (api-keys/key-cipher.ts). */
const binding = (userId: string) => `totp:${userId}`;

/** Ten characters of an alphabet without look-alikes, as `xxxxx-xxxxx`: about 49 bits each. */
function newRecoveryCode(): string {
  const chars = Array.from(crypto.randomBytes(10), (byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** A code as typed: case, spaces and dashes do not matter. */
const hashRecoveryCode = (code: string) => hashToken(code.toLowerCase().replace(/[\s-]/g, ''));

/** Ten new recovery codes in place of the user's old ones; answered once, kept only as their sha256. */
export async function newRecoveryCodes(executor: DatabaseHandle['db'], userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await repo.replaceRecoveryCodes(executor, userId, codes.map(hashRecoveryCode), new Date().toISOString());
  return codes;
}

/** A 409 naming the workspaces of the user that require a second factor, when any does. */
export async function refuseLastSecondFactor(executor: DatabaseHandle['db'], userId: string): Promise<void> {
  const requiredBy = await repo.workspacesRequiring(executor, userId);
  if (requiredBy.length > 0)
    throw conflict(`${requiredBy.join(', ')} requires a second factor of every member`, {
      reason: 'second_factor_required',
      workspaces: requiredBy,
    });
}

export const challengeGone = () =>
  new AppError('UNAUTHORIZED', 'This sign-in has expired; sign in again', { reason: 'challenge_expired' });
const wrongCode = () => invalid([{ in: 'body', path: '/code', message: 'This code is not right' }]);

/**
 * A second factor at sign-in (docs/team.md, "Second factor"): an authenticator app's codes (RFC 6238), with
 * recovery codes for a lost phone. Wrong codes count against the sign-in throttle, as wrong passwords do.
 */
export function createSecondFactorService(database: DatabaseHandle, masterKey: MasterKey, sessions: SessionsService) {
  const { db } = database;

  /**
   * Which factor `code` is: a right app code (its step then used up) or an unused recovery code (then spent). An
   * account whose only second factor is a passkey has recovery codes too.
   */
  async function spendCode(
    executor: typeof db,
    userId: string,
    code: string,
  ): Promise<'totp' | 'recovery_code' | null> {
    const typed = code.trim();
    if (/^\d{6}$/.test(typed)) {
      const factor = await repo.findTotp(executor, userId);
      if (!factor?.confirmed_at) return null;
      const secret = decryptSecret(masterKey, factor.secret_encrypted, binding(userId));
      const step = totpStep(secret, typed, Number(factor.last_step));
      return step !== null && (await repo.useStep(executor, userId, step, new Date().toISOString())) ? 'totp' : null;
    }
    return (await repo.takeRecoveryCode(executor, userId, hashRecoveryCode(typed))) ? 'recovery_code' : null;
  }

  return {
    async status(current: DashboardSession): Promise<SecondFactorStatus> {
      const [factor, passkeys, left, requiredBy, user] = await Promise.all([
        repo.findTotp(db, current.userId),
        passkeysRepository.listForUser(db, current.userId),
        repo.countRecoveryCodes(db, current.userId),
        repo.workspacesRequiring(db, current.userId),
        accountsRepository.findUserById(db, current.userId),
      ]);
      return {
        totp: Boolean(factor?.confirmed_at),
        passkeys: passkeys.length,
        recoveryCodesLeft: left,
        requiredBy,
        hasPassword: Boolean(user?.password_hash),
      };
    },

    /**
     * A new secret for an authenticator app, not in use until `confirm` gets a right code from it. Asked again, it
     * replaces the unconfirmed one; with a confirmed one in use, it is refused: turn that off first.
     */
    async begin(
      current: DashboardSession,
      password: string,
      client: ClientInfo,
    ): Promise<{ secret: string; uri: string }> {
      const user = await sessions.requirePassword(current, password, client);
      if ((await repo.findTotp(db, user.id))?.confirmed_at)
        throw conflict('An authenticator app is set up already; turn it off before setting up another', {
          reason: 'second_factor_on',
        });
      const secret = newTotpSecret();
      await repo.putUnconfirmed(
        db,
        user.id,
        encryptSecret(masterKey, secret, binding(user.id)),
        new Date().toISOString(),
      );
      return { secret, uri: totpUri(secret, user.email) };
    },

    /** The app's first right code turns it on; the recovery codes are answered here, once. */
    async confirm(current: DashboardSession, code: string, client: ClientInfo): Promise<{ recoveryCodes: string[] }> {
      const attempt = await sessions.throttle.begin(current.email, client.ip);
      const factor = await repo.findTotp(db, current.userId);
      if (!factor) throw conflict('Set up an authenticator app first', { reason: 'second_factor_not_begun' });
      if (factor.confirmed_at) throw conflict('The authenticator app is on already', { reason: 'second_factor_on' });
      const secret = decryptSecret(masterKey, factor.secret_encrypted, binding(current.userId));
      const step = totpStep(secret, code.trim(), Number(factor.last_step));
      if (step === null) throw wrongCode();
      await sessions.throttle.succeeded(attempt);
      return db.transaction().execute(async (trx) => {
        if (!(await repo.useStep(trx, current.userId, step, new Date().toISOString()))) throw wrongCode();
        const recoveryCodes = await newRecoveryCodes(trx, current.userId);
        await recordAuditForUser(trx, current.userId, byUser({ id: current.userId }, client), {
          action: 'second_factor.enabled',
          target: userTarget({ id: current.userId, email: current.email }),
        });
        return { recoveryCodes };
      });
    },

    /** New recovery codes; the old ones stop working. */
    async renewRecoveryCodes(
      current: DashboardSession,
      password: string,
      client: ClientInfo,
    ): Promise<{ recoveryCodes: string[] }> {
      const user = await sessions.requirePassword(current, password, client);
      if ((await repo.factorsOf(db, user.id)).length === 0)
        throw conflict('There is no second factor to renew recovery codes of', { reason: 'second_factor_off' });
      return db.transaction().execute(async (trx) => {
        const recoveryCodes = await newRecoveryCodes(trx, user.id);
        await recordAuditForUser(trx, user.id, byUser(user, client), {
          action: 'second_factor.recovery_codes_renewed',
          target: userTarget(user),
        });
        return { recoveryCodes };
      });
    },

    /**
     * Off, with the password; refused while a workspace of theirs requires a second factor and this is their last
     * one. With a passkey left, the recovery codes stay.
     */
    async turnOff(current: DashboardSession, password: string, client: ClientInfo): Promise<{ totp: false }> {
      const user = await sessions.requirePassword(current, password, client);
      const others = (await repo.factorsOf(db, user.id)).filter((factor) => factor !== 'totp');
      if (others.length === 0) await refuseLastSecondFactor(db, user.id);
      await db.transaction().execute(async (trx) => {
        await repo.deleteTotp(trx, user.id, { keepRecoveryCodes: others.length > 0 });
        await recordAuditForUser(trx, user.id, byUser(user, client), {
          action: 'second_factor.disabled',
          target: userTarget(user),
        });
      });
      return { totp: false };
    },

    /**
     * The second step of a sign-in: the challenge a right password got, and a code of the app or a recovery code.
     * A wrong code counts against the throttle and leaves the challenge for another try until it expires.
     */
    async completeSignIn(challenge: string, code: string, client: ClientInfo): Promise<StartedSession> {
      if (!isWellFormedToken(challenge)) throw challengeGone();
      const tokenHash = hashToken(challenge);
      const found = await repo.findChallenge(db, tokenHash);
      if (!found || Date.parse(found.expires_at) <= Date.now()) throw challengeGone();
      const user = { id: found.user_id, email: found.email };
      const attempt = await sessions.throttle.begin(user.email, client.ip);
      const factor = await db.transaction().execute(async (trx) => {
        const spent = await spendCode(trx, user.id, code);
        if (spent !== null && !(await repo.takeChallenge(trx, tokenHash))) throw challengeGone();
        return spent;
      });
      if (factor === null) {
        await recordAuditForUser(
          db,
          user.id,
          { userId: null, apiKeyId: null, address: client.ip },
          {
            action: 'session.second_factor_failed',
            target: userTarget(user),
          },
        );
        throw wrongCode();
      }
      await sessions.throttle.succeeded(attempt);
      return sessions.signedIn(user, client, { secondFactor: factor });
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
