import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponses } from '../../http/responses.js';
import type { DashboardServices } from './dashboard.services.js';
import { Session, WorkspaceParams, WorkspaceSummary } from './dashboard.schemas.js';
import {
  CodeBody,
  PasswordBody,
  RecoveryCodes,
  SecondFactorBody,
  SecondFactorRequirementBody,
  SecondFactorStatus,
  TotpOff,
  TotpSetup,
} from './second-factor.schemas.js';
import { clientOf, handOver } from './sessions.routes.js';

const tags = ['dashboard'];
const anonymous = { anonymous: true } as const;
const owner = { access: 'owner' } as const;

/** A second factor: the sign-in's second step, the account's authenticator app and recovery codes, the requirement. */
export const secondFactorRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardServices }> = async (
  app,
  { dashboard },
) => {
  const { secondFactor, sessions, workspaces } = dashboard;

  app.post(
    '/session/second-factor',
    { config: anonymous, schema: { tags, body: SecondFactorBody, response: { 200: Session, ...ErrorResponses } } },
    async (request, reply) => {
      const started = await secondFactor.completeSignIn(request.body.challenge, request.body.code, clientOf(request));
      return handOver(sessions, request, reply, started);
    },
  );

  app.get(
    '/account/second-factor',
    { schema: { tags, response: { 200: SecondFactorStatus, ...ErrorResponses } } },
    (request) => secondFactor.status(request.dashboardSession),
  );

  app.post(
    '/account/second-factor/totp',
    { schema: { tags, body: PasswordBody, response: { 200: TotpSetup, ...ErrorResponses } } },
    (request) => secondFactor.begin(request.dashboardSession, request.body.password, clientOf(request)),
  );

  app.post(
    '/account/second-factor/totp/confirm',
    { schema: { tags, body: CodeBody, response: { 200: RecoveryCodes, ...ErrorResponses } } },
    (request) => secondFactor.confirm(request.dashboardSession, request.body.code, clientOf(request)),
  );

  app.post(
    '/account/second-factor/totp/off',
    { schema: { tags, body: PasswordBody, response: { 200: TotpOff, ...ErrorResponses } } },
    (request) => secondFactor.turnOff(request.dashboardSession, request.body.password, clientOf(request)),
  );

  app.post(
    '/account/second-factor/recovery-codes',
    { schema: { tags, body: PasswordBody, response: { 200: RecoveryCodes, ...ErrorResponses } } },
    (request) => secondFactor.renewRecoveryCodes(request.dashboardSession, request.body.password, clientOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/second-factor-requirement',
    {
      config: owner,
      schema: {
        tags,
        params: WorkspaceParams,
        body: SecondFactorRequirementBody,
        response: { 200: WorkspaceSummary, ...ErrorResponses },
      },
    },
    (request) => workspaces.requireSecondFactor(request.actor, request.body.required),
  );
};
