import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../security/password.js';
import { Timestamp, Uuid } from '../../shared/schemas.js';
import { MemberAddBody, NewPassword } from '../dashboard/dashboard.schemas.js';

/** The shapes of docs/team.md. */

// A token is 43 characters; a longer string is refused before any lookup, a malformed one finds nothing.
const Token = Type.String({ minLength: 1, maxLength: 100 });

export const Invitation = Type.Object({
  id: Uuid,
  email: Type.String(),
  permissions: Type.Array(Type.String()),
  invitedByEmail: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  /** When the current link was made and mailed; a resend moves it. */
  sentAt: Timestamp,
  expiresAt: Timestamp,
  expired: Type.Boolean(),
});
export type Invitation = Static<typeof Invitation>;

/**
 * A new or resent invitation. `mail.sent` false says why in `mail.reason`, and then `link` is there, for the
 * inviter to pass on themselves; a mailed link is never shown, so only the mailbox holds it.
 */
export const InvitationSent = Type.Object({
  invitation: Invitation,
  mail: Type.Object({ sent: Type.Boolean(), reason: Type.Optional(Type.String()) }),
  link: Type.Optional(Type.String()),
});
export type InvitationSent = Static<typeof InvitationSent>;

// What an invitation asks for is what adding a member takes: one shape, one name in the dashboard's document.
export const InviteBody = MemberAddBody;
export type InviteBody = Static<typeof InviteBody>;

export const InvitationParams = Type.Object({ workspaceId: Uuid, id: Uuid }, { additionalProperties: false });
export const Revoked = Type.Object({ revoked: Type.Literal(true) });

export const TokenBody = Type.Object({ token: Token }, { additionalProperties: false });

/** What the accept page shows before the invitee decides. */
export const InvitationPreview = Type.Object({
  workspaceId: Uuid,
  workspaceName: Type.String(),
  email: Type.String(),
  invitedByEmail: Type.Union([Type.String(), Type.Null()]),
  /** True: the invitee signs in with the account of that email; false: they choose a password. */
  accountExists: Type.Boolean(),
  expiresAt: Timestamp,
});
export type InvitationPreview = Static<typeof InvitationPreview>;

// The password of an existing account has no floor (a wrong one is refused alike); a new one is checked.
export const AcceptBody = Type.Object(
  { token: Token, password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type AcceptBody = Static<typeof AcceptBody>;

export const ResetRequestBody = Type.Object(
  { email: Type.String({ maxLength: 254 }) },
  { additionalProperties: false },
);
export const ResetRequested = Type.Object({ requested: Type.Literal(true) });

export const ResetBody = Type.Object({ token: Token, newPassword: NewPassword }, { additionalProperties: false });
export type ResetBody = Static<typeof ResetBody>;

/** What this server can do that the sign-in screen must know before anyone signs in. */
export const Capabilities = Type.Object({
  mail: Type.Boolean(),
  /** Single sign-on's button: "Sign in with ‹name›" at GET /api/v1/dashboard/oidc/start; null without one. */
  sso: Type.Union([Type.Object({ name: Type.String() }), Type.Null()]),
});
