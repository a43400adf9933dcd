import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { MasterKey } from '../../security/master-key.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { nowIso } from '../../shared/time.js';
import { eventBody, newEventId, queueDeliveries, type OutboxEvent } from '../../writes/webhook-outbox.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Actor } from '../../security/actor.js';
import { requireReadable } from './webhook-permissions.js';
import { checkWebhookUrl } from './webhook-url.js';
import { decryptWebhookSecret, encryptWebhookSecret, generateSecret } from './webhook-secret.js';
import { presentDelivery, presentWebhook } from './webhooks.presenter.js';
import { webhooksRepository as repo, type WebhookEndpointRow } from './webhooks.repository.js';
import {
  TEST_EVENT_TYPE,
  type Delivery,
  type DeliveryListQuery,
  type Webhook,
  type WebhookCreateBody,
  type WebhookUpdateBody,
  type WebhookWithSecret,
} from './webhooks.schemas.js';

export interface WebhooksOptions {
  /** QUIRE_WEBHOOK_ALLOW_PRIVATE: endpoints may name loopback and private addresses. */
  allowPrivate: boolean;
  /** QUIRE_WEBHOOK_ENDPOINTS_MAX: the most endpoints a workspace may have. */
  endpointsMax: number;
}

/** Endpoints, their secrets and their deliveries. Each workspace's alone: every query is scoped to it. */

/**
 * How the audit log names an endpoint: its origin and path. A query string or user info can carry a token, and
 * the log keeps no secret.
 */
function endpointTarget(id: string, url: string) {
  const { origin, pathname } = new URL(url);
  return { type: 'webhook', id, label: origin + pathname };
}

export function createWebhooksService(database: DatabaseHandle, masterKey: MasterKey, options: WebhooksOptions) {
  const { db } = database;

  async function requireEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointRow> {
    const row = await repo.findById(db, workspaceId, id);
    if (!row) throw notFound('Webhook');
    return row;
  }

  function withSecret(row: WebhookEndpointRow, secret: string): WebhookWithSecret {
    return { ...presentWebhook(row), secret };
  }

  /** A delivery can only be sent to an enabled endpoint; queuing one for a disabled endpoint would sit there. */
  function requireEnabled(row: WebhookEndpointRow): void {
    if (!row.enabled) throw badRequest('The webhook is disabled; enable it first', { reason: 'webhook_disabled' });
  }

  async function presentDeliveries(workspaceId: string, rows: Parameters<typeof presentDelivery>[0][]) {
    const attempts = await repo.attemptsOf(
      db,
      workspaceId,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      presentDelivery(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
    );
  }

  return {
    async list(actor: Actor, page: PageRequest): Promise<Paginated<Webhook>> {
      const { rows, total } = await repo.list(db, actor.workspaceId, page);
      return pageOf(page, rows.map(presentWebhook), total);
    },

    async get(actor: Actor, id: string): Promise<Webhook> {
      return presentWebhook(await requireEndpoint(actor.workspaceId, id));
    },

    /** The secret is answered here, and on an explicit reveal or rotation only. */
    async create(actor: Actor, body: WebhookCreateBody): Promise<WebhookWithSecret> {
      const url = checkWebhookUrl(body.url, options.allowPrivate);
      requireReadable(actor, body.eventTypes ?? null);
      const id = crypto.randomUUID();
      const secret = generateSecret();
      const now = nowIso();
      const enabled = body.enabled ?? true;
      await writeTransaction(database, async (trx) => {
        // Counted with the workspace locked, so two creations at once cannot both take the last place.
        const count = await repo.countLocked(trx, database.dialect, actor.workspaceId);
        if (count >= options.endpointsMax)
          throw conflict(
            `This workspace has ${count} webhook endpoints, the most it may have; delete one before adding another`,
            { reason: 'webhook_endpoints_max', max: options.endpointsMax },
          );
        await repo.insert(trx, actor.workspaceId, {
          id,
          url,
          user_id: actor.userId,
          description: body.description?.trim() ?? '',
          event_types: body.eventTypes ? JSON.stringify(body.eventTypes) : null,
          enabled,
          secret_encrypted: encryptWebhookSecret(masterKey, secret, id, actor.workspaceId),
          master_key_id: masterKey.id,
          disabled_reason: enabled ? null : 'disabled by a user',
          disabled_at: enabled ? null : now,
          failing_since: null,
          created_at: now,
          updated_at: now,
        });
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'webhook.created',
          target: endpointTarget(id, url),
          details: { eventTypes: body.eventTypes ?? null, enabled },
        });
      });
      return withSecret(await requireEndpoint(actor.workspaceId, id), secret);
    },

    async update(actor: Actor, id: string, body: WebhookUpdateBody): Promise<Webhook> {
      const current = await requireEndpoint(actor.workspaceId, id);
      const now = nowIso();
      const patch: Parameters<typeof repo.update>[3] = { updated_at: now };
      if (body.url !== undefined) patch.url = checkWebhookUrl(body.url, options.allowPrivate);
      if (body.description !== undefined) patch.description = body.description.trim();
      if (body.eventTypes !== undefined)
        patch.event_types = body.eventTypes === null ? null : JSON.stringify(body.eventTypes);
      // Who says where an endpoint sends, or what, takes it over: from then on it sends what they may read.
      if (body.url !== undefined || body.eventTypes !== undefined) {
        const eventTypes =
          body.eventTypes !== undefined ? body.eventTypes : (presentWebhook(current).eventTypes as string[] | null);
        requireReadable(actor, eventTypes);
        patch.user_id = actor.userId;
      }
      if (body.enabled !== undefined && body.enabled !== Boolean(current.enabled)) {
        patch.enabled = body.enabled;
        // Enabling starts afresh: the failures that disabled it are behind it.
        patch.disabled_reason = body.enabled ? null : 'disabled by a user';
        patch.disabled_at = body.enabled ? null : now;
        patch.failing_since = null;
      }
      await writeTransaction(database, async (trx) => {
        await repo.update(trx, actor.workspaceId, id, patch);
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'webhook.updated',
          target: endpointTarget(id, patch.url ?? current.url),
          details: {
            ...(patch.url !== undefined && { url: endpointTarget(id, patch.url).label }),
            ...(body.description !== undefined && { description: patch.description ?? '' }),
            ...(body.eventTypes !== undefined && { eventTypes: body.eventTypes }),
            ...(patch.enabled !== undefined && { enabled: patch.enabled }),
          },
        });
      });
      return presentWebhook(await requireEndpoint(actor.workspaceId, id));
    },

    /** Answers the endpoint as it was; its pending deliveries are deleted with it and never sent. */
    async remove(actor: Actor, id: string): Promise<Webhook> {
      const current = await requireEndpoint(actor.workspaceId, id);
      await writeTransaction(database, async (trx) => {
        await repo.delete(trx, actor.workspaceId, id);
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'webhook.deleted',
          target: endpointTarget(id, current.url),
        });
      });
      return presentWebhook(current);
    },

    async reveal(actor: Actor, id: string): Promise<WebhookWithSecret> {
      const row = await requireEndpoint(actor.workspaceId, id);
      await recordAudit(db, actor.workspaceId, actor, {
        action: 'webhook.secret_revealed',
        target: endpointTarget(id, row.url),
      });
      return withSecret(row, decryptWebhookSecret(masterKey, row.secret_encrypted, row.id, row.workspace_id));
    },

    /** A new secret at once: deliveries sent from now on are signed with it, retries of older ones included. */
    async rotate(actor: Actor, id: string): Promise<WebhookWithSecret> {
      const current = await requireEndpoint(actor.workspaceId, id);
      const secret = generateSecret();
      await writeTransaction(database, async (trx) => {
        await repo.update(trx, actor.workspaceId, id, {
          secret_encrypted: encryptWebhookSecret(masterKey, secret, id, actor.workspaceId),
          master_key_id: masterKey.id,
          updated_at: nowIso(),
        });
        await recordAudit(trx, actor.workspaceId, actor, {
          action: 'webhook.secret_rotated',
          target: endpointTarget(id, current.url),
        });
      });
      return withSecret(await requireEndpoint(actor.workspaceId, id), secret);
    },

    async listDeliveries(
      actor: Actor,
      id: string,
      filter: Pick<DeliveryListQuery, 'status'>,
      page: PageRequest,
    ): Promise<Paginated<Delivery>> {
      await requireEndpoint(actor.workspaceId, id);
      const { rows, total } = await repo.listDeliveries(db, actor.workspaceId, id, { status: filter.status }, page);
      return pageOf(page, await presentDeliveries(actor.workspaceId, rows), total);
    },

    /** The same event (id, type, body) queued again as a new delivery, due at once. */
    async redeliver(actor: Actor, id: string, deliveryId: string): Promise<Delivery> {
      const endpoint = await requireEndpoint(actor.workspaceId, id);
      const original = await repo.findDelivery(db, actor.workspaceId, id, deliveryId);
      if (!original) throw notFound('Delivery');
      requireEnabled(endpoint);
      return queueOne(endpoint, original.event_id, original.event_type, null);
    },

    /** A `webhook.test` event to this endpoint alone, whatever types it subscribes to. */
    async sendTest(actor: Actor, id: string): Promise<Delivery> {
      const endpoint = await requireEndpoint(actor.workspaceId, id);
      requireEnabled(endpoint);
      const eventId = newEventId();
      const now = nowIso();
      const data = JSON.stringify({ webhookId: endpoint.id, workspaceId: endpoint.workspace_id });
      const payload = eventBody(eventId, TEST_EVENT_TYPE, now, data);
      return queueOne(endpoint, eventId, TEST_EVENT_TYPE, payload);
    },
  };

  /** One delivery of an event to an endpoint; `payload` is the body of a new event, null for one already kept. */
  async function queueOne(
    endpoint: WebhookEndpointRow,
    eventId: string,
    eventType: string,
    payload: string | null,
  ): Promise<Delivery> {
    const deliveryId = crypto.randomUUID();
    const workspaceId = endpoint.workspace_id;
    const events: OutboxEvent[] =
      payload === null ? [] : [{ event_id: eventId, workspace_id: workspaceId, event_type: eventType, payload }];
    const delivery = { id: deliveryId, workspace_id: workspaceId, endpoint_id: endpoint.id, event_id: eventId };
    await queueDeliveries(database, events, [{ ...delivery, event_type: eventType }], nowIso());
    const row = await repo.findDelivery(db, workspaceId, endpoint.id, deliveryId);
    if (!row) throw notFound('Delivery');
    return presentDelivery(row, []);
  }
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
