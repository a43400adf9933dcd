import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FieldsQuery } from '../../http/fields.js';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import { ReviewLink, ReviewLinkCreateBody, ReviewLinkList, ReviewLinkParams } from './review-links.schemas.js';
import type { ReviewLinksService } from './review-links.service.js';

/**
 * The review links of posts and pages (docs/publishing.md, "Review links"). Sharing a draft outside the workspace
 * is a writer's act, so every route needs the resource's write permission; answers carry the links themselves,
 * which are key material: never stored by any cache.
 */
export const reviewLinksRoutes: FastifyPluginAsyncTypebox<{ reviewLinks: ReviewLinksService }> = async (
  app,
  { reviewLinks },
) => {
  for (const [kind, resource] of [
    ['post', 'posts'],
    ['page', 'pages'],
  ] as const) {
    const tags = [resource];
    const config = { permission: `${resource}:write`, noStore: true } as const;
    const path = `/${resource}/:idOrSlug/review-links`;

    app.post(
      path,
      {
        config,
        schema: {
          tags,
          params: IdOrSlugParams,
          body: ReviewLinkCreateBody,
          response: { 201: ReviewLink, ...ErrorResponses },
        },
        // The body is optional: none is the defaults.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) =>
        reply.code(201).send(await reviewLinks.create(request.actor, kind, request.params.idOrSlug, request.body)),
    );

    app.get(
      path,
      {
        config,
        schema: {
          tags,
          params: IdOrSlugParams,
          querystring: FieldsQuery,
          response: { 200: ReviewLinkList, ...ErrorResponses },
        },
      },
      (request) => reviewLinks.list(request.actor, kind, request.params.idOrSlug),
    );

    app.delete(
      `${path}/:id`,
      { config, schema: { tags, params: ReviewLinkParams, response: { 200: ReviewLink, ...ErrorResponses } } },
      (request) => reviewLinks.revoke(request.actor, kind, request.params.idOrSlug, request.params.id),
    );
  }
};
