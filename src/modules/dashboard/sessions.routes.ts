import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorResponses } from '../../http/responses.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../../http/session-auth.js';
import type { DashboardServices } from './dashboard.services.js';
import {
  PasswordChangeBody,
  Session,
  SessionInfo,
  SessionParams,
  SessionsEnded,
  SetupBody,
  SetupStatus,
  SignedOut,
  SignInBody,
} from './dashboard.schemas.js';
import { SecondFactorChallenge } from './second-factor.schemas.js';
import type { ClientInfo, SessionsService, StartedSession } from './sessions.service.js';
import { Type } from 'typebox';

const tags = ['dashboard'];
const anonymous = { anonymous: true } as const;

export const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * A session just begun (sign-in, an invitation accepted, a password reset) handed to the browser: the one it held
 * is ended rather than left behind, the cookie set, and the Session answered.
 */
export async function handOver(
  sessions: SessionsService,
  request: FastifyRequest,
  reply: FastifyReply,
  started: StartedSession,
): Promise<Session> {
  await keepSession(sessions, request, reply, started);
  return sessions.view(started.session);
}

/** The browser's old session ended and the new one's cookie set, for an answer that is not a Session (a redirect). */
export async function keepSession(
  sessions: SessionsService,
  request: FastifyRequest,
  reply: FastifyReply,
  started: StartedSession,
): Promise<void> {
  await sessions.endToken(sessionToken(request));
  setSessionCookie(request, reply, started.token);
}

/** First-run setup, sign-in, sign-out, the current session and the password change. */
export const dashboardSessionRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardServices }> = async (
  app,
  { dashboard },
) => {
  const { sessions, setup } = dashboard;

  app.get(
    '/setup',
    { config: anonymous, schema: { tags, response: { 200: SetupStatus, ...ErrorResponses } } },
    async () => ({
      needed: await setup.needed(),
    }),
  );

  app.post(
    '/setup',
    { config: anonymous, schema: { tags, body: SetupBody, response: { 201: Session, ...ErrorResponses } } },
    async (request, reply) => {
      const started = await setup.run(request.body, clientOf(request));
      setSessionCookie(request, reply, started.token);
      return reply.code(201).send(await sessions.view(started.session));
    },
  );

  app.get('/session', { schema: { tags, response: { 200: Session, ...ErrorResponses } } }, (request) =>
    sessions.view(request.dashboardSession),
  );

  app.post(
    '/session',
    {
      config: anonymous,
      schema: {
        tags,
        body: SignInBody,
        description:
          'A right password signs in (200), or, for an account with a second factor, answers a challenge (202) to ' +
          'complete at POST /session/second-factor (a code) or POST /session/second-factor/passkey.',
        response: { 200: Session, 202: SecondFactorChallenge, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const outcome = await sessions.signIn(request.body.email, request.body.password, clientOf(request), request.log);
      if ('challenge' in outcome)
        return reply
          .code(202)
          .send({ secondFactor: outcome.factors[0]!, factors: outcome.factors, challenge: outcome.challenge });
      return handOver(sessions, request, reply, outcome.started);
    },
  );

  app.delete(
    '/session',
    { schema: { tags, response: { 200: SignedOut, ...ErrorResponses } } },
    async (request, reply) => {
      await sessions.signOut(request.dashboardSession.id);
      clearSessionCookie(request, reply);
      return { signedOut: true } as const;
    },
  );

  app.get('/sessions', { schema: { tags, response: { 200: Type.Array(SessionInfo), ...ErrorResponses } } }, (request) =>
    sessions.list(request.dashboardSession),
  );

  app.delete(
    '/sessions/:id',
    { schema: { tags, params: SessionParams, response: { 200: SessionsEnded, ...ErrorResponses } } },
    async (request, reply) => {
      const ended = await sessions.end(request.dashboardSession, request.params.id);
      if (request.params.id === request.dashboardSession.id) clearSessionCookie(request, reply);
      return ended;
    },
  );

  app.post(
    '/sessions/end-others',
    { schema: { tags, response: { 200: SessionsEnded, ...ErrorResponses } } },
    (request) => sessions.endOthers(request.dashboardSession),
  );

  app.post(
    '/password',
    { schema: { tags, body: PasswordChangeBody, response: { 200: Session, ...ErrorResponses } } },
    async (request, reply) => {
      const { currentPassword, newPassword } = request.body;
      const started = await sessions.changePassword(
        request.dashboardSession,
        currentPassword,
        newPassword,
        clientOf(request),
      );
      setSessionCookie(request, reply, started.token);
      return sessions.view(started.session);
    },
  );
};
