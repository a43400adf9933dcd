import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import type { ApiKeysService } from './api-keys.service.js';
import {
  API_KEY_SORT_KEYS,
  ApiKey,
  ApiKeyCreateBody,
  ApiKeyList,
  ApiKeyListQuery,
  ApiKeyParams,
  ApiKeyUpdateBody,
  ApiKeyWithSecret,
} from './api-keys.schemas.js';

// Key material must never sit in a shared or browser cache: every route here is `noStore`.
const tags = ['api-keys'];

export const apiKeysRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  app.get(
    '/api-keys',
    {
      config: { permission: 'api-keys:read', noStore: true },
      schema: { tags, querystring: ApiKeyListQuery, response: { 200: ApiKeyList, ...ErrorResponses } },
    },
    (request) =>
      apiKeys.list(request.actor, { isActive: request.query.isActive }, pageRequest(request.query, API_KEY_SORT_KEYS)),
  );

  app.post(
    '/api-keys',
    {
      config: { permission: 'api-keys:write', noStore: true },
      schema: { tags, body: ApiKeyCreateBody, response: { 201: ApiKeyWithSecret, ...ErrorResponses } },
    },
    async (request, reply) => reply.code(201).send(await apiKeys.create(request.actor, request.body)),
  );

  app.patch(
    '/api-keys/:id',
    {
      config: { permission: 'api-keys:write', noStore: true },
      schema: { tags, params: ApiKeyParams, body: ApiKeyUpdateBody, response: { 200: ApiKey, ...ErrorResponses } },
    },
    (request) => apiKeys.update(request.actor, request.params.id, request.body),
  );

  app.post(
    '/api-keys/:id/reveal',
    {
      config: { permission: 'api-keys:write', noStore: true },
      schema: { tags, params: ApiKeyParams, response: { 200: ApiKeyWithSecret, ...ErrorResponses } },
    },
    (request) => apiKeys.reveal(request.actor, request.params.id),
  );

  app.post(
    '/api-keys/:id/revoke',
    {
      config: { permission: 'api-keys:write', noStore: true },
      schema: { tags, params: ApiKeyParams, response: { 200: ApiKey, ...ErrorResponses } },
    },
    (request) => apiKeys.revoke(request.actor, request.params.id),
  );
};
