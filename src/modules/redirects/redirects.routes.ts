import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdParams } from '../../shared/schemas.js';
import type { RedirectsService } from './redirects.service.js';
import {
  Redirect,
  REDIRECT_SORT_KEYS,
  RedirectCreateBody,
  RedirectList,
  RedirectListQuery,
  RedirectResolution,
  RedirectUpdateBody,
  ResolveQuery,
} from './redirects.schemas.js';

const tags = ['redirects'];
const read = { permission: 'redirects:read' } as const;
const write = { permission: 'redirects:write' } as const;

export const redirectsRoutes: FastifyPluginAsyncTypebox<{ redirects: RedirectsService }> = async (
  app,
  { redirects },
) => {
  app.get(
    '/redirects',
    {
      config: read,
      schema: { tags, querystring: RedirectListQuery, response: { 200: RedirectList, ...ErrorResponses } },
    },
    (request) => redirects.list(request.actor, request.query, pageRequest(request.query, REDIRECT_SORT_KEYS)),
  );

  app.post(
    '/redirects',
    { config: write, schema: { tags, body: RedirectCreateBody, response: { 201: Redirect, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await redirects.create(request.actor, request.body)),
  );

  // A static segment: the router prefers it to `/redirects/:id`, and `resolve` is no UUID anyway.
  app.get(
    '/redirects/resolve',
    {
      config: read,
      schema: { tags, querystring: ResolveQuery, response: { 200: RedirectResolution, ...ErrorResponses } },
    },
    (request) => redirects.resolve(request.actor, request.query.path),
  );

  app.get(
    '/redirects/:id',
    {
      config: read,
      schema: { tags, params: IdParams, querystring: FieldsQuery, response: { 200: Redirect, ...ErrorResponses } },
    },
    (request) => redirects.get(request.actor, request.params.id),
  );

  app.patch(
    '/redirects/:id',
    {
      config: write,
      schema: { tags, params: IdParams, body: RedirectUpdateBody, response: { 200: Redirect, ...ErrorResponses } },
    },
    (request) => redirects.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/redirects/:id',
    { config: write, schema: { tags, params: IdParams, response: { 200: Redirect, ...ErrorResponses } } },
    (request) => redirects.remove(request.actor, request.params.id),
  );
};
