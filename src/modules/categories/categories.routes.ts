import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import type { CategoriesService } from './categories.service.js';
import {
  Category,
  CATEGORY_SORT_KEYS,
  CategoryCreateBody,
  CategoryList,
  CategoryListQuery,
  CategoryUpdateBody,
} from './categories.schemas.js';

const tags = ['categories'];
const read = { permission: 'categories:read' } as const;
const write = { permission: 'categories:write' } as const;

export const categoriesRoutes: FastifyPluginAsyncTypebox<{ categories: CategoriesService }> = async (
  app,
  { categories },
) => {
  app.get(
    '/categories',
    {
      config: read,
      schema: { tags, querystring: CategoryListQuery, response: { 200: CategoryList, ...ErrorResponses } },
    },
    (request) => categories.list(request.actor, request.query, pageRequest(request.query, CATEGORY_SORT_KEYS)),
  );

  app.post(
    '/categories',
    { config: write, schema: { tags, body: CategoryCreateBody, response: { 201: Category, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await categories.create(request.actor, request.body)),
  );

  app.get(
    '/categories/:idOrSlug',
    {
      config: read,
      schema: {
        tags,
        params: IdOrSlugParams,
        querystring: FieldsQuery,
        response: { 200: Category, ...ErrorResponses },
      },
    },
    (request) => categories.get(request.actor, request.params.idOrSlug),
  );

  app.patch(
    '/categories/:idOrSlug',
    {
      config: write,
      schema: {
        tags,
        params: IdOrSlugParams,
        body: CategoryUpdateBody,
        response: { 200: Category, ...ErrorResponses },
      },
    },
    (request) => categories.update(request.actor, request.params.idOrSlug, request.body),
  );

  app.delete(
    '/categories/:idOrSlug',
    { config: write, schema: { tags, params: IdOrSlugParams, response: { 200: Category, ...ErrorResponses } } },
    (request) => categories.remove(request.actor, request.params.idOrSlug),
  );
};
