import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../security/password.js';
import { IdOrSlugParams, Timestamp, Uuid } from '../../shared/schemas.js';
import { ALL_PERMISSIONS } from '../../security/permissions.js';

/** The shapes of docs/dashboard.md; the React app is built against that page, so they change together. */

export const Email = Type.String({ minLength: 3, maxLength: 254 });
export const NewPassword = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const WorkspaceName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
export const PermissionNames = Type.Array(Type.Union(ALL_PERMISSIONS.map((permission) => Type.Literal(permission))), {
  maxItems: ALL_PERMISSIONS.length,
  uniqueItems: true,
});

export const WorkspaceSummary = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  ownerUserId: Uuid,
  isOwner: Type.Boolean(),
  permissions: Type.Array(Type.String()),
  createdAt: Timestamp,
  /** Every member must sign in with a second factor (docs/team.md, "Second factor"). */
  requireSecondFactor: Type.Boolean(),
  /** It is required and this member has none: the workspace answers them 403 until they set one up. */
  secondFactorMissing: Type.Boolean(),
});
export type WorkspaceSummary = Static<typeof WorkspaceSummary>;

export const Session = Type.Object({
  user: Type.Object({ id: Uuid, email: Type.String() }),
  csrfToken: Type.String(),
  workspaces: Type.Array(WorkspaceSummary),
});
export type Session = Static<typeof Session>;

export const SetupStatus = Type.Object({ needed: Type.Boolean() });

export const SetupBody = Type.Object(
  { email: Email, password: NewPassword, workspaceName: WorkspaceName },
  { additionalProperties: false },
);
export type SetupBody = Static<typeof SetupBody>;

// No length floor on a sign-in password: a short wrong one gets the same 401 as any other.
export const SignInBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const SignedOut = Type.Object({ signedOut: Type.Literal(true) });

export const PasswordChangeBody = Type.Object(
  { currentPassword: Type.String({ maxLength: PASSWORD_MAX_LENGTH }), newPassword: NewPassword },
  { additionalProperties: false },
);
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;

export const WorkspaceNameBody = Type.Object({ name: WorkspaceName }, { additionalProperties: false });

/** The settings form's answer: the workspace's site settings as the workspace row holds them. */

export const Member = Type.Object({
  userId: Uuid,
  email: Type.String(),
  isOwner: Type.Boolean(),
  permissions: Type.Array(Type.String()),
  createdAt: Timestamp,
});
export type Member = Static<typeof Member>;

export const MemberAddBody = Type.Object(
  { email: Email, permissions: PermissionNames },
  { additionalProperties: false },
);
export type MemberAddBody = Static<typeof MemberAddBody>;

export const MemberPermissionsBody = Type.Object({ permissions: PermissionNames }, { additionalProperties: false });
export const TransferBody = Type.Object({ userId: Uuid }, { additionalProperties: false });
export const Removed = Type.Object({ removed: Type.Literal(true) });

export const WorkspaceParams = Type.Object({ workspaceId: Uuid }, { additionalProperties: false });
export const MemberParams = Type.Object({ workspaceId: Uuid, userId: Uuid }, { additionalProperties: false });
export const WorkspaceKeyParams = Type.Object({ workspaceId: Uuid, id: Uuid }, { additionalProperties: false });
export const WorkspaceItemParams = Type.Object(
  { workspaceId: Uuid, idOrSlug: IdOrSlugParams.properties.idOrSlug },
  { additionalProperties: false },
);

/** One of the signed-in user's sessions, as the sessions screen lists them. */
export const SessionInfo = Type.Object({
  id: Uuid,
  /** The session of the request that asked. */
  current: Type.Boolean(),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  /** Moved at most once a minute, as the session slides. */
  lastSeenAt: Timestamp,
  expiresAt: Timestamp,
});
export type SessionInfo = Static<typeof SessionInfo>;

export const SessionParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const SessionsEnded = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
