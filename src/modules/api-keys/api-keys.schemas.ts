import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';

export const KEY_NAME_MAX_LENGTH = 100;

const Name = Type.String({ minLength: 1, maxLength: KEY_NAME_MAX_LENGTH, pattern: '\\S' });
const Timestamp = Type.String({ format: 'date-time' });

export const ApiKeyStatus = Type.Union([Type.Literal('Active'), Type.Literal('Expired'), Type.Literal('Revoked')]);
export type ApiKeyStatus = Static<typeof ApiKeyStatus>;

export const ApiKey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  workspaceId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  keyPrefix: Type.String(),
  status: ApiKeyStatus,
  expiresAt: Type.Union([Timestamp, Type.Null()]),
  revokedAt: Type.Union([Timestamp, Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: Type.Object({ userId: Type.String({ format: 'uuid' }), email: Type.String() }),
});
export type ApiKey = Static<typeof ApiKey>;

/** The only two shapes that ever carry the plaintext: the create and the reveal responses. */
export const ApiKeyWithSecret = Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]);
export type ApiKeyWithSecret = Static<typeof ApiKeyWithSecret>;

export const API_KEY_SORT_KEYS = ['createdAt', 'name', 'expiresAt'] as const;
export type ApiKeySortKey = (typeof API_KEY_SORT_KEYS)[number];
export const ApiKeyListQuery = listQuery(API_KEY_SORT_KEYS, {
  isActive: Type.Optional(Type.Boolean()),
});
export type ApiKeyListQuery = Static<typeof ApiKeyListQuery>;
export const ApiKeyList = paginated(ApiKey);

export const ApiKeyCreateBody = Type.Object(
  { name: Name, expiresAt: Type.Optional(Type.Union([Timestamp, Type.Null()])) },
  { additionalProperties: false },
);
export type ApiKeyCreateBody = Static<typeof ApiKeyCreateBody>;

export const ApiKeyUpdateBody = Type.Object(
  { name: Type.Optional(Name), expiresAt: Type.Optional(Type.Union([Timestamp, Type.Null()])) },
  { additionalProperties: false, minProperties: 1 },
);
export type ApiKeyUpdateBody = Static<typeof ApiKeyUpdateBody>;

export const ApiKeyParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
