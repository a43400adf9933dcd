import crypto from 'node:crypto';
import type {
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { AuthenticationCredential, RegistrationCredential } from './passkeys.schemas.js';

/**
 * @simplewebauthn/server, loaded at the first ceremony: its ASN.1 and COSE libraries were the largest part of the
 * start of every `quire` command and server, which load this module with the dashboard's services.
 */
const webauthn = () => import('@simplewebauthn/server');

/** How long a ceremony's options stay good: the browser's prompt times out with them. */
export const CEREMONY_TTL_MS = 5 * 60_000;

const TRANSPORTS = new Set<string>(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/**
 * Who passkeys are made for: the host of QUIRE_PUBLIC_URL (its RP ID) at its origin. A passkey made for one host
 * does not sign in at another, and browsers refuse an IP address as an RP ID.
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Quire' };
}

/** The transports a browser named that WebAuthn knows, for storing and handing back. */
export function knownTransports(transports: readonly string[] | undefined): AuthenticatorTransportFuture[] {
  return (transports ?? []).filter((t): t is AuthenticatorTransportFuture => TRANSPORTS.has(t));
}

/** The challenge a credential answers, from its client data; null when that is not WebAuthn's JSON. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

/** The user handle a passkey holds: the user's id, so a passwordless sign-in can be checked against it. */
export const userHandleOf = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string },
  exclude: Array<{ credential_id: string; transports: string }>,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.email,
    userID: Buffer.from(user.id, 'utf8'),
    challenge: crypto.randomBytes(32),
    timeout: CEREMONY_TTL_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map((row) => ({
      id: row.credential_id,
      transports: knownTransports(JSON.parse(row.transports) as string[]),
    })),
    // Discoverable where the authenticator can, so the same passkey also signs in without a password.
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

export async function authenticationOptions(
  rp: RelyingParty,
  allow: Array<{ credential_id: string; transports: string }> | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: crypto.randomBytes(32),
    timeout: CEREMONY_TTL_MS,
    // Without a password, the passkey is both factors: it must have checked who holds it (PIN, biometrics).
    userVerification: allow === null ? 'required' : 'preferred',
    ...(allow && {
      allowCredentials: allow.map((row) => ({
        id: row.credential_id,
        transports: knownTransports(JSON.parse(row.transports) as string[]),
      })),
    }),
  });
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: AuthenticatorTransportFuture[];
  deviceType: string;
  backedUp: boolean;
}

/** A registration checked against its challenge, our origin and RP ID; null on any failure, whatever it was. */
export async function verifiedRegistration(
  rp: RelyingParty,
  credential: RegistrationCredential,
  challenge: string,
): Promise<NewCredential | null> {
  const { verifyRegistrationResponse } = await webauthn();
  try {
    const result = await verifyRegistrationResponse({
      response: {
        ...credential,
        response: { ...credential.response, transports: knownTransports(credential.response.transports) },
      },
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const info = result.registrationInfo;
    return {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: knownTransports(credential.response.transports),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
    };
  } catch {
    return null;
  }
}

/**
 * An assertion checked against its challenge, our origin and RP ID, the stored key and counter; null on any failure.
 * `userVerified` asks that the authenticator checked who holds it.
 */
export async function verifiedAssertion(
  rp: RelyingParty,
  credential: AuthenticationCredential,
  challenge: string,
  stored: { credential_id: string; public_key: string; counter: number; transports: string },
  userVerified: boolean,
): Promise<{ counter: number; backedUp: boolean } | null> {
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const result = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: Number(stored.counter),
        transports: knownTransports(JSON.parse(stored.transports) as string[]),
      },
      requireUserVerification: userVerified,
    });
    if (!result.verified) return null;
    return { counter: result.authenticationInfo.newCounter, backedUp: result.authenticationInfo.credentialBackedUp };
  } catch {
    return null;
  }
}

/** A passkey's name when none is given: what kind of authenticator, on what device the browser says it runs. */
export function defaultPasskeyName(attachment: string | undefined, userAgent: string | undefined): string {
  if (attachment === 'cross-platform') return 'Security key';
  const ua = userAgent ?? '';
  const device = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : /Mac OS X|Macintosh/.test(ua)
            ? 'Mac'
            : /Windows/.test(ua)
              ? 'Windows'
              : /Linux/.test(ua)
                ? 'Linux'
                : null;
  return device ? `Passkey on ${device}` : 'Passkey';
}
