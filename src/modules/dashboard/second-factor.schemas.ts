import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../security/password.js';

/** The shapes of a second factor (docs/team.md, "Second factor"). */

const Factor = Type.Union([Type.Literal('totp'), Type.Literal('passkey')]);

/** POST /session's answer (202) for an account with a second factor: no session yet, a challenge to answer. */
export const SecondFactorChallenge = Type.Object({
  /** The first of `factors`: `totp` whenever the account has an authenticator app. */
  secondFactor: Factor,
  /**
   * Every second factor the account has: `totp` (a code at POST /session/second-factor, where a recovery code also
   * works) and `passkey` (POST /session/second-factor/passkey).
   */
  factors: Type.Array(Factor),
  /** Valid five minutes. */
  challenge: Type.String(),
});

export const SecondFactorBody = Type.Object(
  {
    challenge: Type.String({ minLength: 1, maxLength: 100 }),
    /** Six digits from the app, or a recovery code (`xxxxx-xxxxx`; case, spaces and dashes do not matter). */
    code: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);
export type SecondFactorBody = Static<typeof SecondFactorBody>;

export const SecondFactorStatus = Type.Object({
  totp: Type.Boolean(),
  /** How many passkeys the account has (GET /account/passkeys lists them). */
  passkeys: Type.Integer(),
  recoveryCodesLeft: Type.Integer(),
  /** The person's workspaces that require a second factor of every member, by name. */
  requiredBy: Type.Array(Type.String()),
  /** False for an account made by single sign-on: changes then need a sign-in in the last ten minutes instead. */
  hasPassword: Type.Boolean(),
});
export type SecondFactorStatus = Static<typeof SecondFactorStatus>;

export const PasswordBody = Type.Object(
  { password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type PasswordBody = Static<typeof PasswordBody>;

export const TotpSetup = Type.Object({
  /** Base32, for typing into an app. */
  secret: Type.String(),
  /** The `otpauth://` URI a QR code carries. */
  uri: Type.String(),
});

export const CodeBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 40 }) },
  { additionalProperties: false },
);
export type CodeBody = Static<typeof CodeBody>;

/** Shown once: only their hashes are kept. */
export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String()) });

export const TotpOff = Type.Object({ totp: Type.Literal(false) });

export const SecondFactorRequirementBody = Type.Object({ required: Type.Boolean() }, { additionalProperties: false });
