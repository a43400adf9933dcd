import { Type, type Static, type TSchema } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { PageStatus, PageUpdateBody } from '../pages/pages.schemas.js';
import { PostStatus, PostUpdateBody } from '../posts/posts.schemas.js';

/** A post's tags as a pending set holds them: what Update makes them, all at once. */
const MAX_TAGS = 100;

/** The fields a PATCH writes, less the status: a status move is a decision of its own (apply takes it). */
function withoutStatus<P extends Record<string, TSchema>>(properties: P): Omit<P, 'status'> {
  const { status: _status, ...rest } = properties;
  return rest;
}

export const PostPendingFields = Type.Object(
  {
    ...withoutStatus(PostUpdateBody.properties),
    tagIds: Type.Optional(
      Type.Array(Uuid, {
        maxItems: MAX_TAGS,
        uniqueItems: true,
        description: 'The tags the post will have after Update (all of them, not the ones added).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'The fields of a post that differ from its live version: a PATCH body without `status`.',
  },
);
export type PostPendingFields = Static<typeof PostPendingFields>;

export const PagePendingFields = Type.Object(withoutStatus(PageUpdateBody.properties), {
  additionalProperties: false,
  description: 'The fields of a page that differ from its live version: a PATCH body without `status`.',
});
export type PagePendingFields = Static<typeof PagePendingFields>;

const ChangesDescription =
  'The fields that differ from the live version, each as it will be after Update. A save replaces the whole set.';

export const pendingBody = <F extends TSchema>(fields: F) =>
  Type.Object(
    {
      baseVersion: Type.String({
        format: 'date-time',
        description:
          'The `updatedAt` of the live version these changes were made on. A save on another version is refused ' +
          '(409, `details.reason` "stale", `details.version` the live one now), as an Update would be.',
      }),
      changes: { ...fields, description: ChangesDescription } as F,
    },
    { additionalProperties: false },
  );
export const PostPendingBody = pendingBody(PostPendingFields);
export const PagePendingBody = pendingBody(PagePendingFields);
export type PendingBody = { baseVersion: string; changes: PostPendingFields | PagePendingFields };

export const pendingAnswer = <F extends TSchema>(kind: 'post' | 'page', fields: F) =>
  Type.Object(
    {
      resourceType: Type.Literal(kind),
      resourceId: Uuid,
      baseVersion: Timestamp,
      stale: Type.Boolean({
        description:
          'The live version moved past `baseVersion` since: Update is refused until the changes are saved again ' +
          'on the version now live.',
      }),
      changes: { ...fields, description: ChangesDescription } as F,
      base: Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'The writable fields of the live version the changes were made on, as a revision keeps them (tags ' +
            'aside): what to merge from once `stale`, when the live version moved on.',
        },
      ),
      updatedBy: Type.Object({ userId: Nullable(Uuid), apiKeyId: Nullable(Uuid) }),
      createdAt: Timestamp,
      updatedAt: Type.String({
        format: 'date-time',
        description: "The set's own version: name it in quotes in If-Match to save, apply or discard only this set.",
      }),
    },
    { description: `The changes of a live ${kind} that are not live yet.` },
  );
export const PostPending = pendingAnswer('post', PostPendingFields);
export const PagePending = pendingAnswer('page', PagePendingFields);

export interface Pending {
  resourceType: 'post' | 'page';
  resourceId: string;
  baseVersion: string;
  stale: boolean;
  changes: Record<string, unknown>;
  base: Record<string, unknown>;
  updatedBy: { userId: string | null; apiKeyId: string | null };
  createdAt: string;
  updatedAt: string;
}

export const applyBody = <S extends TSchema>(status: S) =>
  Type.Object(
    {
      status: Type.Optional({
        ...status,
        description: 'A status to move to in the same write: `draft` unpublishes with the changes kept in the draft.',
      } as S),
    },
    { additionalProperties: false },
  );
export const PostApplyBody = applyBody(PostStatus);
export const PageApplyBody = applyBody(PageStatus);
export type ApplyBody = { status?: string };

export const PendingHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'The pending set being edited: its `updatedAt` in quotes, or `*` for any. When the set moved on, the ' +
        'request answers 409 with `details.reason` "pending_changed" and `details.version`, its `updatedAt` now.',
    }),
  ),
  'if-none-match': Type.Optional(
    Type.Literal('*', { description: 'Save only when no pending set exists yet (a first save by a second writer).' }),
  ),
});
