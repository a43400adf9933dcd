import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import { Uuid } from '../../shared/schemas.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import {
  Delivery,
  DeliveryList,
  DeliveryListQuery,
  Webhook,
  WEBHOOK_SORT_KEYS,
  WebhookCreateBody,
  WebhookList,
  WebhookListQuery,
  WebhookUpdateBody,
  WebhookWithSecret,
} from '../webhooks/webhooks.schemas.js';
import { WorkspaceKeyParams, WorkspaceParams } from './dashboard.schemas.js';

const tags = ['dashboard'];
// The dashboard scope answers every response with `Cache-Control: no-store`; secrets included.
const read = { permission: 'webhooks:read' } as const;
const write = { permission: 'webhooks:write' } as const;
const DeliveryParams = Type.Object({ workspaceId: Uuid, id: Uuid, deliveryId: Uuid }, { additionalProperties: false });

/** The webhooks screen's routes: the external API's service and shapes, with the session's Actor. */
export const dashboardWebhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (
  app,
  { webhooks },
) => {
  const base = '/workspaces/:workspaceId/webhooks';
  const one = { tags, params: WorkspaceKeyParams };

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        params: WorkspaceParams,
        querystring: WebhookListQuery,
        response: { 200: WebhookList, ...ErrorResponses },
      },
    },
    (request) => webhooks.list(request.actor, pageRequest(request.query, WEBHOOK_SORT_KEYS)),
  );
  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        params: WorkspaceParams,
        body: WebhookCreateBody,
        response: { 201: WebhookWithSecret, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.actor, request.body)),
  );
  app.patch(
    `${base}/:id`,
    { config: write, schema: { ...one, body: WebhookUpdateBody, response: { 200: Webhook, ...ErrorResponses } } },
    (request) => webhooks.update(request.actor, request.params.id, request.body),
  );
  app.delete(
    `${base}/:id`,
    { config: write, schema: { ...one, response: { 200: Webhook, ...ErrorResponses } } },
    (request) => webhooks.remove(request.actor, request.params.id),
  );
  app.post(
    `${base}/:id/reveal-secret`,
    { config: write, schema: { ...one, response: { 200: WebhookWithSecret, ...ErrorResponses } } },
    (request) => webhooks.reveal(request.actor, request.params.id),
  );
  app.post(
    `${base}/:id/rotate-secret`,
    { config: write, schema: { ...one, response: { 200: WebhookWithSecret, ...ErrorResponses } } },
    (request) => webhooks.rotate(request.actor, request.params.id),
  );
  app.post(
    `${base}/:id/test`,
    { config: write, schema: { ...one, response: { 201: Delivery, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await webhooks.sendTest(request.actor, request.params.id)),
  );
  app.get(
    `${base}/:id/deliveries`,
    {
      config: read,
      schema: { ...one, querystring: DeliveryListQuery, response: { 200: DeliveryList, ...ErrorResponses } },
    },
    (request) =>
      webhooks.listDeliveries(
        request.actor,
        request.params.id,
        { status: request.query.status },
        pageRequest(request.query, WEBHOOK_SORT_KEYS),
      ),
  );
  app.post(
    `${base}/:id/deliveries/:deliveryId/redeliver`,
    { config: write, schema: { tags, params: DeliveryParams, response: { 201: Delivery, ...ErrorResponses } } },
    async (request, reply) =>
      reply.code(201).send(await webhooks.redeliver(request.actor, request.params.id, request.params.deliveryId)),
  );
};
