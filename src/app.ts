import http from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { AppError, envelope } from './errors.js';
import { registerErrorHandler, unavailableError } from './server/error-handler.js';
import fastifyCompress from '@fastify/compress';
import { cachedGetFastPath } from './server/cached-get.js';
import { COMPRESS_OPTIONS } from './server/compression.js';
import { createEdge } from './server/edge.js';
import { EXTERNAL_PREFIX, externalApi, type ResponseObserver } from './server/external.js';
import { createLogger, requestLogHook } from './server/logging.js';
import { refuseUnstorableTextInBody, refuseUnstorableTextInUrl } from './server/storable-text.js';
import { memoryStore, redisStore, resetSeconds, type RateLimitStore } from './server/rate-limit.js';
import { requestId } from './server/request-id.js';
import { ResponseCache } from './server/response-cache.js';
import { createRouteTable, refuseRouteMissBeforeBody, routeMissHandler } from './server/route-table.js';
import { serializerCompiler } from './http/serialization.js';
import { discardUnreadBody } from './server/unread-body.js';
import { validatorCompiler } from './http/validation.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { contentKeysRoutes } from './modules/content-keys/content-keys.routes.js';
import { contentApiRoutes } from './modules/content-api/content-api.routes.js';
import { contentChangesRoutes } from './modules/content-api/content-changes.routes.js';
import { previewsRoutes } from './modules/content-api/previews.routes.js';
import { pendingRoutes } from './modules/pending/pending.routes.js';
import { reviewLinksRoutes } from './modules/review-links/review-links.routes.js';
import { REVIEW_PATH, reviewPageRoutes, sendUnreadableLink } from './modules/review-links/review-page.routes.js';
import { CONTENT_PREFIX, contentApi } from './server/content.js';
import { authorsRoutes } from './modules/authors/authors.routes.js';
import { categoriesRoutes } from './modules/categories/categories.routes.js';
import { changesRoutes } from './modules/changes/changes.routes.js';
import { dashboard, DEFAULT_DASHBOARD_DIR } from './server/dashboard.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { mediaFileRoutes } from './modules/media/media-files.routes.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { pagesRoutes } from './modules/pages/pages.routes.js';
import { postsRoutes } from './modules/posts/posts.routes.js';
import { linkHealthRoutes } from './modules/link-health/link-health.routes.js';
import { redirectsRoutes } from './modules/redirects/redirects.routes.js';
import { revisionsRoutes } from './modules/revisions/revisions.routes.js';
import { siteSettingsRoutes } from './modules/site-settings/site-settings.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { registerOpenApi } from './openapi/document.js';
import { contentDocumentRoute, docsRoutes, openApiDocumentRoute } from './openapi/routes.js';
import type { Metrics } from './metrics/metrics.js';
import type { MasterKey } from './security/master-key.js';
import { createServices } from './services.js';

export const JSON_BODY_LIMIT = 16 * 1024 * 1024;
const NOSNIFF_HEADER = 'X-Content-Type-Options';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  masterKey: MasterKey;
  /** Present when REDIS_URL is set: the rate-limit bucket shared by every instance. */
  redis?: Redis | null;
  /** Overrides the logger (tests silence it or capture its lines). */
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** The built dashboard app; defaults to <repo>/dashboard/dist (tests point it at a directory of their own). */
  dashboardDir?: string;
  /** Sees every answer of the external and content APIs (the tests check each against its OpenAPI document). */
  responseObserver?: ResponseObserver;
}

/** Builds the whole application; production and the tests call this same function. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  // prom-client is loaded only when metrics are wanted: off by default, they cost a start nothing then.
  const responseCache = new ResponseCache(config.responseCacheBytes);
  const metrics: Metrics | null =
    config.metrics.token !== null || config.metrics.port !== null
      ? (await import('./metrics/metrics.js')).createMetrics({
          database,
          responseCacheBytes: () => responseCache.bytes,
        })
      : null;
  const options: FastifyServerOptions = {
    // Requests Node's parser refuses (raw non-ASCII in a URL, malformed headers) still get the envelope.
    // A request not received within requestTimeout (a trickled body) arrives here too.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (!socket.writable) return;
      // Node's own rule: an answer already on its way must not be followed by a second one.
      if ((socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) return socket.destroy();
      const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const body = JSON.stringify(
        envelope(
          timedOut
            ? new AppError('BAD_REQUEST', 'The request was not received in time', { reason: 'request_timeout' })
            : new AppError('BAD_REQUEST', 'The request could not be parsed', { reason: 'malformed_request' }),
        ),
      );
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${NOSNIFF_HEADER}: nosniff\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    ...(deps.logger !== undefined
      ? { logger: deps.logger }
      : { loggerInstance: deps.loggerInstance ?? createLogger(config.logLevel) }),
    // One line a request, at its answer (server/logging.ts requestLogHook), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    // A client gets this long to send a whole request; without it one trickling a body holds its connection forever.
    requestTimeout: config.requestTimeoutMs,
    // A hop count is valid at run time; Fastify's types name only the other forms.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    // `/posts/` is `/posts`: a trailing slash must not turn a list into an item route with an empty id.
    routerOptions: { ignoreTrailingSlash: true },
    // A URL Fastify cannot even route (bad percent-encoding) still gets the envelope and a request id.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id).header(NOSNIFF_HEADER, 'nosniff');
      // A review link mangled in transit is read by a person, in a browser: the page, never the API's JSON.
      if (request.url.startsWith(REVIEW_PATH)) return void sendUnreadableLink(reply as FastifyReply, config.publicUrl);
      const reason = error.code === 'FST_ERR_BAD_URL' ? 'bad_url' : 'bad_request';
      void (reply as FastifyReply)
        .code(400)
        .send(envelope(new AppError('BAD_REQUEST', 'The request could not be routed', { reason })) as never);
    },
  };
  let fastPath: ReturnType<typeof cachedGetFastPath> | undefined;
  options.serverFactory = (handler, settings) => {
    const server = http.createServer((request, response) => {
      discardUnreadBody(request, response);
      // Only GETs of the external API may be answered from the response cache; all else goes on at once.
      if (fastPath === undefined || request.method !== 'GET' || !request.url?.startsWith(`${EXTERNAL_PREFIX}/`))
        return handler(request, response);
      const started = metrics ? performance.now() : 0;
      fastPath(request, response).then(
        (answered) => {
          if (!answered) return handler(request, response);
          metrics?.answeredEarly(request, response, started);
        },
        (error: unknown) => {
          // Fastify answers the request with the same decision's error; an away database is logged there, once.
          if (!unavailableError(database.dialect, error)) app.log.error({ err: error }, 'cached-GET fast path failed');
          handler(request, response);
        },
      );
    });
    // What Fastify sets on a server it creates itself.
    const timeouts = settings as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
    server.keepAliveTimeout = timeouts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = timeouts.requestTimeout ?? 0;
    // Node looks for requests past their time every 30 s by default (read at listen; absent from its types),
    // and swaps the two timeouts when the headers' is the longer one.
    const checkEvery = Math.min(30_000, Math.max(100, server.requestTimeout / 10));
    Object.assign(server, { connectionsCheckingInterval: checkEvery });
    if (server.requestTimeout > 0) server.headersTimeout = Math.min(server.headersTimeout, server.requestTimeout);
    server.setTimeout(timeouts.connectionTimeout ?? 0);
    return server;
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('quireMetrics', metrics);
  metrics?.instrument(app);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON is the only media type the API speaks (multipart arrives with media uploads).
  app.removeContentTypeParser('text/plain');
  // Many clients send `Content-Type: application/json` on every request, bodiless ones included
  // (reveal, revoke): an empty body is no body, and a route that needs one says so in validation.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text === '') return done(null, undefined);
    parseJson(request, text, (error, parsed) => {
      if (error) return done(error);
      try {
        refuseUnstorableTextInBody(text, parsed);
        done(null, parsed);
      } catch (refusal) {
        done(refusal as Error);
      }
    });
  });
  app.addHook('preValidation', refuseUnstorableTextInUrl);
  registerErrorHandler(app, database.dialect);

  const table = createRouteTable();
  app.addHook('onRoute', (route) => table.add(route.method, route.url));
  app.addHook('onRequest', async (request, reply) => {
    // nosniff on every answer: a browser must never read an API answer as anything but its declared type.
    reply.header('X-Request-Id', request.id).header(NOSNIFF_HEADER, 'nosniff');
  });
  app.addHook('onResponse', requestLogHook);
  app.setNotFoundHandler(routeMissHandler(table));
  // Here, before the scopes register, so that it runs in each of them after the scope's own onRequest hooks.
  app.addHook('preParsing', refuseRouteMissBeforeBody(table));

  const services = createServices(database, deps.masterKey, config);
  const store: RateLimitStore = deps.redis ? redisStore(deps.redis, app.log) : memoryStore();

  // The OpenAPI generator records routes as they register, so it comes before all of them.
  await registerOpenApi(app);
  // Before every route too: it adds its onSend to each route as it registers (after the scopes' own hooks, so
  // the ETag and the response cache see an answer's bytes as they are). Cached answers are sent compressed
  // already (server/caching.ts), and it leaves an answer with a Content-Encoding alone.
  await app.register(fastifyCompress, COMPRESS_OPTIONS);
  await app.register(healthRoutes, { database, redis: deps.redis ?? null });
  // Public media URLs: no key, and outside the API's rate limit (pages embed many images at once).
  await app.register(mediaFileRoutes, { media: services.media });
  // The page a review link opens: its token is the only credential, and it answers HTML, never the API's JSON.
  await app.register(reviewPageRoutes, {
    reviewLinks: services.reviewLinks,
    publicUrl: config.publicUrl,
    unavailable: (error) => unavailableError(database.dialect, error) !== null,
    // Its own bucket per address, at the API's limit: a reader's page loads do not spend a site's API calls.
    throttle: async (ip) => {
      const limit = await store.hit(`review ${ip}`, config.rateLimit.windowMs);
      return limit.count > config.rateLimit.max ? resetSeconds(limit.resetMs) : null;
    },
  });
  // The fast path counts requests by socket address; behind a trusted proxy only Fastify knows the client's.
  const edge = createEdge({ db: database.db, cache: responseCache, rateLimit: { store, ...config.rateLimit } });
  if (config.trustProxy === false && responseCache.enabled) {
    fastPath = cachedGetFastPath({ prefix: `${EXTERNAL_PREFIX}/`, edge, cache: responseCache, log: () => app.log });
  }
  await app.register(externalApi, {
    prefix: EXTERNAL_PREFIX,
    edge,
    routeTable: table,
    responseCache,
    observeResponse: deps.responseObserver,
    routes: async (scope) => {
      await scope.register(openApiDocumentRoute);
      await scope.register(apiKeysRoutes, { apiKeys: services.apiKeys });
      await scope.register(contentKeysRoutes, { contentKeys: services.contentKeys });
      await scope.register(previewsRoutes, { previews: services.previews });
      await scope.register(authorsRoutes, { authors: services.authors });
      await scope.register(categoriesRoutes, { categories: services.categories });
      await scope.register(tagsRoutes, { tags: services.tags });
      await scope.register(postsRoutes, { posts: services.posts, reads: services.postReads });
      await scope.register(redirectsRoutes, { redirects: services.redirects });
      await scope.register(linkHealthRoutes, { linkHealth: services.linkHealth });
      await scope.register(pagesRoutes, { pages: services.pages, reads: services.pageReads });
      await scope.register(revisionsRoutes, { revisions: services.revisions });
      await scope.register(pendingRoutes, { pending: services.pending });
      await scope.register(reviewLinksRoutes, { reviewLinks: services.reviewLinks });
      await scope.register(changesRoutes, { database });
      await scope.register(mediaRoutes, { media: services.media, maxUploadBytes: config.maxUploadBytes });
      await scope.register(siteSettingsRoutes, { siteSettings: services.siteSettings });
      await scope.register(webhooksRoutes, { webhooks: services.webhooks });
    },
  });
  await app.register(contentApi, {
    prefix: CONTENT_PREFIX,
    db: database.db,
    edge,
    routeTable: table,
    responseCache,
    rateLimit: { store, ...config.rateLimit },
    sharedMaxAge: config.cdn.sharedMaxAge,
    observeResponse: deps.responseObserver,
    routes: async (scope) => {
      await scope.register(contentApiRoutes, {
        services,
        previews: services.previews,
        feeds: services.feeds,
        publicUrl: config.publicUrl,
      });
      await scope.register(contentChangesRoutes, { database });
    },
  });
  await app.register(contentDocumentRoute);
  await app.register(docsRoutes);
  if (metrics && config.metrics.token !== null) {
    const { metricsRoute } = await import('./metrics/metrics.js');
    metricsRoute(app, metrics, config.metrics.token);
  }
  await app.register(dashboard, {
    services,
    publicUrl: config.publicUrl,
    routeTable: table,
    distDir: deps.dashboardDir ?? DEFAULT_DASHBOARD_DIR,
    maxUploadBytes: config.maxUploadBytes,
    imports: {
      database,
      maxBytes: config.importMaxBytes,
      media: { maxBytes: config.maxUploadBytes, allowPrivate: config.webhookAllowPrivate },
    },
  });
  return app;
}
