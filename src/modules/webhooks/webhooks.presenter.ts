import { toIso } from '../../shared/time.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './webhooks.repository.js';
import type { Delivery, Webhook } from './webhooks.schemas.js';

const isoOrNull = (value: string | null) => (value === null ? null : toIso(value));

export function presentWebhook(row: WebhookEndpointRow): Webhook {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types === null ? null : (JSON.parse(row.event_types) as string[]),
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    disabledAt: isoOrNull(row.disabled_at),
    failingSince: isoOrNull(row.failing_since),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

export function presentDelivery(
  row: Omit<WebhookDeliveryRow, 'workspace_id'>,
  attempts: readonly AttemptRow[],
): Delivery {
  return {
    id: row.id,
    webhookId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.status === 'pending' ? toIso(row.next_attempt_at) : null,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    skippedReason: row.skipped_reason,
    attemptLog: attempts.map((attempt) => ({
      attempt: Number(attempt.attempt),
      statusCode: attempt.status_code === null ? null : Number(attempt.status_code),
      durationMs: Number(attempt.duration_ms),
      responseExcerpt: attempt.response_excerpt,
      error: attempt.error,
      createdAt: toIso(attempt.created_at),
    })),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
