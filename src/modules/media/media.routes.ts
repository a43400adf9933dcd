import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdParams } from '../../shared/schemas.js';
import { MEDIA_SORT_KEYS, Media, MediaList, MediaListQuery, MediaUpdateBody, MediaUsage } from './media.schemas.js';
import type { MediaService } from './media.service.js';
import { mediaUploadRoute } from './media.upload.js';

const tags = ['media'];
const read = { permission: 'media:read' } as const;
const write = { permission: 'media:write' } as const;

export const mediaRoutes: FastifyPluginAsyncTypebox<{ media: MediaService; maxUploadBytes: number }> = async (
  app,
  { media, maxUploadBytes },
) => {
  app.get(
    '/media',
    { config: read, schema: { tags, querystring: MediaListQuery, response: { 200: MediaList, ...ErrorResponses } } },
    (request) => media.list(request.actor, request.query, pageRequest(request.query, MEDIA_SORT_KEYS)),
  );

  await app.register(mediaUploadRoute, { media, maxUploadBytes });

  app.get(
    '/media/:id',
    {
      config: read,
      schema: { tags, params: IdParams, querystring: FieldsQuery, response: { 200: Media, ...ErrorResponses } },
    },
    (request) => media.get(request.actor, request.params.id),
  );

  app.get(
    '/media/:id/usage',
    {
      config: read,
      schema: { tags, params: IdParams, querystring: FieldsQuery, response: { 200: MediaUsage, ...ErrorResponses } },
    },
    (request) => media.usage(request.actor, request.params.id),
  );

  app.patch(
    '/media/:id',
    {
      config: write,
      schema: { tags, params: IdParams, body: MediaUpdateBody, response: { 200: Media, ...ErrorResponses } },
    },
    (request) => media.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/media/:id',
    { config: write, schema: { tags, params: IdParams, response: { 200: Media, ...ErrorResponses } } },
    (request) => media.remove(request.actor, request.params.id, request.log),
  );
};
