import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import { PREVIEW_TTL, type PreviewsService } from './previews.service.js';

const PreviewBody = Type.Object(
  {
    expiresInSeconds: Type.Optional(
      Type.Integer({
        minimum: PREVIEW_TTL.min,
        maximum: PREVIEW_TTL.max,
        default: PREVIEW_TTL.default,
        description: 'How long the token reads the draft: an hour unless asked otherwise, a week at most.',
      }),
    ),
    pending: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Show the pending changes of a live post or page applied, as it will be after Update (as it is when ' +
          'it has none).',
      }),
    ),
  },
  { additionalProperties: false },
);

const Preview = Type.Object(
  {
    token: Type.String({ description: 'Pass it to the content API: GET /api/v1/content/preview/{posts|pages}/{id}.' }),
    expiresAt: Type.String({ format: 'date-time' }),
    url: Type.Union([Type.String(), Type.Null()], {
      description: "The site's preview route with the token (the site settings' previewUrlPattern); null without one.",
    }),
  },
  { description: 'A preview token for one post or page, whatever its status.' },
);

/**
 * Preview tokens made through the admin API (and the dashboard, which mounts these routes): whoever may read a
 * post or page may let a site show it. Tokens are key material for one draft: never stored by any cache.
 */
export const previewsRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewsService }> = async (app, { previews }) => {
  for (const [kind, resource] of [
    ['post', 'posts'],
    ['page', 'pages'],
  ] as const) {
    app.post(
      `/${resource}/:idOrSlug/preview`,
      {
        config: { permission: `${resource}:read`, noStore: true },
        schema: {
          tags: [resource],
          params: IdOrSlugParams,
          body: PreviewBody,
          response: { 201: Preview, ...ErrorResponses },
        },
        // The body is optional: none is the defaults.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) =>
        reply.code(201).send(
          await previews.create(request.actor, kind, request.params.idOrSlug, request.body.expiresInSeconds, {
            pending: request.body.pending,
          }),
        ),
    );
  }
};
