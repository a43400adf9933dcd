import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FieldsQuery } from '../../http/fields.js';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import { Page } from '../pages/pages.schemas.js';
import { Post } from '../posts/posts.schemas.js';
import type { Actor } from '../../security/actor.js';
import type { Permission } from '../../security/permissions.js';
import type { RevisionsService } from './revisions.service.js';
import {
  PageRevision,
  PostRevision,
  REVISION_SORT_KEYS,
  RevisionList,
  RevisionListQuery,
  RevisionParams,
} from './revisions.schemas.js';

/** What a route's config says to the external scope: the permission it needs. */
type RouteConfig = { permission: Permission };

/**
 * The revisions of posts and of pages, under each resource. Reading them needs the resource's read permission,
 * restoring one its write permission: a restore is a write of the resource like a PATCH.
 */
export const revisionsRoutes: FastifyPluginAsyncTypebox<{ revisions: RevisionsService }> = async (
  app,
  { revisions },
) => {
  const resources = [
    {
      kind: 'post',
      path: '/posts',
      tags: ['posts'],
      read: { permission: 'posts:read' } as RouteConfig,
      write: { permission: 'posts:write' } as RouteConfig,
      Revision: PostRevision,
      Resource: Post,
      get: (actor: Actor, idOrSlug: string, n: number) => revisions.getPostRevision(actor, idOrSlug, n),
      restore: (actor: Actor, idOrSlug: string, n: number) => revisions.restorePost(actor, idOrSlug, n),
    },
    {
      kind: 'page',
      path: '/pages',
      tags: ['pages'],
      read: { permission: 'pages:read' } as RouteConfig,
      write: { permission: 'pages:write' } as RouteConfig,
      Revision: PageRevision,
      Resource: Page,
      get: (actor: Actor, idOrSlug: string, n: number) => revisions.getPageRevision(actor, idOrSlug, n),
      restore: (actor: Actor, idOrSlug: string, n: number) => revisions.restorePage(actor, idOrSlug, n),
    },
  ] as const;

  for (const resource of resources) {
    app.get(
      `${resource.path}/:idOrSlug/revisions`,
      {
        config: resource.read,
        schema: {
          tags: [...resource.tags],
          params: IdOrSlugParams,
          querystring: RevisionListQuery,
          response: { 200: RevisionList, ...ErrorResponses },
        },
      },
      (request) =>
        revisions.list(
          request.actor,
          resource.kind,
          request.params.idOrSlug,
          pageRequest(request.query, REVISION_SORT_KEYS),
        ),
    );

    app.get(
      `${resource.path}/:idOrSlug/revisions/:n`,
      {
        config: resource.read,
        schema: {
          tags: [...resource.tags],
          params: RevisionParams,
          querystring: FieldsQuery,
          response: { 200: resource.Revision, ...ErrorResponses },
        },
      },
      (request) => resource.get(request.actor, request.params.idOrSlug, request.params.n),
    );

    app.post(
      `${resource.path}/:idOrSlug/revisions/:n/restore`,
      {
        config: resource.write,
        schema: {
          tags: [...resource.tags],
          params: RevisionParams,
          response: { 200: resource.Resource, ...ErrorResponses },
        },
      },
      (request) => resource.restore(request.actor, request.params.idOrSlug, request.params.n),
    );
  }
};
