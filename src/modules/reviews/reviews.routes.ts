import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import { WorkspaceParams } from '../dashboard/dashboard.schemas.js';
import {
  ApproveBody,
  CommentBody,
  Notifications,
  NotificationsQuery,
  ReadNotificationsBody,
  RequestChangesBody,
  Review,
  ReviewQueue,
  ReviewQueueQuery,
  SubmitBody,
  UnreadCount,
  WithdrawBody,
} from './reviews.schemas.js';
import type { ReviewsService } from './reviews.service.js';

const tags = ['dashboard'];
const Params = Type.Object(
  { ...WorkspaceParams.properties, ...IdOrSlugParams.properties },
  { additionalProperties: false },
);
const member = { access: 'member' } as const;
const KINDS = [
  { kind: 'post', resource: 'posts' },
  { kind: 'page', resource: 'pages' },
] as const;

/**
 * Review (docs/team.md, "Review"): a member's business with other members, so the dashboard's alone; an API key has
 * no one to submit to. The workspace mount's params come with the resource's.
 */
export const reviewsRoutes: FastifyPluginAsyncTypebox<{ reviews: ReviewsService }> = async (app, { reviews }) => {
  app.get(
    '/workspaces/:workspaceId/reviews',
    {
      config: member,
      schema: {
        tags,
        params: WorkspaceParams,
        querystring: ReviewQueueQuery,
        response: { 200: ReviewQueue, ...ErrorResponses },
      },
    },
    (request) => reviews.queue(request.actor, request.query),
  );

  app.get(
    '/workspaces/:workspaceId/notifications',
    {
      config: member,
      schema: {
        tags,
        params: WorkspaceParams,
        querystring: NotificationsQuery,
        response: { 200: Notifications, ...ErrorResponses },
      },
    },
    (request) => reviews.notifications(request.actor, request.query),
  );

  app.post(
    '/workspaces/:workspaceId/notifications/read',
    {
      config: member,
      schema: {
        tags,
        params: WorkspaceParams,
        body: ReadNotificationsBody,
        response: { 200: UnreadCount, ...ErrorResponses },
      },
    },
    (request) => reviews.markRead(request.actor, request.body.ids),
  );

  for (const { kind, resource } of KINDS) {
    const path = `/workspaces/:workspaceId/${resource}/:idOrSlug/review`;
    const read = { permission: `${resource}:read` } as const;
    const write = { permission: `${resource}:write`, draft: true } as const;
    const decide = { permission: `${resource}:write` } as const;
    const answer = { 200: Review, ...ErrorResponses };

    app.get(path, { config: read, schema: { tags, params: Params, response: answer } }, (request) =>
      reviews.get(request.actor, kind, request.params.idOrSlug),
    );
    app.post(path, { config: write, schema: { tags, params: Params, body: SubmitBody, response: answer } }, (request) =>
      reviews.submit(request.actor, kind, request.params.idOrSlug, request.body.comment, request.log),
    );
    app.post(
      `${path}/comments`,
      { config: write, schema: { tags, params: Params, body: CommentBody, response: answer } },
      (request) => reviews.comment(request.actor, kind, request.params.idOrSlug, request.body.body, request.log),
    );
    app.post(
      `${path}/request-changes`,
      { config: decide, schema: { tags, params: Params, body: RequestChangesBody, response: answer } },
      (request) =>
        reviews.requestChanges(request.actor, kind, request.params.idOrSlug, request.body.comment, request.log),
    );
    app.post(
      `${path}/approve`,
      { config: decide, schema: { tags, params: Params, body: ApproveBody, response: answer } },
      (request) => reviews.approve(request.actor, kind, request.params.idOrSlug, request.body, request.log),
    );
    app.post(
      `${path}/withdraw`,
      { config: write, schema: { tags, params: Params, body: WithdrawBody, response: answer } },
      (request) => reviews.withdraw(request.actor, kind, request.params.idOrSlug, request.body.comment),
    );
  }
};
