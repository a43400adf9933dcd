import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ContentChangesPage, PublicMedia } from '../modules/content-api/content-api.schemas.js';
import { CONTENT_PREFIX } from '../server/content.js';
import { namedSchemas, simplify, type Json, type JsonObject } from './components.js';
import { CONTENT_API_DESCRIPTION, CONTENT_OPERATIONS, CONTENT_TAGS } from './content-operations.js';
import { POST_EXAMPLE } from './examples.js';
import { CACHE_HEADERS, COMMON_HEADERS, errorResponseRef, errorResponses, HEADERS } from './responses.js';

/** The decorator of the content API's @fastify/swagger instance: `app.swagger()` stays the external document. */
export const CONTENT_DOCUMENT = 'contentSwagger';
/** Where the document is served, outside the content scope: public, like the schema of any public API. */
export const CONTENT_DOCUMENT_PATH = `${CONTENT_PREFIX}/openapi.json`;

/** Per operation, carried from `transform` to `transformObject` and removed there. */
const CACHING_KEY = 'x-quire-caching';
const ERRORS_KEY = 'x-quire-errors';
const DESCRIPTION_KEY = 'x-response-description';
const PRODUCES_KEY = 'x-quire-produces';

type RouteSchema = FastifySchema & { response?: Record<string, unknown>; [key: string]: unknown };

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The content answers' own headers, beside the external API's (responses.ts). */
const CONTENT_HEADERS: Record<string, JsonObject> = {
  ...HEADERS,
  CacheControl: {
    description:
      'Cacheable answers: `public, max-age=0, must-revalidate, s-maxage=N, stale-while-revalidate=60, stale-if-error=86400` (browsers revalidate by ETag, shared caches keep N seconds between purges). Previews and the change feed: `no-store`.',
    required: true,
    schema: { type: 'string' },
  },
  SurrogateKey: {
    description:
      'Space-separated keys (Varnish xkey, Fastly) naming what the answer depends on: `ws-<workspace>`, then the resource and what it embeds (`post-<id>`, `author-<id>` …) or a list’s collection (`posts-<workspace>` …).',
    required: true,
    schema: { type: 'string' },
  },
  CacheTag: {
    description: 'The same keys as `Surrogate-Key`, comma-separated (Cloudflare).',
    required: true,
    schema: { type: 'string' },
  },
  AccessControlAllowOrigin: {
    description:
      'Sent when the request has an `Origin` the key allows: `*` for a key without allowed origins, else the origin itself.',
    schema: { type: 'string' },
  },
  AccessControlExposeHeaders: {
    description:
      'With `Access-Control-Allow-Origin`: the headers a browser script may read (`ETag`, `X-Request-Id` …).',
    schema: { type: 'string' },
  },
  Vary: {
    description: '`Origin` when the key has allowed origins: the answer’s CORS headers depend on it.',
    schema: { type: 'string' },
  },
};

const CORS_HEADERS: JsonObject = {
  'Access-Control-Allow-Origin': header('AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': header('AccessControlExposeHeaders'),
  Vary: header('Vary'),
};

const SURROGATE_HEADERS: JsonObject = { 'Surrogate-Key': header('SurrogateKey'), 'Cache-Tag': header('CacheTag') };

/** The content API's words for the statuses whose meaning differs from the admin API's. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  BadRequest:
    'BAD_REQUEST: a query parameter is invalid or unknown (`details.issues` holds JSON Pointers, e.g. `/pageSize`), or the query string is malformed.',
  Unauthorized:
    'UNAUTHORIZED: the `key` query parameter is missing, malformed, unknown or revoked (the cases cannot be told apart).',
  NotFound:
    'NOT_FOUND: no such published resource in the workspace of the key (a draft is absent too), or a preview token that does not open this one.',
};

/**
 * Describes one route: content routes get their operationId, tag, summary, success and error responses; every other
 * route (the external and dashboard APIs, health, files, this document's own route) is left out.
 */
const describeContentRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!url.startsWith(`${CONTENT_PREFIX}/`) || url === CONTENT_DOCUMENT_PATH)
    return { schema: { ...schema, hide: true }, url };
  const method = String(route.method);
  const key = `${method} ${url.slice(CONTENT_PREFIX.length)}`;
  const operation = CONTENT_OPERATIONS[key];
  // A new content route must be named in content-operations.ts: its operationId is part of the content client.
  if (!operation)
    throw new Error(`OpenAPI: the content route ${key} has no entry in src/openapi/content-operations.ts`);

  const source = schema as RouteSchema;
  const noStore = route.config?.noStore === true;
  const response: Record<string, unknown> = {};
  for (const [status, body] of Object.entries(source.response ?? {}))
    if (/^2\d\d$/.test(status)) response[status] = { ...(body as object), [DESCRIPTION_KEY]: 'OK' };
  // A document that is not JSON: a string here, given its media types in finishOperation.
  if (operation.produces) response['200'] = { type: 'string', [DESCRIPTION_KEY]: 'OK' };
  if (!noStore)
    response['304'] = {
      type: 'null',
      [DESCRIPTION_KEY]: 'Not modified: the `If-None-Match` ETag still matches; no body.',
    };
  const errors = [400, 401];
  if (source.params) errors.push(404);
  errors.push(429, 500, 503);

  const described: RouteSchema = {
    tags: [operation.tag],
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    response,
    [ERRORS_KEY]: errors,
    [CACHING_KEY]: noStore ? 'no-store' : 'shared',
    ...(operation.produces ? { [PRODUCES_KEY]: operation.produces } : {}),
  };
  for (const part of ['params', 'querystring'] as const) if (source[part]) described[part] = source[part];
  return { schema: described, url };
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function finishOperation(operation: JsonObject): void {
  // The key is the security scheme's (`ContentKey`); as a parameter too it would be asked for twice.
  operation.parameters = ((operation.parameters ?? []) as JsonObject[]).filter(
    (parameter) => !(parameter.in === 'query' && parameter.name === 'key'),
  );
  // A query parameter with a default may be left out, though the route's schema requires it after defaults apply.
  for (const parameter of operation.parameters as JsonObject[])
    if (parameter.in === 'query' && (parameter.schema as JsonObject).default !== undefined) parameter.required = false;
  const responses = operation.responses as Record<string, JsonObject>;
  const shared = operation[CACHING_KEY] === 'shared';
  for (const [status, response] of Object.entries(responses)) {
    response.headers =
      status === '304'
        ? { 'X-Request-Id': COMMON_HEADERS['X-Request-Id']!, ETag: CACHE_HEADERS.ETag! }
        : shared
          ? { ...COMMON_HEADERS, ...CACHE_HEADERS, ...SURROGATE_HEADERS, ...CORS_HEADERS }
          : { ...COMMON_HEADERS, 'Cache-Control': CACHE_HEADERS['Cache-Control']!, ...CORS_HEADERS };
  }
  for (const status of operation[ERRORS_KEY] as number[])
    responses[String(status)] = errorResponseRef(status) as JsonObject;
  delete operation[ERRORS_KEY];
  delete operation[CACHING_KEY];
  const produces = operation[PRODUCES_KEY] as string[] | undefined;
  if (produces) {
    responses['200']!.content = Object.fromEntries(produces.map((type) => [type, { schema: { type: 'string' } }]));
    delete operation[PRODUCES_KEY];
  }
  if (operation.operationId === 'getPost' || operation.operationId === 'getPostPreview')
    ((responses['200']!.content as JsonObject)['application/json'] as JsonObject).examples = {
      post: { $ref: '#/components/examples/Post' },
    };
}

/** The `$ref`s `value` holds, anywhere in it. */
function refsOf(value: Json, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsOf(item, found);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.add(item);
      else refsOf(item, found);
    }
  return found;
}

/**
 * Only the components the operations reach, directly or through each other: the named schemas are the whole
 * admin API's (components.ts), most of which (write bodies, keys, webhooks) the content API never answers.
 */
function reachable(paths: Json, components: Record<string, Record<string, Json>>): JsonObject {
  const seen = new Set<string>();
  const queue = [...refsOf(paths, new Set())];
  while (queue.length > 0) {
    const ref = queue.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [, , kind, name] = ref.split('/');
    const target = components[kind!]?.[name!];
    if (target !== undefined) queue.push(...refsOf(target, new Set()));
  }
  const kept: JsonObject = {};
  for (const [kind, entries] of Object.entries(components)) {
    const names = Object.keys(entries).filter((name) => seen.has(`#/components/${kind}/${name}`));
    if (names.length > 0) kept[kind] = Object.fromEntries(names.sort().map((name) => [name, entries[name]!]));
  }
  return kept;
}

function finishDocument(document: JsonObject): JsonObject {
  const named = namedSchemas({ PublicMedia, ContentChangesPage });
  const paths = document.paths as Record<string, Record<string, JsonObject>>;
  for (const item of Object.values(paths))
    for (const method of METHODS) if (item[method]) finishOperation(item[method]);
  const referenced = named.reference(simplify(paths as unknown as Json));
  const responses = errorResponses() as Record<string, JsonObject>;
  for (const [name, description] of Object.entries(ERROR_DESCRIPTIONS)) responses[name]!.description = description;
  const components = reachable(referenced, {
    schemas: named.schemas,
    responses: responses as Record<string, Json>,
    headers: CONTENT_HEADERS as Record<string, Json>,
    examples: { Post: { summary: 'A published post', value: POST_EXAMPLE as unknown as Json } },
  });
  const securitySchemes = (document.components as JsonObject).securitySchemes!;
  return { ...document, paths: referenced, components: { ...components, securitySchemes } };
}

/** The content API's document (docs/content-api.md); registered beside the external one, before any route. */
export async function registerContentOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    decorator: CONTENT_DOCUMENT,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire content API',
        version: '1.0.0',
        description: CONTENT_API_DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: CONTENT_PREFIX, description: 'This Quire server' }],
      tags: CONTENT_TAGS,
      components: {
        securitySchemes: {
          ContentKey: {
            type: 'apiKey',
            in: 'query',
            name: 'key',
            description: 'A read-only content key, `quire_content_…`, safe to ship in a site’s pages.',
          },
        },
      },
      security: [{ ContentKey: [] }],
    },
    convertConstToEnum: false,
    transform: describeContentRoute,
    transformObject: (built) =>
      finishDocument(('openapiObject' in built ? built.openapiObject : {}) as unknown as JsonObject) as never,
  });
}
