import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import type { DashboardServices } from './dashboard.services.js';
import { clientOf, keepSession } from './sessions.routes.js';
import { SsoError } from './sso.service.js';

const tags = ['dashboard'];
const anonymous = { anonymous: true } as const;

// The provider's answer comes as query parameters; what else it sends is its own business.
const CallbackQuery = Type.Object({}, { additionalProperties: true });
const Redirect = Type.Null({ description: 'A redirect: where to is in Location' });

/**
 * Single sign-on (docs/team.md): both routes are browser navigations, so both answer with redirects. A failed sign-on
 * lands on the sign-in page with its reason after `#sso-error=`, and the details in the server's log.
 */
export const ssoRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardServices }> = async (app, { dashboard }) => {
  const { sso, sessions } = dashboard;
  const failed = (reply: FastifyReply, reason: string) => reply.redirect(`/dashboard/#sso-error=${reason}`, 302);

  app.get(
    '/oidc/start',
    {
      config: anonymous,
      schema: {
        tags,
        description: 'Redirects to the OpenID provider.',
        response: { 302: Redirect, ...ErrorResponses },
      },
    },
    async (request, typedReply) => {
      const reply = typedReply as FastifyReply;
      try {
        return reply.redirect(await sso.start(), 302);
      } catch (error) {
        if (!(error instanceof SsoError)) throw error;
        request.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on could not begin');
        return failed(reply, error.reason);
      }
    },
  );

  app.get(
    '/oidc/callback',
    {
      config: anonymous,
      schema: {
        tags,
        querystring: CallbackQuery,
        description: "The OpenID provider's answer: signs in and redirects to the dashboard.",
        response: { 302: Redirect, ...ErrorResponses },
      },
    },
    async (request, typedReply) => {
      const reply = typedReply as FastifyReply;
      try {
        const started = await sso.finish(new URL(request.url, 'http://callback'), clientOf(request));
        await keepSession(sessions, request, reply, started);
        return reply.redirect('/dashboard/', 302);
      } catch (error) {
        if (!(error instanceof SsoError)) throw error;
        request.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on refused');
        return failed(reply, error.reason);
      }
    },
  );
};
