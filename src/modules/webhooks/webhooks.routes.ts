import { FieldsQuery } from '../../http/fields.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import type { WebhooksService } from './webhooks.service.js';
import {
  Delivery,
  DeliveryList,
  DeliveryListQuery,
  DeliveryParams,
  Webhook,
  WEBHOOK_SORT_KEYS,
  WebhookCreateBody,
  WebhookList,
  WebhookListQuery,
  WebhookParams,
  WebhookUpdateBody,
  WebhookWithSecret,
} from './webhooks.schemas.js';

// Answers that carry a signing secret, and delivery logs, must not sit in a cache: every route is `noStore`.
const tags = ['webhooks'];
const read = { permission: 'webhooks:read', noStore: true } as const;
const write = { permission: 'webhooks:write', noStore: true } as const;

export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.get(
    '/webhooks',
    {
      config: read,
      schema: { tags, querystring: WebhookListQuery, response: { 200: WebhookList, ...ErrorResponses } },
    },
    (request) => webhooks.list(request.actor, pageRequest(request.query, WEBHOOK_SORT_KEYS)),
  );

  app.post(
    '/webhooks',
    {
      config: write,
      schema: { tags, body: WebhookCreateBody, response: { 201: WebhookWithSecret, ...ErrorResponses } },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.actor, request.body)),
  );

  app.get(
    '/webhooks/:id',
    {
      config: read,
      schema: { tags, params: WebhookParams, querystring: FieldsQuery, response: { 200: Webhook, ...ErrorResponses } },
    },
    (request) => webhooks.get(request.actor, request.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: write,
      schema: { tags, params: WebhookParams, body: WebhookUpdateBody, response: { 200: Webhook, ...ErrorResponses } },
    },
    (request) => webhooks.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    { config: write, schema: { tags, params: WebhookParams, response: { 200: Webhook, ...ErrorResponses } } },
    (request) => webhooks.remove(request.actor, request.params.id),
  );

  app.post(
    '/webhooks/:id/reveal-secret',
    { config: write, schema: { tags, params: WebhookParams, response: { 200: WebhookWithSecret, ...ErrorResponses } } },
    (request) => webhooks.reveal(request.actor, request.params.id),
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    { config: write, schema: { tags, params: WebhookParams, response: { 200: WebhookWithSecret, ...ErrorResponses } } },
    (request) => webhooks.rotate(request.actor, request.params.id),
  );

  app.post(
    '/webhooks/:id/test',
    { config: write, schema: { tags, params: WebhookParams, response: { 201: Delivery, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await webhooks.sendTest(request.actor, request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: read,
      schema: {
        tags,
        params: WebhookParams,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryList, ...ErrorResponses },
      },
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
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    { config: write, schema: { tags, params: DeliveryParams, response: { 201: Delivery, ...ErrorResponses } } },
    async (request, reply) =>
      reply.code(201).send(await webhooks.redeliver(request.actor, request.params.id, request.params.deliveryId)),
  );
};
