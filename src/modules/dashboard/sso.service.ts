import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import { recordAudit } from '../../audit/audit-log.js';
import type { OidcConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { hashToken } from '../../http/session-auth.js';
import { ROLES } from '../../security/roles.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { userTarget } from '../accounts/accounts.service.js';
import { workspacesRepository } from '../workspaces/workspaces.repository.js';
import { ssoRepository as repo } from './sso.repository.js';
import { byUser, type ClientInfo, type SessionsService, type StartedSession } from './sessions.service.js';

/** How long a sign-on may stay at the provider: a login form, perhaps a second factor there. */
const LOGIN_TTL_MS = 10 * 60_000;

/** Why a sign-on came back without a session; the sign-in page says it in words. */
export type SsoFailure = 'denied' | 'expired' | 'refused' | 'email_unverified' | 'unavailable';

export class SsoError extends Error {
  constructor(
    readonly reason: SsoFailure,
    readonly detail?: string,
  ) {
    super(`single sign-on failed: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'SsoError';
  }
}

type Executor = DatabaseHandle['db'];

/**
 * Signing in through an OpenID provider (docs/team.md, "Single sign-on"): the authorization code flow with PKCE,
 * state and nonce, the ID token checked by openid-client (issuer, audience, signature, expiry, nonce). The
 * provider vouches for the email; the account of that email signs in (made on first sign-on, without a password),
 * and joins the workspaces its domain's rules name.
 */
export function createSsoService(
  database: DatabaseHandle,
  settings: OidcConfig | null,
  publicUrl: string,
  sessions: SessionsService,
) {
  const { db } = database;
  const redirectUri = `${publicUrl}/api/v1/dashboard/oidc/callback`;
  let discovered: Promise<oidc.Configuration> | undefined;

  /** The provider's metadata and keys, fetched once; a failure is tried again on the next sign-on. */
  function provider(config: OidcConfig): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(new URL(config.issuer), config.clientId, undefined, oidc.ClientSecretBasic(config.clientSecret), {
        // The ID token's signature is checked against the provider's keys, though it comes straight from the
        // token endpoint: a token endpoint answer is not to be trusted on TLS alone. Plain HTTP is allowed only
        // to this machine (config.ts).
        execute: [
          oidc.enableNonRepudiationChecks,
          ...(config.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : []),
        ],
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw new SsoError('unavailable', error instanceof Error ? error.message : String(error));
      });
    return discovered;
  }

  function configured(): OidcConfig {
    if (!settings) throw new AppError('NOT_FOUND', 'Single sign-on is not configured on this server');
    return settings;
  }

  /** Joins the workspaces whose rule names the email's domain, as the rule's role; existing memberships stay. */
  async function join(trx: Executor, user: { id: string; email: string }, client: ClientInfo): Promise<void> {
    const domain = user.email.slice(user.email.lastIndexOf('@') + 1);
    for (const rule of configured().domains.filter((candidate) => candidate.domain === domain)) {
      const workspace = await workspacesRepository.findByIdOrSlug(trx, rule.workspace);
      if (!workspace || (await accountsRepository.findMembership(trx, workspace.id, user.id))) continue;
      const now = new Date().toISOString();
      const permissions = [...ROLES[rule.role]];
      await accountsRepository.insertMembership(trx, workspace.id, {
        user_id: user.id,
        permissions: JSON.stringify(permissions),
        created_at: now,
        updated_at: now,
      });
      await recordAudit(trx, workspace.id, byUser(user, client), {
        action: 'member.added',
        target: userTarget(user),
        details: { permissions, via: 'single sign-on', role: rule.role },
      });
    }
  }

  return {
    /** The button's words, or null when sign-on is not configured. */
    name: settings?.name ?? null,

    /** Where the browser goes to sign on: the provider's authorization endpoint, with this sign-on's checks. */
    async start(): Promise<string> {
      const config = await provider(configured());
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const now = Date.now();
      await repo.deleteExpired(db, new Date(now).toISOString());
      await repo.insert(db, {
        state_hash: hashToken(state),
        nonce,
        code_verifier: codeVerifier,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + LOGIN_TTL_MS).toISOString(),
      });
      return oidc
        .buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: 'openid email profile',
          response_type: 'code',
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        })
        .toString();
    },

    /**
     * The provider's answer at the callback URL: the sign-on it belongs to is taken (once), the code exchanged, the
     * ID token checked, and the account of its verified email signed in.
     */
    async finish(callback: URL, client: ClientInfo): Promise<StartedSession> {
      const config = await provider(configured());
      if (callback.searchParams.has('error')) throw new SsoError('denied', callback.searchParams.get('error')!);
      const state = callback.searchParams.get('state');
      const login = state === null ? undefined : await repo.take(db, hashToken(state));
      if (!login || Date.parse(login.expires_at) <= Date.now()) throw new SsoError('expired');
      let claims: Readonly<Record<string, unknown>>;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, new URL(`${redirectUri}${callback.search}`), {
          pkceCodeVerifier: login.code_verifier,
          expectedState: state!,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims()!;
        // Many providers put the email in the ID token; the others answer it at userinfo, for the same subject.
        claims =
          idToken.email === undefined ? await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub) : idToken;
      } catch (error) {
        throw new SsoError('refused', error instanceof Error ? error.message : String(error));
      }
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (email === '' || claims.email_verified !== true) throw new SsoError('email_unverified');
      // Two first sign-ons of one email at once: the loser of the unique email runs again and finds the account.
      const user = await writeTransaction(database, async (trx) => {
        let found = await accountsRepository.findUserByEmail(trx, email);
        if (!found) {
          const now = new Date().toISOString();
          found = { id: crypto.randomUUID(), email, password_hash: null, created_at: now, updated_at: now };
          await accountsRepository.insertUser(trx, found);
        }
        await join(trx, found, client);
        return found;
      });
      return sessions.signedIn(user, client, { via: 'single sign-on' });
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
