import { sealWriteAnswers } from './sealed-answer.js';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { checkCsrf, checkSameOrigin, isStateChanging } from './csrf.js';
import { routeMissHandler, type RouteTable } from './route-table.js';
import { clearSessionCookie, sessionToken, setSessionCookie, signedOut } from '../http/session-auth.js';
import type { Services } from '../services.js';
import { mayUse, ownerOnly } from '../security/actor.js';
import { dashboardApiKeysRoutes } from '../modules/dashboard/api-keys.routes.js';
import { dashboardContentRoutes } from './dashboard-content.js';
import { dashboardSessionRoutes } from '../modules/dashboard/sessions.routes.js';
import { DEFAULT_DASHBOARD_DIR, spaRoutes } from '../modules/dashboard/spa.routes.js';
import { dashboardWorkspaceRoutes } from '../modules/dashboard/workspaces.routes.js';
import { teamRoutes } from '../modules/team/team.routes.js';
import { secondFactorRoutes } from '../modules/dashboard/second-factor.routes.js';
import { passkeyRoutes } from '../modules/dashboard/passkeys.routes.js';
import { ssoRoutes } from '../modules/dashboard/sso.routes.js';
import { reviewsRoutes } from '../modules/reviews/reviews.routes.js';
import { auditRoutes } from '../modules/team/audit.routes.js';
import { dashboardImportsRoutes, type ImportRoutesOptions } from '../modules/imports/imports.routes.js';

export { DEFAULT_DASHBOARD_DIR };

export interface DashboardOptions {
  services: Services;
  publicUrl: string;
  routeTable: RouteTable;
  /** The built React app (dashboard/dist). */
  distDir: string;
  /** The media upload limit, as in the external API. */
  maxUploadBytes: number;
  /** The Import screen's route: the database the runner writes through, the export's and each media file's limits. */
  imports: Omit<ImportRoutesOptions, 'services'>;
}

/**
 * The session-authenticated API under /api/v1/dashboard. Its hooks run in this order: session
 * (401, also for paths that do not exist; X-API-Key is never looked at) → CSRF on writes (403) →
 * route (404 or 405) → membership of `:workspaceId` (404) → owner or permission (403) → validation.
 * Nothing is cached between requests: session, user and membership are read afresh each time.
 * There is no request rate limit here (the external one is for keys); sign-in has its own throttle.
 */
async function dashboardApi(scope: FastifyInstance, options: DashboardOptions): Promise<void> {
  const { services, publicUrl } = options;
  const { dashboard } = services;
  await scope.register(fastifyCookie);

  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.anonymous) {
      if (isStateChanging(request.method)) checkSameOrigin(request, publicUrl);
      return;
    }
    const token = sessionToken(request);
    const found = await dashboard.sessions.authenticate(token);
    if (!found) {
      if (token !== undefined) clearSessionCookie(request, reply);
      throw signedOut();
    }
    // The cookie's Max-Age slides with the session's expiry.
    if (found.refreshed && token !== undefined) setSessionCookie(request, reply, token);
    request.dashboardSession = found.session;
    checkCsrf(request, found.session.csrfToken);
  });

  sealWriteAnswers(scope);
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    const { access, permission, draft } = request.routeOptions.config;
    if (access === undefined && permission === undefined) return;
    const { workspaceId } = request.params as { workspaceId?: string };
    const actor = await dashboard.workspaces.actorFor(request.dashboardSession.userId, workspaceId);
    if (access === 'owner' && !actor.isOwner) throw ownerOnly();
    if (permission !== undefined && !mayUse(actor, permission, draft)) {
      throw new AppError('FORBIDDEN', `You lack the ${permission} permission in this workspace`, { permission });
    }
    request.actor = { ...actor, address: request.ip };
  });

  scope.addHook('onError', async (_request, reply, error) => {
    const retryAfter =
      error instanceof AppError && error.code === 'RATE_LIMITED' ? error.details?.retryAfterSeconds : undefined;
    if (typeof retryAfter === 'number') reply.header('Retry-After', retryAfter);
  });

  // Every answer here is about one signed-in person (CSRF tokens, key material, invitation links).
  scope.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  scope.setNotFoundHandler(routeMissHandler(options.routeTable));

  await scope.register(dashboardSessionRoutes, { dashboard });
  await scope.register(dashboardWorkspaceRoutes, { dashboard });
  await scope.register(secondFactorRoutes, { dashboard });
  await scope.register(passkeyRoutes, { dashboard });
  await scope.register(ssoRoutes, { dashboard });
  await scope.register(teamRoutes, { dashboard, team: services.team });
  await scope.register(auditRoutes, { audit: services.team.audit });
  await scope.register(reviewsRoutes, { reviews: services.reviews });
  await scope.register(dashboardApiKeysRoutes, { apiKeys: services.apiKeys });
  await scope.register(dashboardContentRoutes, { services, maxUploadBytes: options.maxUploadBytes });
  await scope.register(dashboardImportsRoutes, { services, ...options.imports });
}

/** The dashboard: its internal API and the single-page app that uses it. */
export async function dashboard(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  await app.register(dashboardApi, { ...options, prefix: '/api/v1/dashboard' });
  await app.register(spaRoutes, {
    dir: options.distDir,
    publicUrl: options.publicUrl,
    usersExist: async () => !(await options.services.dashboard.setup.needed()),
  });
}
