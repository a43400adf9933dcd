import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import type { DashboardServices } from '../dashboard/dashboard.services.js';
import type { TeamServices } from './team.services.js';
import { MemberParams, Session, SessionsEnded, WorkspaceParams } from '../dashboard/dashboard.schemas.js';
import { clientOf, handOver } from '../dashboard/sessions.routes.js';
import {
  AcceptBody,
  Capabilities,
  Invitation,
  InvitationParams,
  InvitationPreview,
  InvitationSent,
  InviteBody,
  ResetBody,
  ResetRequestBody,
  ResetRequested,
  Revoked,
  TokenBody,
} from './team.schemas.js';

const tags = ['dashboard'];
const anonymous = { anonymous: true } as const;
const manageMembers = { permission: 'members:write' } as const;

/** Invitations, their accept page's routes, password reset, and what the server can send (docs/team.md). */
export const teamRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardServices; team: TeamServices }> = async (
  app,
  { dashboard, team },
) => {
  const { invitations, passwordResets, mailer } = team;
  const { sessions } = dashboard;

  app.get('/capabilities', { config: anonymous, schema: { tags, response: { 200: Capabilities } } }, () => ({
    mail: mailer.configured,
    sso: dashboard.sso.name === null ? null : { name: dashboard.sso.name },
  }));

  app.get(
    '/workspaces/:workspaceId/invitations',
    {
      config: manageMembers,
      schema: { tags, params: WorkspaceParams, response: { 200: Type.Array(Invitation), ...ErrorResponses } },
    },
    (request) => invitations.list(request.actor),
  );

  app.post(
    '/workspaces/:workspaceId/invitations',
    {
      config: manageMembers,
      schema: { tags, params: WorkspaceParams, body: InviteBody, response: { 201: InvitationSent, ...ErrorResponses } },
    },
    async (request, reply) => reply.code(201).send(await invitations.invite(request.actor, request.body, request.log)),
  );

  app.post(
    '/workspaces/:workspaceId/invitations/:id/resend',
    {
      config: manageMembers,
      schema: { tags, params: InvitationParams, response: { 200: InvitationSent, ...ErrorResponses } },
    },
    (request) => invitations.resend(request.actor, request.params.id, request.log),
  );

  app.delete(
    '/workspaces/:workspaceId/invitations/:id',
    {
      config: manageMembers,
      schema: { tags, params: InvitationParams, response: { 200: Revoked, ...ErrorResponses } },
    },
    (request) => invitations.revoke(request.actor, request.params.id),
  );

  app.post(
    '/workspaces/:workspaceId/members/:userId/end-sessions',
    {
      config: { access: 'owner' },
      schema: { tags, params: MemberParams, response: { 200: SessionsEnded, ...ErrorResponses } },
    },
    (request) => dashboard.members.endSessions(request.actor, request.params.userId),
  );

  // The token travels in bodies, never in a URL, so that no access log or Referer carries it.
  app.post(
    '/invitations/preview',
    { config: anonymous, schema: { tags, body: TokenBody, response: { 200: InvitationPreview, ...ErrorResponses } } },
    (request) => invitations.preview(request.body.token),
  );

  app.post(
    '/invitations/accept',
    { config: anonymous, schema: { tags, body: AcceptBody, response: { 200: Session, ...ErrorResponses } } },
    async (request, reply) => {
      return handOver(
        sessions,
        request,
        reply,
        await invitations.accept(request.body.token, request.body.password, clientOf(request)),
      );
    },
  );

  app.post(
    '/password-reset',
    {
      config: anonymous,
      schema: { tags, body: ResetRequestBody, response: { 202: ResetRequested, ...ErrorResponses } },
    },
    async (request, reply) => {
      await passwordResets.request(request.body.email, clientOf(request), request.log);
      return reply.code(202).send({ requested: true });
    },
  );

  app.post(
    '/password-reset/complete',
    { config: anonymous, schema: { tags, body: ResetBody, response: { 200: Session, ...ErrorResponses } } },
    async (request, reply) => {
      return handOver(
        sessions,
        request,
        reply,
        await passwordResets.reset(request.body.token, request.body.newPassword, clientOf(request)),
      );
    },
  );
};
