import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { IdOrSlugParams, Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { PageUpdateBody } from '../pages/pages.schemas.js';
import { PostUpdateBody } from '../posts/posts.schemas.js';

/** `{idOrSlug}/revisions/{n}`: n is a revision's number, 1, 2, 3 … (2^31 - 1 at most, like a page number). */
export const RevisionParams = Type.Object(
  {
    idOrSlug: IdOrSlugParams.properties.idOrSlug,
    n: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The revision number: 1, 2, 3 …' }),
  },
  { additionalProperties: false },
);
export type RevisionParams = Static<typeof RevisionParams>;

export const REVISION_ACTIONS = ['created', 'updated', 'published', 'unpublished', 'archived'] as const;

/** What a list of revisions shows of each: who wrote it, when, and the slug and title it left. */
const summary = {
  n: Type.Integer({ minimum: 1 }),
  action: Type.Unsafe<(typeof REVISION_ACTIONS)[number]>({ type: 'string', enum: [...REVISION_ACTIONS] }),
  slug: Type.String(),
  title: Type.String(),
  userId: Nullable(Uuid),
  apiKeyId: Nullable(Uuid),
  createdAt: Timestamp,
};

export const RevisionSummary = Type.Object(summary);
export type RevisionSummary = Static<typeof RevisionSummary>;

/** One revision: the summary and `fields`, every writable field as the write left it (a PATCH body). */
export const PostRevision = Type.Object({ ...summary, fields: PostUpdateBody });
export type PostRevision = Static<typeof PostRevision>;
export const PageRevision = Type.Object({ ...summary, fields: PageUpdateBody });
export type PageRevision = Static<typeof PageRevision>;

export const REVISION_SORT_KEYS = ['n'] as const;
export const RevisionListQuery = listQuery(REVISION_SORT_KEYS, {});
export type RevisionListQuery = Static<typeof RevisionListQuery>;
export const RevisionList = paginated(RevisionSummary);
