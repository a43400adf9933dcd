import crypto from 'node:crypto';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { recordAuditForUser } from '../../audit/audit-log.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { PasskeysTable } from '../../db/schema.js';
import type { Selectable } from 'kysely';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import { hashToken, isWellFormedToken, type DashboardSession } from '../../http/session-auth.js';
import { userTarget } from '../accounts/accounts.service.js';
import type { AuthenticationCredential, Passkey, RegistrationCredential } from './passkeys.schemas.js';
import { passkeysRepository as repo } from './passkeys.repository.js';
import { secondFactorRepository as secondFactors } from './second-factor.repository.js';
import { challengeGone, newRecoveryCodes, refuseLastSecondFactor } from './second-factor.service.js';
import {
  byUser,
  type ClientInfo,
  type ErrorLog,
  type SessionsService,
  type StartedSession,
} from './sessions.service.js';
import {
  authenticationOptions,
  CEREMONY_TTL_MS,
  challengeOf,
  defaultPasskeyName,
  registrationOptions,
  relyingParty,
  userHandleOf,
  verifiedAssertion,
  verifiedRegistration,
} from './webauthn.js';

/** Enough for every device and key a person owns; a bound on what one account can store. */
export const PASSKEYS_MAX = 20;

type Purpose = 'registration' | 'second_factor' | 'passwordless';

/**
 * The throttle's account for a passwordless attempt whose passkey is unknown: not an email anyone can type (no @),
 * so its failures are counted per address without touching a real account.
 */
const UNKNOWN_PASSKEY = 'passkey';

/** One answer for every way an assertion fails, so none can be told from another. */
const passkeyRefused = () =>
  new AppError('UNAUTHORIZED', 'This passkey was not accepted', { reason: 'passkey_refused' });
const registrationRefused = () =>
  invalid([{ in: 'body', path: '/credential', message: 'This passkey could not be verified; try adding it again' }]);

const present = (row: Selectable<PasskeysTable>): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  synced: Boolean(row.backed_up),
});

/**
 * Passkeys (WebAuthn; docs/team.md, "Passkeys"): added and removed from Account like the authenticator app, the
 * second step of a sign-in, or a sign-in without a password (the passkey, having verified its holder, is both
 * factors). Every failed assertion counts against the sign-in throttle, as a wrong password does.
 */
export function createPasskeysService(database: DatabaseHandle, sessions: SessionsService, publicUrl: string) {
  const { db } = database;
  const rp = relyingParty(publicUrl);

  async function remember(purpose: Purpose, userId: string | null, challenge: string): Promise<void> {
    const now = Date.now();
    await repo.insertChallenge(
      db,
      {
        challenge_hash: hashToken(challenge),
        purpose,
        user_id: userId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + CEREMONY_TTL_MS).toISOString(),
      },
      new Date(now).toISOString(),
    );
  }

  /**
   * The challenge a credential answers, if it is one this server gave for `purpose` (and `userId`), unexpired; taken
   * either way, so no answer is tried against it twice.
   */
  async function take(clientDataJSON: string, purpose: Purpose, userId: string | null): Promise<string | null> {
    const challenge = challengeOf(clientDataJSON);
    if (challenge === null) return null;
    const row = await repo.takeChallenge(db, hashToken(challenge));
    if (!row || row.purpose !== purpose || row.user_id !== userId || Date.parse(row.expires_at) <= Date.now())
      return null;
    return challenge;
  }

  return {
    async list(current: DashboardSession): Promise<Passkey[]> {
      return (await repo.listForUser(db, current.userId)).map(present);
    },

    /** The options for the browser to make a passkey with: the password first, as for an authenticator app. */
    async beginRegistration(
      current: DashboardSession,
      password: string,
      client: ClientInfo,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const user = await sessions.requirePassword(current, password, client);
      const existing = await repo.listForUser(db, user.id);
      if (existing.length >= PASSKEYS_MAX)
        throw conflict(`An account holds at most ${PASSKEYS_MAX} passkeys; remove one first`, {
          reason: 'passkeys_max',
        });
      const options = await registrationOptions(rp, user, existing);
      await remember('registration', user.id, options.challenge);
      return options;
    },

    /**
     * The browser's new credential, checked against the ceremony begun, stored under `name`. The account's first
     * second factor comes with recovery codes, answered here once: a passkey lost with its device must not lock
     * its owner out.
     */
    async finishRegistration(
      current: DashboardSession,
      credential: RegistrationCredential,
      name: string | undefined,
      client: ClientInfo,
    ): Promise<{ passkey: Passkey; recoveryCodes?: string[] }> {
      const challenge = await take(credential.response.clientDataJSON, 'registration', current.userId);
      const made = challenge === null ? null : await verifiedRegistration(rp, credential, challenge);
      if (made === null) throw registrationRefused();
      const firstFactor = (await secondFactors.factorsOf(db, current.userId)).length === 0;
      const now = new Date().toISOString();
      const row = {
        id: crypto.randomUUID(),
        user_id: current.userId,
        credential_id: made.credentialId,
        public_key: made.publicKey,
        counter: made.counter,
        transports: JSON.stringify(made.transports),
        device_type: made.deviceType,
        backed_up: made.backedUp,
        name: name?.trim() || defaultPasskeyName(credential.authenticatorAttachment, client.userAgent),
        created_at: now,
        last_used_at: null,
      };
      return db.transaction().execute(async (trx) => {
        await repo.insert(trx, row);
        const recoveryCodes = firstFactor ? await newRecoveryCodes(trx, current.userId) : undefined;
        const user = { id: current.userId, email: current.email };
        await recordAuditForUser(trx, user.id, byUser(user, client), {
          action: 'passkey.added',
          target: userTarget(user),
          details: { name: row.name },
        });
        return { passkey: present(row), ...(recoveryCodes && { recoveryCodes }) };
      });
    },

    async rename(current: DashboardSession, id: string, name: string): Promise<Passkey> {
      if (!(await repo.rename(db, current.userId, id, name.trim()))) throw notFound('Passkey');
      return present((await repo.findOwn(db, current.userId, id))!);
    },

    /**
     * Removed, with the password; refused while a workspace of theirs requires a second factor and this is their
     * last one. With no second factor left, the recovery codes go too.
     */
    async remove(
      current: DashboardSession,
      id: string,
      password: string,
      client: ClientInfo,
    ): Promise<{ removed: true }> {
      const user = await sessions.requirePassword(current, password, client);
      const passkey = await repo.findOwn(db, user.id, id);
      if (!passkey) throw notFound('Passkey');
      const others = (await repo.listForUser(db, user.id)).length - 1;
      const last = others === 0 && !(await secondFactors.factorsOf(db, user.id)).includes('totp');
      if (last) await refuseLastSecondFactor(db, user.id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.delete(trx, user.id, id))) throw notFound('Passkey');
        if (last) await secondFactors.deleteRecoveryCodes(trx, user.id);
        await recordAuditForUser(trx, user.id, byUser(user, client), {
          action: 'passkey.removed',
          target: userTarget(user),
          details: { name: passkey.name },
        });
      });
      return { removed: true };
    },

    /** The options for a sign-in's second step: the passkeys of the account whose password was right. */
    async secondFactorOptions(challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const found = isWellFormedToken(challenge) ? await secondFactors.findChallenge(db, hashToken(challenge)) : null;
      if (!found || Date.parse(found.expires_at) <= Date.now()) throw challengeGone();
      const passkeys = await repo.listForUser(db, found.user_id);
      if (passkeys.length === 0) throw conflict('This account has no passkey; use a code', { reason: 'no_passkey' });
      const options = await authenticationOptions(rp, passkeys);
      await remember('second_factor', found.user_id, options.challenge);
      return options;
    },

    /**
     * The second step of a sign-in with a passkey. A refused passkey counts against the throttle and leaves the
     * sign-in's challenge for another try (with new options) until it expires, as a wrong code does.
     */
    async completeSecondFactor(
      challenge: string,
      credential: AuthenticationCredential,
      client: ClientInfo,
    ): Promise<StartedSession> {
      if (!isWellFormedToken(challenge)) throw challengeGone();
      const tokenHash = hashToken(challenge);
      const found = await secondFactors.findChallenge(db, tokenHash);
      if (!found || Date.parse(found.expires_at) <= Date.now()) throw challengeGone();
      const user = { id: found.user_id, email: found.email };
      const attempt = await sessions.throttle.begin(user.email, client.ip);
      const expected = await take(credential.response.clientDataJSON, 'second_factor', user.id);
      const passkey = await repo.findByCredentialId(db, credential.id);
      const verified =
        expected !== null && passkey?.user_id === user.id
          ? await verifiedAssertion(rp, credential, expected, passkey, false)
          : null;
      const accepted =
        verified !== null &&
        passkey !== undefined &&
        (await db.transaction().execute(async (trx) => {
          const now = new Date().toISOString();
          if (!(await repo.used(trx, passkey.id, Number(passkey.counter), { ...verified, at: now }))) return false;
          if (!(await secondFactors.takeChallenge(trx, tokenHash))) throw challengeGone();
          return true;
        }));
      if (!accepted) {
        await recordAuditForUser(
          db,
          user.id,
          { userId: null, apiKeyId: null, address: client.ip },
          { action: 'session.second_factor_failed', target: userTarget(user), details: { secondFactor: 'passkey' } },
        );
        throw passkeyRefused();
      }
      await sessions.throttle.succeeded(attempt);
      return sessions.signedIn(user, client, { secondFactor: 'passkey' });
    },

    /** The options for a sign-in without a password: any passkey of this site the browser holds (discoverable). */
    async passwordlessOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const options = await authenticationOptions(rp, null);
      await remember('passwordless', null, options.challenge);
      return options;
    },

    /**
     * A sign-in with a passkey alone: it must have verified its holder (PIN, biometrics), so it is two factors and
     * satisfies a workspace's requirement. Failures count against the throttle for the passkey's account, or, for a
     * passkey unknown here, for the address alone.
     */
    async signInWithPasskey(
      credential: AuthenticationCredential,
      client: ClientInfo,
      log?: ErrorLog,
    ): Promise<StartedSession> {
      const passkey = await repo.findByCredentialId(db, credential.id);
      const attempt = await sessions.throttle.begin(passkey?.email ?? UNKNOWN_PASSKEY, client.ip);
      const expected = await take(credential.response.clientDataJSON, 'passwordless', null);
      const handle = credential.response.userHandle;
      const verified =
        expected !== null && passkey !== undefined && (handle === undefined || handle === userHandleOf(passkey.user_id))
          ? await verifiedAssertion(rp, credential, expected, passkey, true)
          : null;
      const accepted =
        verified !== null &&
        passkey !== undefined &&
        (await repo.used(db, passkey.id, Number(passkey.counter), { ...verified, at: new Date().toISOString() }));
      if (!accepted) {
        // As for a wrong password: recorded for a known account only, and not awaited.
        if (passkey)
          void recordAuditForUser(
            db,
            passkey.user_id,
            { userId: null, apiKeyId: null, address: client.ip },
            {
              action: 'session.sign_in_failed',
              target: userTarget({ id: passkey.user_id, email: passkey.email }),
              details: { via: 'passkey' },
            },
          ).catch((error: unknown) => log?.error({ err: error }, 'a failed sign-in was not recorded in the audit log'));
        throw passkeyRefused();
      }
      await sessions.throttle.succeeded(attempt);
      return sessions.signedIn({ id: passkey.user_id, email: passkey.email }, client, { via: 'passkey' });
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
