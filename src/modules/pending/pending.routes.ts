import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FieldsQuery } from '../../http/fields.js';
import { parseIfMatch } from '../../http/if-match.js';
import { ErrorResponses } from '../../http/responses.js';
import { Page } from '../pages/pages.schemas.js';
import { Post } from '../posts/posts.schemas.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import {
  PageApplyBody,
  PagePending,
  PagePendingBody,
  PendingHeaders,
  PostApplyBody,
  PostPending,
  PostPendingBody,
  type PendingBody,
} from './pending.schemas.js';
import type { PendingCondition, PendingService } from './pending.service.js';

const KINDS = [
  { kind: 'post', resource: 'posts', answer: PostPending, body: PostPendingBody, apply: PostApplyBody, written: Post },
  { kind: 'page', resource: 'pages', answer: PagePending, body: PagePendingBody, apply: PageApplyBody, written: Page },
] as const;

function conditionOf(headers: { 'if-match'?: string; 'if-none-match'?: '*' }): PendingCondition {
  return { ifMatch: parseIfMatch(headers['if-match']), ifNoneMatch: headers['if-none-match'] === '*' };
}

/**
 * The pending changes of a live post or page (docs/publishing.md): read, saved, discarded and applied. Their saves
 * move no content version, so no answer here is ever kept by a cache.
 */
export const pendingRoutes: FastifyPluginAsyncTypebox<{ pending: PendingService }> = async (app, { pending }) => {
  for (const { kind, resource, answer, body, apply, written } of KINDS) {
    const tags = [resource];
    const path = `/${resource}/:idOrSlug/pending`;
    const read = { permission: `${resource}:read`, noStore: true } as const;
    const write = { permission: `${resource}:write`, noStore: true } as const;

    app.get(
      path,
      {
        config: read,
        schema: {
          tags,
          params: IdOrSlugParams,
          querystring: FieldsQuery,
          response: { 200: answer, ...ErrorResponses },
        },
      },
      (request) => pending.get(request.actor, kind, request.params.idOrSlug),
    );

    app.put(
      path,
      {
        config: write,
        schema: {
          tags,
          params: IdOrSlugParams,
          headers: PendingHeaders,
          body,
          response: { 200: answer, ...ErrorResponses },
        },
      },
      (request) =>
        pending.save(
          request.actor,
          kind,
          request.params.idOrSlug,
          request.body as PendingBody,
          conditionOf(request.headers),
        ),
    );

    app.delete(
      path,
      {
        config: write,
        schema: {
          tags,
          params: IdOrSlugParams,
          headers: PendingHeaders,
          response: { 200: answer, ...ErrorResponses },
        },
      },
      (request) => pending.discard(request.actor, kind, request.params.idOrSlug, conditionOf(request.headers)),
    );

    app.post(
      `${path}/apply`,
      {
        config: write,
        schema: {
          tags,
          params: IdOrSlugParams,
          headers: PendingHeaders,
          body: apply,
          response: { 200: written, ...ErrorResponses },
        },
        // The body is optional: none applies the changes as they are.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      (request) =>
        pending.apply(request.actor, kind, request.params.idOrSlug, request.body, conditionOf(request.headers)),
    );
  }
};
