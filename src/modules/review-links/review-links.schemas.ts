import { Type, type Static } from 'typebox';
import { IdOrSlugParams, Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

const DAY = 24 * 3600;

/** How long a link reads its post or page: a week unless asked otherwise, an hour at least, a month at most. */
export const REVIEW_LINK_TTL = { default: 7 * DAY, min: 3600, max: 30 * DAY } as const;
/** Links a post or page may have at once: a bound on what one resource's list answers and stores. */
export const REVIEW_LINKS_MAX = 50;
export const REVIEW_NOTE_MAX = 200;

export const ReviewLinkCreateBody = Type.Object(
  {
    expiresInSeconds: Type.Optional(
      Type.Integer({
        minimum: REVIEW_LINK_TTL.min,
        maximum: REVIEW_LINK_TTL.max,
        default: REVIEW_LINK_TTL.default,
        description: 'How long the link reads the post or page: 7 days unless asked otherwise, 1 hour to 30 days.',
      }),
    ),
    note: Type.Optional(
      Type.String({
        maxLength: REVIEW_NOTE_MAX,
        description: 'Who the link is for or why, for the people who manage it; the reader never sees it.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewLinkCreateBody = Static<typeof ReviewLinkCreateBody>;

export const ReviewLink = Type.Object(
  {
    id: Uuid,
    resourceType: Type.Union([Type.Literal('post'), Type.Literal('page')]),
    resourceId: Uuid,
    note: Nullable(Type.String()),
    url: Type.String({
      description:
        'The page that shows the post or page, as its pending changes will leave it, to anyone who has the link: ' +
        'no account or key needed. Key material: share it only with the reader.',
    }),
    expiresAt: Timestamp,
    expired: Type.Boolean({ description: 'The link reads nothing any more; it stays listed until withdrawn.' }),
    createdAt: Timestamp,
    createdBy: Type.Object({ userId: Nullable(Uuid), apiKeyId: Nullable(Uuid) }),
    openedCount: Type.Integer({ minimum: 0, description: 'How many times the page was read through this link.' }),
    lastOpenedAt: Nullable(Timestamp),
  },
  {
    description:
      'An expiring, read-only link that lets someone without an account read a draft post or page, or the ' +
      'pending changes of a live one, before it goes out.',
  },
);
export type ReviewLink = Static<typeof ReviewLink>;

export const ReviewLinkList = Type.Object(
  { data: Type.Array(ReviewLink, { maxItems: REVIEW_LINKS_MAX, description: 'Newest first.' }) },
  { description: 'The review links of one post or page, newest first.' },
);
export type ReviewLinkList = Static<typeof ReviewLinkList>;

export const ReviewLinkParams = Type.Object(
  { idOrSlug: IdOrSlugParams.properties.idOrSlug, id: Uuid },
  { additionalProperties: false },
);
