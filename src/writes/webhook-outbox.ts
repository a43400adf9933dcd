import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { writeTransaction } from '../db/transaction.js';
import type { Writer } from '../security/writer.js';
import type { Change } from './changes.js';
import { eventType } from './event-types.js';
import { contentKind } from './kinds.js';
import { webhookOutboxRepository, type OutboxDelivery, type OutboxEvent } from './webhook-outbox.repository.js';

export type { OutboxDelivery, OutboxEvent };

/** A new event id: what `webhook-id` carries and a receiver deduplicates on. */
export function newEventId(): string {
  return `evt_${crypto.randomUUID()}`;
}

/** The body of a webhook: the Standard Webhooks shape, `data` already serialized. */
export function eventBody(id: string, type: string, timestamp: string, dataJson: string): string {
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${dataJson}}`;
}

/**
 * The resource an event carries. The write's answer is the resource as the API reads it (for a deletion, the
 * snapshot from before it), so the change it answers for carries it whole. A resource a write changed on the
 * side (the posts whose featured image a media deletion cleared) carries its id and slug: the receiver reads it.
 */
function eventData(change: Change, changes: readonly Change[], answer: unknown): string {
  const answered =
    typeof answer === 'object' &&
    answer !== null &&
    ((answer as { id?: unknown }).id === change.id || (change.type === 'settings' && changes.length === 1));
  return answered
    ? contentKind(change.type).serialize(answer)
    : JSON.stringify(change.slug === null ? { id: change.id } : { id: change.id, slug: change.slug });
}

/** An endpoint's subscription, parsed once per write: null takes every type. */
function subscriptionOf(eventTypes: string | null): ReadonlySet<string> | null {
  return eventTypes === null ? null : new Set(JSON.parse(eventTypes) as string[]);
}

/**
 * Writes the outbox rows of a content write, in its transaction: the body of each event some enabled endpoint
 * subscribes to, once, and one delivery per (event, such endpoint). The endpoints are read once, and each
 * table's rows go in one insert. Answers how many deliveries it queued.
 */
export async function recordDeliveries(
  trx: Kysely<Database>,
  writer: Writer,
  changes: readonly Change[],
  answer: unknown,
  now: string,
): Promise<number> {
  const rows = await webhookOutboxRepository.enabledEndpoints(trx, writer.workspaceId);
  if (rows.length === 0) return 0;
  const endpoints = rows.map((row) => ({ id: row.id, types: subscriptionOf(row.event_types) }));
  const events: OutboxEvent[] = [];
  const deliveries: OutboxDelivery[] = [];
  for (const change of changes) {
    const type = eventType(change.type, change.action);
    const wanting = endpoints.filter((endpoint) => endpoint.types === null || endpoint.types.has(type));
    if (wanting.length === 0) continue;
    const eventId = newEventId();
    const payload = eventBody(eventId, type, now, eventData(change, changes, answer));
    events.push({ event_id: eventId, workspace_id: writer.workspaceId, event_type: type, payload });
    for (const endpoint of wanting)
      deliveries.push({
        id: crypto.randomUUID(),
        workspace_id: writer.workspaceId,
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_type: type,
      });
  }
  await webhookOutboxRepository.enqueue(trx, events, deliveries, now);
  return deliveries.length;
}

const listeners = new Set<() => void>();
let pendingWake = false;

/**
 * Tells this process's dispatcher that deliveries were committed, so it need not wait for its next poll (other
 * processes' dispatchers find them by polling).
 */
export function deliveriesQueued(): void {
  if (pendingWake) return;
  pendingWake = true;
  setImmediate(() => {
    pendingWake = false;
    for (const listener of listeners) listener();
  });
}

/** The dispatcher listens here; answers the function that stops listening. */
export function onDeliveriesQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Queues deliveries that announce no new content event, in a transaction of their own: a redelivery (its
 * event's body is kept already), a test event (its body given here). Content writes queue theirs through
 * contentWrite alone.
 */
export async function queueDeliveries(
  database: DatabaseHandle,
  events: readonly OutboxEvent[],
  deliveries: readonly OutboxDelivery[],
  now: string,
): Promise<void> {
  await writeTransaction(database, (trx) => webhookOutboxRepository.enqueue(trx, events, deliveries, now));
  deliveriesQueued();
}
