import { Type, type Static } from 'typebox';
import { Fields } from '../../http/fields.js';
import { listQuery, paginated } from '../../http/pagination.js';
import { Timestamp, Uuid } from '../../shared/schemas.js';
import { PATH_MAX_LENGTH } from '../../shared/url-path.js';

export const RedirectStatusCode = Type.Union([
  Type.Literal(301),
  Type.Literal(302),
  Type.Literal(307),
  Type.Literal(308),
]);
export type RedirectStatusCode = Static<typeof RedirectStatusCode>;

/** Raw text as sent; the service normalises it (shared/url-path.ts) and names the field when it cannot. */
const PathText = Type.String({ minLength: 1, maxLength: PATH_MAX_LENGTH });

export const Redirect = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  fromPath: Type.String(),
  toPath: Type.String(),
  statusCode: RedirectStatusCode,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Redirect = Static<typeof Redirect>;

/** The redirect matching a path, and where its chain of redirects ends. */
export const RedirectResolution = Type.Object({
  ...Redirect.properties,
  /** The last target of the chain: a path (with any query or fragment it was given) or an absolute URL. */
  finalPath: Type.String(),
  /** Redirects followed to get there; 1 when the matched redirect's target is not itself redirected. */
  hops: Type.Integer({ minimum: 1 }),
});
export type RedirectResolution = Static<typeof RedirectResolution>;

export const RedirectCreateBody = Type.Object(
  { fromPath: PathText, toPath: PathText, statusCode: Type.Optional(RedirectStatusCode) },
  { additionalProperties: false },
);
export type RedirectCreateBody = Static<typeof RedirectCreateBody>;

export const RedirectUpdateBody = Type.Object(
  { fromPath: Type.Optional(PathText), toPath: Type.Optional(PathText), statusCode: Type.Optional(RedirectStatusCode) },
  { additionalProperties: false, minProperties: 1 },
);
export type RedirectUpdateBody = Static<typeof RedirectUpdateBody>;

export const REDIRECT_SORT_KEYS = ['createdAt', 'updatedAt', 'fromPath'] as const;
export type RedirectSortKey = (typeof REDIRECT_SORT_KEYS)[number];

export const RedirectListQuery = listQuery(REDIRECT_SORT_KEYS, {
  /** A literal, case-sensitive substring of fromPath or toPath (paths are case-sensitive). */
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type RedirectListQuery = Static<typeof RedirectListQuery>;
export const RedirectList = paginated(Redirect);

export const ResolveQuery = Type.Object({ path: PathText, fields: Fields }, { additionalProperties: false });
export type ResolveQuery = Static<typeof ResolveQuery>;
