import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { sendList } from '../../http/list-answer.js';
import { ErrorResponses } from '../../http/responses.js';
import { sendSerialized } from '../../http/serialization.js';
import type { Services } from '../../services.js';
import { AUTHOR_SORT_KEYS, AuthorList, AuthorListQuery } from '../authors/authors.schemas.js';
import { CATEGORY_SORT_KEYS, CategoryList, CategoryListQuery } from '../categories/categories.schemas.js';
import { LINK_HEALTH_SORT_KEYS, LinkHealthList, LinkHealthListQuery } from '../link-health/link-health.schemas.js';
import { MEDIA_SORT_KEYS, MediaList, MediaListQuery } from '../media/media.schemas.js';
import { PAGE_SORT_KEYS, PageList, PageListQuery } from '../pages/pages.schemas.js';
import { Post, POST_SORT_KEYS, PostList, PostListQuery } from '../posts/posts.schemas.js';
import { REDIRECT_SORT_KEYS, RedirectList, RedirectListQuery } from '../redirects/redirects.schemas.js';
import { TAG_SORT_KEYS, TagList, TagListQuery } from '../tags/tags.schemas.js';
import { WorkspaceItemParams, WorkspaceParams } from './dashboard.schemas.js';

type ContentServices = Pick<
  Services,
  'postReads' | 'pageReads' | 'pages' | 'media' | 'authors' | 'categories' | 'tags' | 'redirects' | 'linkHealth'
>;

const tags = ['dashboard'];
const params = WorkspaceParams;

/**
 * Read-only content for the dashboard: the external API's list routes (same query parameters, same
 * response), under a workspace the signed-in user belongs to, through the same services.
 */
export const dashboardContentRoutes: FastifyPluginAsyncTypebox<{ services: ContentServices }> = async (
  app,
  { services },
) => {
  const base = '/workspaces/:workspaceId';

  app.get(
    `${base}/posts`,
    {
      config: { permission: 'posts:read' },
      schema: { tags, params, querystring: PostListQuery, response: { 200: PostList, ...ErrorResponses } },
    },
    async (request, reply) =>
      sendList(
        request,
        reply,
        await services.postReads.list(request.actor, request.query, pageRequest(request.query, POST_SORT_KEYS)),
      ),
  );

  app.get(
    `${base}/posts/:idOrSlug`,
    {
      config: { permission: 'posts:read' },
      schema: { tags, params: WorkspaceItemParams, response: { 200: Post, ...ErrorResponses } },
    },
    async (request, reply) =>
      sendSerialized(reply, await services.postReads.get(request.actor, request.params.idOrSlug)),
  );

  app.get(
    `${base}/pages`,
    {
      config: { permission: 'pages:read' },
      schema: { tags, params, querystring: PageListQuery, response: { 200: PageList, ...ErrorResponses } },
    },
    async (request, reply) =>
      sendList(
        request,
        reply,
        await services.pageReads.list(request.actor, request.query, pageRequest(request.query, PAGE_SORT_KEYS)),
      ),
  );

  app.get(
    `${base}/media`,
    {
      config: { permission: 'media:read' },
      schema: { tags, params, querystring: MediaListQuery, response: { 200: MediaList, ...ErrorResponses } },
    },
    (request) => services.media.list(request.actor, request.query, pageRequest(request.query, MEDIA_SORT_KEYS)),
  );

  app.get(
    `${base}/authors`,
    {
      config: { permission: 'authors:read' },
      schema: { tags, params, querystring: AuthorListQuery, response: { 200: AuthorList, ...ErrorResponses } },
    },
    (request) => services.authors.list(request.actor, request.query, pageRequest(request.query, AUTHOR_SORT_KEYS)),
  );

  app.get(
    `${base}/categories`,
    {
      config: { permission: 'categories:read' },
      schema: { tags, params, querystring: CategoryListQuery, response: { 200: CategoryList, ...ErrorResponses } },
    },
    (request) => services.categories.list(request.actor, request.query, pageRequest(request.query, CATEGORY_SORT_KEYS)),
  );

  app.get(
    `${base}/tags`,
    {
      config: { permission: 'tags:read' },
      schema: { tags, params, querystring: TagListQuery, response: { 200: TagList, ...ErrorResponses } },
    },
    (request) => services.tags.list(request.actor, request.query, pageRequest(request.query, TAG_SORT_KEYS)),
  );

  app.get(
    `${base}/redirects`,
    {
      config: { permission: 'redirects:read' },
      schema: { tags, params, querystring: RedirectListQuery, response: { 200: RedirectList, ...ErrorResponses } },
    },
    (request) => services.redirects.list(request.actor, request.query, pageRequest(request.query, REDIRECT_SORT_KEYS)),
  );

  app.get(
    `${base}/link-health`,
    {
      config: { permission: 'link-health:read' },
      schema: { tags, params, querystring: LinkHealthListQuery, response: { 200: LinkHealthList, ...ErrorResponses } },
    },
    (request) =>
      services.linkHealth.list(request.actor, request.query, pageRequest(request.query, LINK_HEALTH_SORT_KEYS)),
  );
};
