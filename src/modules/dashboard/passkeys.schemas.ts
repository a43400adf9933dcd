import { Type, type Static } from 'typebox';
import { Timestamp, Uuid } from '../../shared/schemas.js';
import { PASSWORD_MAX_LENGTH } from '../../security/password.js';

/**
 * The shapes of passkeys (docs/team.md, "Passkeys"). The options and credentials are WebAuthn's JSON forms, as
 * @simplewebauthn/browser's startRegistration and startAuthentication take and give them.
 */

/** base64url without padding; `max` characters at most. */
const Base64Url = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+$' });

/** A credential id: at most 1,023 bytes (WebAuthn's bound), base64url. */
const CredentialId = Base64Url(1400);
const Transports = Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { maxItems: 10 });
const Extensions = Type.Object({}, { additionalProperties: true });
const Attachment = Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]);
const UserVerification = Type.Union([Type.Literal('required'), Type.Literal('preferred'), Type.Literal('discouraged')]);
/** The transports WebAuthn names; the server hands back only these. */
const KnownTransport = Type.Union([
  Type.Literal('ble'),
  Type.Literal('cable'),
  Type.Literal('hybrid'),
  Type.Literal('internal'),
  Type.Literal('nfc'),
  Type.Literal('smart-card'),
  Type.Literal('usb'),
]);
const Hints = Type.Array(
  Type.Union([Type.Literal('hybrid'), Type.Literal('security-key'), Type.Literal('client-device')]),
);
const Descriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Type.Array(KnownTransport)),
});

export const Passkey = Type.Object({
  id: Uuid,
  name: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  /** Backed up by its provider (a synced passkey: iCloud Keychain, Google Password Manager, 1Password …). */
  synced: Type.Boolean(),
});
export type Passkey = Static<typeof Passkey>;

export const PasskeyParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const PasskeyName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const PasskeyRenameBody = Type.Object({ name: PasskeyName }, { additionalProperties: false });

export const PasskeyPasswordBody = Type.Object(
  { password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);

/** navigator.credentials.create()'s options, as JSON. */
export const RegistrationOptions = Type.Object({
  rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  challenge: Type.String(),
  pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') })),
  timeout: Type.Optional(Type.Integer()),
  excludeCredentials: Type.Optional(Type.Array(Descriptor)),
  authenticatorSelection: Type.Optional(
    Type.Object({
      authenticatorAttachment: Type.Optional(Attachment),
      requireResidentKey: Type.Optional(Type.Boolean()),
      residentKey: Type.Optional(
        Type.Union([Type.Literal('discouraged'), Type.Literal('preferred'), Type.Literal('required')]),
      ),
      userVerification: Type.Optional(UserVerification),
    }),
  ),
  hints: Type.Optional(Hints),
  attestation: Type.Optional(
    Type.Union([Type.Literal('direct'), Type.Literal('enterprise'), Type.Literal('indirect'), Type.Literal('none')]),
  ),
  extensions: Type.Optional(Extensions),
});

/** navigator.credentials.get()'s options, as JSON. */
export const AuthenticationOptions = Type.Object({
  challenge: Type.String(),
  timeout: Type.Optional(Type.Integer()),
  rpId: Type.Optional(Type.String()),
  allowCredentials: Type.Optional(Type.Array(Descriptor)),
  userVerification: Type.Optional(UserVerification),
  hints: Type.Optional(Hints),
  extensions: Type.Optional(Extensions),
});

/** What navigator.credentials.create() made, as JSON (RegistrationResponseJSON). */
export const RegistrationCredential = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url(4096),
        attestationObject: Base64Url(65_536),
        authenticatorData: Type.Optional(Base64Url(65_536)),
        transports: Type.Optional(Transports),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(Base64Url(4096)),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(Attachment),
    clientExtensionResults: Extensions,
  },
  { additionalProperties: false },
);
export type RegistrationCredential = Static<typeof RegistrationCredential>;

/** What navigator.credentials.get() signed, as JSON (AuthenticationResponseJSON). */
export const AuthenticationCredential = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url(4096),
        authenticatorData: Base64Url(65_536),
        signature: Base64Url(1024),
        userHandle: Type.Optional(Base64Url(128)),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(Attachment),
    clientExtensionResults: Extensions,
  },
  { additionalProperties: false },
);
export type AuthenticationCredential = Static<typeof AuthenticationCredential>;

export const PasskeyRegistrationBody = Type.Object(
  {
    credential: RegistrationCredential,
    /** Named from the authenticator and browser when left out. */
    name: Type.Optional(PasskeyName),
  },
  { additionalProperties: false },
);

export const PasskeyAdded = Type.Object({
  passkey: Passkey,
  /** Ten, shown once, when this passkey is the account's first second factor: the way back without it. */
  recoveryCodes: Type.Optional(Type.Array(Type.String())),
});

export const PasskeyRemoved = Type.Object({ removed: Type.Literal(true) });

export const PasskeyChallengeBody = Type.Object(
  { challenge: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const PasskeySecondFactorBody = Type.Object(
  { challenge: Type.String({ minLength: 1, maxLength: 100 }), credential: AuthenticationCredential },
  { additionalProperties: false },
);

export const PasskeySignInBody = Type.Object({ credential: AuthenticationCredential }, { additionalProperties: false });
