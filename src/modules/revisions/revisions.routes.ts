import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FieldsQuery } from '../../http/fields.js';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import { Page } from '../pages/pages.schemas.js';
import { Post } from '../posts/posts.schemas.js';
import type { RevisionsService } from './revisions.service.js';
import {
  PageRevision,
  PostRevision,
  REVISION_SORT_KEYS,
  RevisionList,
  RevisionListQuery,
  RevisionParams,
} from './revisions.schemas.js';

/**
 * The revisions of posts and of pages, under each resource. Reading them needs the resource's read permission,
 * restoring one its write permission: a restore is a write of the resource like a PATCH.
 */
export const revisionsRoutes: FastifyPluginAsyncTypebox<{ revisions: RevisionsService }> = async (
  app,
  { revisions },
) => {
  const posts = { tags: ['posts'], read: { permission: 'posts:read' }, write: { permission: 'posts:write' } } as const;
  const pages = { tags: ['pages'], read: { permission: 'pages:read' }, write: { permission: 'pages:write' } } as const;

  app.get(
    '/posts/:idOrSlug/revisions',
    {
      config: posts.read,
      schema: {
        tags: posts.tags,
        params: IdOrSlugParams,
        querystring: RevisionListQuery,
        response: { 200: RevisionList, ...ErrorResponses },
      },
    },
    (request) =>
      revisions.list(request.actor, 'post', request.params.idOrSlug, pageRequest(request.query, REVISION_SORT_KEYS)),
  );

  app.get(
    '/posts/:idOrSlug/revisions/:n',
    {
      config: posts.read,
      schema: {
        tags: posts.tags,
        params: RevisionParams,
        querystring: FieldsQuery,
        response: { 200: PostRevision, ...ErrorResponses },
      },
    },
    (request) => revisions.getPostRevision(request.actor, request.params.idOrSlug, request.params.n),
  );

  app.post(
    '/posts/:idOrSlug/revisions/:n/restore',
    {
      config: posts.write,
      schema: { tags: posts.tags, params: RevisionParams, response: { 200: Post, ...ErrorResponses } },
    },
    (request) => revisions.restorePost(request.actor, request.params.idOrSlug, request.params.n),
  );

  app.get(
    '/pages/:idOrSlug/revisions',
    {
      config: pages.read,
      schema: {
        tags: pages.tags,
        params: IdOrSlugParams,
        querystring: RevisionListQuery,
        response: { 200: RevisionList, ...ErrorResponses },
      },
    },
    (request) =>
      revisions.list(request.actor, 'page', request.params.idOrSlug, pageRequest(request.query, REVISION_SORT_KEYS)),
  );

  app.get(
    '/pages/:idOrSlug/revisions/:n',
    {
      config: pages.read,
      schema: {
        tags: pages.tags,
        params: RevisionParams,
        querystring: FieldsQuery,
        response: { 200: PageRevision, ...ErrorResponses },
      },
    },
    (request) => revisions.getPageRevision(request.actor, request.params.idOrSlug, request.params.n),
  );

  app.post(
    '/pages/:idOrSlug/revisions/:n/restore',
    {
      config: pages.write,
      schema: { tags: pages.tags, params: RevisionParams, response: { 200: Page, ...ErrorResponses } },
    },
    (request) => revisions.restorePage(request.actor, request.params.idOrSlug, request.params.n),
  );
};
