import { Type, type Static } from 'typebox';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { EVENT_TYPES } from '../../writes/event-types.js';

export const WEBHOOK_LIMITS = { url: 2000, description: 500, eventTypes: 100 } as const;

/** The event every endpoint may be sent on demand (POST …/test), whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

const EventType = Type.Enum([...EVENT_TYPES], { description: 'An event type (`post.published` …).' });
const EventTypes = Nullable(
  Type.Array(EventType, {
    minItems: 1,
    maxItems: WEBHOOK_LIMITS.eventTypes,
    uniqueItems: true,
    description: 'The event types sent to this endpoint; null sends every type, those added later included.',
  }),
);
const Url = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_LIMITS.url,
  description: 'An absolute http or https URL, without credentials.',
});
const Description = Type.String({ maxLength: WEBHOOK_LIMITS.description });

export const Webhook = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  url: Type.String(),
  description: Type.String(),
  eventTypes: Nullable(Type.Array(Type.String())),
  enabled: Type.Boolean(),
  /** Why the endpoint was disabled (by hand, a 410, or failing for days) and when; null while enabled. */
  disabledReason: Nullable(Type.String()),
  disabledAt: Nullable(Timestamp),
  /** Since when every attempt to this endpoint has failed; null when the last one succeeded. */
  failingSince: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Webhook = Static<typeof Webhook>;

/** The only shape that carries the signing secret: the create, rotate and reveal answers. */
export const WebhookWithSecret = Type.Intersect([
  Webhook,
  Type.Object({ secret: Type.String({ description: '`whsec_` and base64: the Standard Webhooks signing secret.' }) }),
]);
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

export const WebhookCreateBody = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

export const WebhookUpdateBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

export const WEBHOOK_SORT_KEYS = ['createdAt'] as const;
export type WebhookSortKey = (typeof WEBHOOK_SORT_KEYS)[number];
export const WebhookListQuery = listQuery(WEBHOOK_SORT_KEYS, {});
export const WebhookList = paginated(Webhook);

export const WebhookParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const DeliveryParams = Type.Object({ id: Uuid, deliveryId: Uuid }, { additionalProperties: false });

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]);

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  /** The receiver's status code; null when no answer came (refused address, timeout, connection error). */
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer({ minimum: 0 }),
  /** The answer's first 2 KB. */
  responseExcerpt: Nullable(Type.String()),
  error: Nullable(Type.String()),
  createdAt: Timestamp,
});

export const Delivery = Type.Object({
  id: Uuid,
  webhookId: Uuid,
  eventId: Type.String(),
  eventType: Type.String(),
  status: DeliveryStatus,
  /** Attempts made so far (an attempt under way counts). */
  attempts: Type.Integer({ minimum: 0 }),
  /** When the next attempt is due; null once the delivery succeeded or failed. */
  nextAttemptAt: Nullable(Timestamp),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  skippedReason: Nullable(
    Type.String({
      description:
        "Why the delivery was not sent (its status is then `failed`): the endpoint's user may not read its resource type, by the permissions they held when it fell due.",
    }),
  ),
  /** Every attempt, oldest first. */
  attemptLog: Type.Array(DeliveryAttempt),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Delivery = Static<typeof Delivery>;

export const DeliveryListQuery = listQuery(WEBHOOK_SORT_KEYS, {
  status: Type.Optional(DeliveryStatus),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;
export const DeliveryList = paginated(Delivery);
