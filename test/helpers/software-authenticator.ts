import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software, for tests without a browser: ES256 keys from node:crypto, `none`
 * attestation, CBOR by the library @simplewebauthn/server uses. It answers the server's JSON options with the JSON a
 * browser's startRegistration and startAuthentication give, and can be told to get one thing wrong.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Held {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: crypto.KeyObject;
  counter: number;
}

/** What a test can bend: the origin and RP ID the authenticator believes, the challenge, the signature. */
export interface Bend {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** Sign with another key than the credential's. */
  wrongKey?: boolean;
  /** The user verification flag left off (user presence only). */
  unverified?: boolean;
  /** The counter as sent, instead of the next one. */
  counter?: number;
  /** Sign as this credential id (one the server never saw). */
  credentialId?: Buffer;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

/** The COSE form (RFC 9053) of a P-256 public key: kty EC2, alg ES256, crv P-256, x, y. */
function coseKey(publicKey: crypto.KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

export function softwareAuthenticator(origin: string) {
  const held: Held[] = [];
  const rpIdOf = (options: Json) => (options.rp?.id ?? options.rpId ?? new URL(origin).hostname) as string;

  const clientData = (type: string, challenge: string, bend: Bend) =>
    Buffer.from(
      JSON.stringify({
        type,
        challenge: bend.challenge ?? challenge,
        origin: bend.origin ?? origin,
        crossOrigin: false,
      }),
    );

  return {
    /** The credentials it holds, newest last. */
    held,

    /** navigator.credentials.create(): a new credential for the options' RP and user. */
    create(options: Json, bend: Bend = {}) {
      const rpId = bend.rpId ?? rpIdOf(options);
      const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = crypto.randomBytes(16);
      held.push({ id, rpId: rpIdOf(options), userHandle: options.user.id as string, privateKey, counter: 0 });
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([FLAG_UP | (bend.unverified ? 0 : FLAG_UV) | FLAG_AT]),
        uint32(0),
        Buffer.alloc(16), // the AAGUID of an authenticator that does not say what it is
        idLength,
        id,
        coseKey(publicKey),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData],
        ]),
      );
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge as string, bend)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },

    /** navigator.credentials.get(): an assertion by a credential the options allow (or any it holds for the RP). */
    get(options: Json, bend: Bend = {}) {
      const allowed = ((options.allowCredentials ?? []) as Array<{ id: string }>).map((c) => c.id);
      const credential = held.find(
        (c) => c.rpId === rpIdOf(options) && (allowed.length === 0 || allowed.includes(b64url(c.id))),
      );
      if (!credential) throw new Error('the software authenticator holds no credential these options allow');
      credential.counter += 1;
      const authData = Buffer.concat([
        sha256(bend.rpId ?? credential.rpId),
        Buffer.from([FLAG_UP | (bend.unverified ? 0 : FLAG_UV)]),
        uint32(bend.counter ?? credential.counter),
      ]);
      const clientDataJSON = clientData('webauthn.get', options.challenge as string, bend);
      const key = bend.wrongKey
        ? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
        : credential.privateKey;
      const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key);
      const id = bend.credentialId ?? credential.id;
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
  };
}

export type SoftwareAuthenticator = ReturnType<typeof softwareAuthenticator>;
