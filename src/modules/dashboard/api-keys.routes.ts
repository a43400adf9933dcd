import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import {
  API_KEY_SORT_KEYS,
  ApiKey,
  ApiKeyCreateBody,
  ApiKeyList,
  ApiKeyListQuery,
  ApiKeyUpdateBody,
  ApiKeyWithSecret,
} from '../api-keys/api-keys.schemas.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import { WorkspaceKeyParams, WorkspaceParams } from './dashboard.schemas.js';

const tags = ['dashboard'];
// The dashboard scope answers every response with `Cache-Control: no-store`; key material included.
const read = { permission: 'api-keys:read' } as const;
const write = { permission: 'api-keys:write' } as const;

/**
 * API key management for a signed-in member: the external API's service and shapes, with the
 * session's Actor. Its rules (own keys unless owner for reveal and edit, Active-only reveal,
 * idempotent revoke) live in the service, so both APIs keep them alike.
 */
export const dashboardApiKeysRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (
  app,
  { apiKeys },
) => {
  const base = '/workspaces/:workspaceId/api-keys';

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        params: WorkspaceParams,
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyList, ...ErrorResponses },
      },
    },
    (request) =>
      apiKeys.list(request.actor, { isActive: request.query.isActive }, pageRequest(request.query, API_KEY_SORT_KEYS)),
  );

  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        params: WorkspaceParams,
        body: ApiKeyCreateBody,
        response: { 201: ApiKeyWithSecret, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await apiKeys.create(request.actor, request.body)),
  );

  app.patch(
    `${base}/:id`,
    {
      config: write,
      schema: {
        tags,
        params: WorkspaceKeyParams,
        body: ApiKeyUpdateBody,
        response: { 200: ApiKey, ...ErrorResponses },
      },
    },
    (request) => apiKeys.update(request.actor, request.params.id, request.body),
  );

  app.post(
    `${base}/:id/reveal`,
    {
      config: write,
      schema: { tags, params: WorkspaceKeyParams, response: { 200: ApiKeyWithSecret, ...ErrorResponses } },
    },
    (request) => apiKeys.reveal(request.actor, request.params.id),
  );

  app.post(
    `${base}/:id/revoke`,
    { config: write, schema: { tags, params: WorkspaceKeyParams, response: { 200: ApiKey, ...ErrorResponses } } },
    (request) => apiKeys.revoke(request.actor, request.params.id),
  );
};
