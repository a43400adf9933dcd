import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponses } from '../http/responses.js';
import { entityTag } from '../shared/entity-tag.js';
import { CONTENT_DOCUMENT, CONTENT_DOCUMENT_PATH } from './content-document.js';

/** Serialized once: the document cannot change while the process runs. */
function documentText(app: FastifyInstance): () => string {
  let text: string | undefined;
  return () => (text ??= JSON.stringify(app.swagger()));
}

/**
 * GET /api/v1/external/openapi.json, inside the external scope: like every path there it needs a key
 * (contract §7 answers 401 before anything else), but no permission, so any valid key may read it.
 */
export const openApiDocumentRoute: FastifyPluginAsync = async (app) => {
  const text = documentText(app);
  app.get(
    '/openapi.json',
    {
      schema: { tags: ['meta'], response: { 200: Type.Object({}, { additionalProperties: true }), ...ErrorResponses } },
    },
    (_request, reply) => reply.type('application/json; charset=utf-8').send(text()),
  );
};

/**
 * GET /api/v1/content/openapi.json, registered outside the content scope: no key, no rate limit, any origin. A
 * schema describes a public API and holds nothing a key protects; site generators and browser tools fetch it as is.
 * A wrong method on it still meets the scope's not-found handler (key, then 405).
 */
export const contentDocumentRoute: FastifyPluginAsync = async (app) => {
  let answer: { text: string; etag: string } | undefined;
  const read = () => {
    if (answer) return answer;
    const text = JSON.stringify((app as unknown as Record<string, () => unknown>)[CONTENT_DOCUMENT]!());
    return (answer = { text, etag: entityTag(text) });
  };
  app.get(CONTENT_DOCUMENT_PATH, { schema: { hide: true } }, (request, reply) => {
    const { text, etag } = read();
    reply.headers({ 'Cache-Control': 'no-cache', ETag: etag, 'Access-Control-Allow-Origin': '*' });
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(text);
  });
};

/** The reference page's own files and nothing else: no CDN, no inline script, no framing. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The one <style> element Swagger UI renders itself (its content is fixed in the installed bundle).
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * /docs: Swagger UI from the installed package, reading the public copy of the document at
 * /docs/openapi.json. The reader pastes a key into Authorize and calls the API from the page, on the
 * same origin. Neither keyed nor rate limited: it is static, like the health checks.
 */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  const text = documentText(app);
  app.get('/docs/openapi.json', { schema: { hide: true } }, (_request, reply) =>
    reply
      .headers({ ...DOCS_HEADERS, 'Cache-Control': 'no-cache' })
      .type('application/json; charset=utf-8')
      .send(text()),
  );

  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    staticCSP: CSP,
    // The UI's own config cannot name another document URL (it always loads ./json), so ./json sends it on.
    uiHooks: {
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        reply.headers(DOCS_HEADERS);
        if (request.routeOptions.url === '/docs/json') return reply.redirect('/docs/openapi.json', 308);
      },
    },
    // BaseLayout: no top bar, whose URL box would invite loading other documents into the page.
    uiConfig: { layout: 'BaseLayout', deepLinking: true, persistAuthorization: false, displayOperationId: true },
    theme: { title: 'Quire API reference' },
  });
};
