import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import type { AuthorsService } from './authors.service.js';
import {
  Author,
  AUTHOR_SORT_KEYS,
  AuthorCreateBody,
  AuthorList,
  AuthorListQuery,
  AuthorUpdateBody,
} from './authors.schemas.js';

const tags = ['authors'];
const read = { permission: 'authors:read' } as const;
const write = { permission: 'authors:write' } as const;

export const authorsRoutes: FastifyPluginAsyncTypebox<{ authors: AuthorsService }> = async (app, { authors }) => {
  app.get(
    '/authors',
    { config: read, schema: { tags, querystring: AuthorListQuery, response: { 200: AuthorList, ...ErrorResponses } } },
    (request) => authors.list(request.actor, request.query, pageRequest(request.query, AUTHOR_SORT_KEYS)),
  );

  app.post(
    '/authors',
    { config: write, schema: { tags, body: AuthorCreateBody, response: { 201: Author, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await authors.create(request.actor, request.body)),
  );

  app.get(
    '/authors/:idOrSlug',
    {
      config: read,
      schema: { tags, params: IdOrSlugParams, querystring: FieldsQuery, response: { 200: Author, ...ErrorResponses } },
    },
    (request) => authors.get(request.actor, request.params.idOrSlug),
  );

  app.patch(
    '/authors/:idOrSlug',
    {
      config: write,
      schema: { tags, params: IdOrSlugParams, body: AuthorUpdateBody, response: { 200: Author, ...ErrorResponses } },
    },
    (request) => authors.update(request.actor, request.params.idOrSlug, request.body),
  );

  app.delete(
    '/authors/:idOrSlug',
    { config: write, schema: { tags, params: IdOrSlugParams, response: { 200: Author, ...ErrorResponses } } },
    (request) => authors.remove(request.actor, request.params.idOrSlug),
  );
};
