import { Type, type Static } from 'typebox';
import { AUDIT_ACTIONS, AUDIT_CATEGORIES } from '../../audit/audit-log.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

/** The shapes of the audit log's screen and export (docs/team.md, "Audit log"). */

export const AuditCategory = Type.Union(AUDIT_CATEGORIES.map((category) => Type.Literal(category)));
export const AuditActionName = Type.Union(AUDIT_ACTIONS.map((action) => Type.Literal(action)));

const Filters = {
  category: Type.Optional(AuditCategory),
  action: Type.Optional(AuditActionName),
  /** A member's user id: what they did. */
  actor: Type.Optional(Uuid),
  /** Entries at or after this instant. */
  since: Type.Optional(Type.String({ format: 'date-time' })),
  /** Entries before this instant. */
  until: Type.Optional(Type.String({ format: 'date-time' })),
};

export const AuditExportQuery = Type.Object(Filters, { additionalProperties: false });
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const AuditListQuery = Type.Object(
  {
    ...Filters,
    /** The `next` of the page before: entries older than its last. */
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
export type AuditListQuery = Static<typeof AuditListQuery>;

export const AuditEntry = Type.Object({
  id: Uuid,
  at: Timestamp,
  action: AuditActionName,
  category: AuditCategory,
  /**
   * `user`: a signed-in person; `key`: an API key (and its creator); `command_line`: the `quire` command (acting
   * as the owner when `userId` is set); `anonymous`: someone not signed in (a failed sign-in), known by address.
   */
  actor: Type.Object({
    kind: Type.Union([
      Type.Literal('user'),
      Type.Literal('key'),
      Type.Literal('command_line'),
      Type.Literal('anonymous'),
    ]),
    userId: Nullable(Uuid),
    email: Nullable(Type.String()),
    apiKeyId: Nullable(Uuid),
    apiKeyName: Nullable(Type.String()),
  }),
  address: Nullable(Type.String()),
  target: Nullable(Type.Object({ type: Type.String(), id: Type.String(), label: Nullable(Type.String()) })),
  details: Type.Object({}, { additionalProperties: true }),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({
  data: Type.Array(AuditEntry),
  /** Pass as `before` for the next page; null on the last. */
  next: Nullable(Type.String()),
});
export type AuditPage = Static<typeof AuditPage>;
