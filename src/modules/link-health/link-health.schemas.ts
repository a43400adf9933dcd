import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { PATH_MAX_LENGTH } from '../../shared/url-path.js';

/** Only error statuses are link-health: a 2xx or 3xx is not a broken link. */
const ErrorStatusCode = Type.Integer({ minimum: 400, maximum: 599 });

export const LinkHealth = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  path: Type.String(),
  referrer: Nullable(Type.String()),
  statusCode: ErrorStatusCode,
  hitCount: Type.Integer({ minimum: 1 }),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
});
export type LinkHealth = Static<typeof LinkHealth>;

export const LinkHealthReportBody = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: PATH_MAX_LENGTH }),
    referrer: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: PATH_MAX_LENGTH }))),
    statusCode: Type.Optional(ErrorStatusCode),
  },
  { additionalProperties: false },
);
export type LinkHealthReportBody = Static<typeof LinkHealthReportBody>;

export const LINK_HEALTH_SORT_KEYS = ['hitCount', 'lastSeenAt'] as const;
export type LinkHealthSortKey = (typeof LINK_HEALTH_SORT_KEYS)[number];

export const LinkHealthListQuery = listQuery(LINK_HEALTH_SORT_KEYS, {
  /** A literal, case-sensitive substring of the path. */
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type LinkHealthListQuery = Static<typeof LinkHealthListQuery>;
export const LinkHealthList = paginated(LinkHealth);
