import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { COMMENT_MAX_LENGTH } from './review-rules.js';

/** The shapes of review (docs/team.md, "Review"): a draft submitted, its thread, the queue, and the inbox. */

export const ReviewStateSchema = Type.Union([
  Type.Literal('in_review'),
  Type.Literal('changes_requested'),
  Type.Literal('approved'),
  Type.Literal('withdrawn'),
]);
export type ReviewState = Static<typeof ReviewStateSchema>;

const Kind = Type.Union([Type.Literal('post'), Type.Literal('page')]);
export type ReviewKind = Static<typeof Kind>;
const EntryTypeSchema = Type.Union([
  Type.Literal('submitted'),
  Type.Literal('comment'),
  Type.Literal('changes_requested'),
  Type.Literal('approved'),
  Type.Literal('withdrawn'),
]);
export type EntryType = Static<typeof EntryTypeSchema>;
const NotificationTypeSchema = Type.Union([
  Type.Literal('review_submitted'),
  Type.Literal('review_comment'),
  Type.Literal('changes_requested'),
  Type.Literal('approved'),
]);
export type NotificationType = Static<typeof NotificationTypeSchema>;

/** Words of a person, trimmed by nobody: what they typed is kept, but not nothing. */
const Words = Type.String({ minLength: 1, maxLength: COMMENT_MAX_LENGTH, pattern: '\\S' });

const Person = Type.Object({
  /** Null once the account is gone; the email stays as it was. */
  userId: Nullable(Uuid),
  email: Type.String(),
});

const Resource = Type.Object({
  id: Uuid,
  title: Type.String(),
  slug: Type.String(),
  status: Type.String(),
  updatedAt: Timestamp,
});

export const ReviewEntry = Type.Object({
  id: Uuid,
  type: EntryTypeSchema,
  /** The comment, or what came with a decision; null when none did. */
  body: Nullable(Type.String()),
  author: Person,
  createdAt: Timestamp,
});
export type ReviewEntry = Static<typeof ReviewEntry>;

/** What a review and a row of the queue both say. */
const ReviewHead = {
  id: Uuid,
  kind: Kind,
  resource: Resource,
  state: ReviewStateSchema,
  submittedBy: Person,
  submittedAt: Timestamp,
  updatedAt: Timestamp,
};

export const Review = Type.Object({
  ...ReviewHead,
  /** Who last requested changes, approved or withdrew, and when; null while nobody has since the submission. */
  decidedBy: Nullable(Person),
  decidedAt: Nullable(Timestamp),
  /** The thread, oldest first. */
  entries: Type.Array(ReviewEntry),
});
export type Review = Static<typeof Review>;

export const ReviewSummary = Type.Object({ ...ReviewHead, comments: Type.Integer() });
export type ReviewSummary = Static<typeof ReviewSummary>;

export const ReviewQueueQuery = Type.Object(
  {
    /** `in_review` unless given. */
    state: Type.Optional(ReviewStateSchema),
    kind: Type.Optional(Kind),
    /** Only reviews the signed-in member submitted. */
    mine: Type.Optional(Type.Boolean()),
    /** The `next` of the page before. */
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>;

export const ReviewQueue = Type.Object({
  data: Type.Array(ReviewSummary),
  /** Pass as `before` for the next page; null on the last. */
  next: Nullable(Type.String()),
  /** How many reviews the member may see wait on a reviewer, and wait on their writer. */
  counts: Type.Object({ in_review: Type.Integer(), changes_requested: Type.Integer() }),
});
export type ReviewQueue = Static<typeof ReviewQueue>;

export const SubmitBody = Type.Object({ comment: Type.Optional(Words) }, { additionalProperties: false });
export type SubmitBody = Static<typeof SubmitBody>;
export const CommentBody = Type.Object({ body: Words }, { additionalProperties: false });
export type CommentBody = Static<typeof CommentBody>;
export const RequestChangesBody = Type.Object({ comment: Words }, { additionalProperties: false });
export type RequestChangesBody = Static<typeof RequestChangesBody>;
export const ApproveBody = Type.Object(
  {
    comment: Type.Optional(Words),
    /** Publish the draft in the same write (true unless given); false approves it and leaves it a draft. */
    publish: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ApproveBody = Static<typeof ApproveBody>;
export const WithdrawBody = Type.Object({ comment: Type.Optional(Words) }, { additionalProperties: false });
export type WithdrawBody = Static<typeof WithdrawBody>;

export const Notification = Type.Object({
  id: Uuid,
  type: NotificationTypeSchema,
  review: Type.Object({ id: Uuid, kind: Kind, resourceId: Uuid, title: Type.String(), state: ReviewStateSchema }),
  /** Who did what the notification tells. */
  actor: Person,
  /** The start of the comment that came with it, if any. */
  excerpt: Nullable(Type.String()),
  createdAt: Timestamp,
  readAt: Nullable(Timestamp),
});
export type Notification = Static<typeof Notification>;

export const NotificationsQuery = Type.Object(
  {
    unread: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30 })),
  },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const Notifications = Type.Object({ data: Type.Array(Notification), unread: Type.Integer() });
export type Notifications = Static<typeof Notifications>;

export const ReadNotificationsBody = Type.Object(
  {
    /** These; or, without `ids`, all of the member's notifications in the workspace. */
    ids: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type ReadNotificationsBody = Static<typeof ReadNotificationsBody>;

export const UnreadCount = Type.Object({ unread: Type.Integer() });
