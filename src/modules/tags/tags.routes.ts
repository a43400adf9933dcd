import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import type { TagsService } from './tags.service.js';
import { Tag, TAG_SORT_KEYS, TagCreateBody, TagList, TagListQuery, TagUpdateBody } from './tags.schemas.js';

const routeTags = ['tags'];
const read = { permission: 'tags:read' } as const;
const write = { permission: 'tags:write' } as const;

export const tagsRoutes: FastifyPluginAsyncTypebox<{ tags: TagsService }> = async (app, { tags }) => {
  app.get(
    '/tags',
    {
      config: read,
      schema: { tags: routeTags, querystring: TagListQuery, response: { 200: TagList, ...ErrorResponses } },
    },
    (request) => tags.list(request.actor, request.query, pageRequest(request.query, TAG_SORT_KEYS)),
  );

  app.post(
    '/tags',
    { config: write, schema: { tags: routeTags, body: TagCreateBody, response: { 201: Tag, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await tags.create(request.actor, request.body)),
  );

  app.get(
    '/tags/:idOrSlug',
    {
      config: read,
      schema: {
        tags: routeTags,
        params: IdOrSlugParams,
        querystring: FieldsQuery,
        response: { 200: Tag, ...ErrorResponses },
      },
    },
    (request) => tags.get(request.actor, request.params.idOrSlug),
  );

  app.patch(
    '/tags/:idOrSlug',
    {
      config: write,
      schema: {
        tags: routeTags,
        params: IdOrSlugParams,
        body: TagUpdateBody,
        response: { 200: Tag, ...ErrorResponses },
      },
    },
    (request) => tags.update(request.actor, request.params.idOrSlug, request.body),
  );

  app.delete(
    '/tags/:idOrSlug',
    { config: write, schema: { tags: routeTags, params: IdOrSlugParams, response: { 200: Tag, ...ErrorResponses } } },
    (request) => tags.remove(request.actor, request.params.idOrSlug),
  );
};
