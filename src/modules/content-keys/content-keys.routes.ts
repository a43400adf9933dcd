import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import type { ContentKeysService } from './content-keys.service.js';
import {
  CONTENT_KEY_SORT_KEYS,
  ContentKey,
  ContentKeyCreateBody,
  ContentKeyList,
  ContentKeyListQuery,
  ContentKeyParams,
  ContentKeyUpdateBody,
} from './content-keys.schemas.js';

// Keys are managed with the API-key permissions; their answers carry the key, so nothing here is stored by a cache.
const tags = ['content-keys'];
const read = { permission: 'api-keys:read', noStore: true } as const;
const write = { permission: 'api-keys:write', noStore: true } as const;

export const contentKeysRoutes: FastifyPluginAsyncTypebox<{ contentKeys: ContentKeysService }> = async (
  app,
  { contentKeys },
) => {
  app.get(
    '/content-keys',
    {
      config: read,
      schema: { tags, querystring: ContentKeyListQuery, response: { 200: ContentKeyList, ...ErrorResponses } },
    },
    (request) =>
      contentKeys.list(
        request.actor,
        { isActive: request.query.isActive },
        pageRequest(request.query, CONTENT_KEY_SORT_KEYS),
      ),
  );

  app.post(
    '/content-keys',
    { config: write, schema: { tags, body: ContentKeyCreateBody, response: { 201: ContentKey, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await contentKeys.create(request.actor, request.body)),
  );

  app.get(
    '/content-keys/:id',
    {
      config: read,
      schema: {
        tags,
        params: ContentKeyParams,
        querystring: FieldsQuery,
        response: { 200: ContentKey, ...ErrorResponses },
      },
    },
    (request) => contentKeys.get(request.actor, request.params.id),
  );

  app.patch(
    '/content-keys/:id',
    {
      config: write,
      schema: {
        tags,
        params: ContentKeyParams,
        body: ContentKeyUpdateBody,
        response: { 200: ContentKey, ...ErrorResponses },
      },
    },
    (request) => contentKeys.update(request.actor, request.params.id, request.body),
  );

  app.post(
    '/content-keys/:id/revoke',
    { config: write, schema: { tags, params: ContentKeyParams, response: { 200: ContentKey, ...ErrorResponses } } },
    (request) => contentKeys.revoke(request.actor, request.params.id),
  );
};
