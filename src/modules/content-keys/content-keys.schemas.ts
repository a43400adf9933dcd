import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Uuid } from '../../shared/schemas.js';

export const CONTENT_KEY_LIMITS = { name: 100, origins: 20, origin: 300 } as const;

const Name = Type.String({ minLength: 1, maxLength: CONTENT_KEY_LIMITS.name, pattern: '\\S' });
const Timestamp = Type.String({ format: 'date-time' });

/** `scheme://host[:port]`, as a browser sends it in `Origin`; checked further by the service (origins.ts). */
const Origin = Type.String({ minLength: 1, maxLength: CONTENT_KEY_LIMITS.origin });
const Origins = Type.Array(Origin, { maxItems: CONTENT_KEY_LIMITS.origins, uniqueItems: true });

export const ContentKeyStatus = Type.Union([Type.Literal('Active'), Type.Literal('Revoked')]);

export const ContentKey = Type.Object(
  {
    id: Uuid,
    workspaceId: Uuid,
    name: Type.String(),
    key: Type.String({
      description:
        'The key itself. A content key reads only what is published, so it is shown whenever asked: a site ' +
        'ships it in its pages.',
    }),
    keyPrefix: Type.String(),
    allowedOrigins: Type.Array(Type.String(), {
      description: 'The origins a browser may read with this key (CORS). Empty: any origin.',
    }),
    status: ContentKeyStatus,
    revokedAt: Nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdByUserId: Nullable(Uuid),
  },
  { description: 'A read-only key for the content API (/api/v1/content): published posts and pages, and their parts.' },
);
export type ContentKey = Static<typeof ContentKey>;

export const CONTENT_KEY_SORT_KEYS = ['createdAt', 'name'] as const;
export type ContentKeySortKey = (typeof CONTENT_KEY_SORT_KEYS)[number];
export const ContentKeyListQuery = listQuery(CONTENT_KEY_SORT_KEYS, {
  isActive: Type.Optional(Type.Boolean()),
});
export type ContentKeyListQuery = Static<typeof ContentKeyListQuery>;
export const ContentKeyList = paginated(ContentKey);

export const ContentKeyCreateBody = Type.Object(
  { name: Name, allowedOrigins: Type.Optional(Origins) },
  { additionalProperties: false },
);
export type ContentKeyCreateBody = Static<typeof ContentKeyCreateBody>;

export const ContentKeyUpdateBody = Type.Object(
  { name: Type.Optional(Name), allowedOrigins: Type.Optional(Origins) },
  { additionalProperties: false, minProperties: 1 },
);
export type ContentKeyUpdateBody = Static<typeof ContentKeyUpdateBody>;

export const ContentKeyParams = Type.Object({ id: Uuid }, { additionalProperties: false });
