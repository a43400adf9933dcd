import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { EXTERNAL_PREFIX } from '../server/external.js';
import { MEDIA_LIMITS } from '../modules/media/media.schemas.js';
import { namedSchemas, simplify, type Json, type JsonObject } from './components.js';
import { POST_EXAMPLE, POST_RESPONSE_OPERATIONS, REQUEST_EXAMPLES } from './examples.js';
import { OPERATIONS } from './operations.js';
import { CACHE_HEADERS, COMMON_HEADERS, errorResponseRef, errorResponses, HEADERS } from './responses.js';
import { API_DESCRIPTION, TAGS } from './text.js';
import { registerDashboardOpenApi } from './dashboard-document.js';
import { registerContentOpenApi } from './content-document.js';

/** Per operation, carried from `transform` to `transformObject` and removed there. */
const ERRORS_KEY = 'x-quire-errors';
const CACHING_KEY = 'x-quire-caching';
/** @fastify/swagger's key for a response's description; unlike `description`, it does not stay in the schema. */
const DESCRIPTION_KEY = 'x-response-description';

type RouteSchema = FastifySchema & { response?: Record<string, unknown>; [key: string]: unknown };

/**
 * Describes one route: external routes get their operationId, summary and success responses (the
 * TypeBox schemas the route declares), plus the list of error statuses it can answer; every other
 * route (dashboard, health, public media files, the reference page) is left out of the document.
 */
const describeRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!url.startsWith(`${EXTERNAL_PREFIX}/`)) return { schema: { ...schema, hide: true }, url };
  const method = String(route.method);
  const key = `${method} ${url.slice(EXTERNAL_PREFIX.length)}`;
  const operation = OPERATIONS[key];
  // A new route must be named in operations.ts: its operationId is part of the client's API.
  if (!operation) throw new Error(`OpenAPI: the external route ${key} has no entry in src/openapi/operations.ts`);

  const source = schema as RouteSchema;
  const permission = route.config?.permission;
  const noStore = route.config?.noStore === true;
  const cached = method === 'GET' && !noStore;
  const response: Record<string, unknown> = {};
  for (const [status, body] of Object.entries(source.response ?? {})) {
    if (/^2\d\d$/.test(status))
      response[status] = { ...(body as object), [DESCRIPTION_KEY]: status === '201' ? 'Created' : 'OK' };
  }
  if (cached)
    response['304'] = {
      type: 'null',
      [DESCRIPTION_KEY]: 'Not modified: the `If-None-Match` ETag still matches; no body.',
    };

  const errors = [400, 401];
  if (permission || operation.forbidden) errors.push(403);
  if (source.params || operation.notFound) errors.push(404);
  if (operation.conflict) errors.push(409);
  errors.push(429, 500, 503);

  const draft = route.config?.draft === true && permission ? permission.replace(/:write$/, ':draft') : undefined;
  const needs = permission
    ? draft
      ? `Needs the \`${permission}\` permission, or \`${draft}\` for a draft that stays a draft.`
      : `Needs the \`${permission}\` permission.`
    : undefined;
  const description = [operation.description, needs].filter(Boolean).join('\n\n');
  const described: RouteSchema = {
    tags: source.tags ?? ['meta'],
    operationId: operation.operationId,
    summary: operation.summary,
    description,
    response,
    [ERRORS_KEY]: errors,
    [CACHING_KEY]: noStore ? 'no-store' : cached ? 'revalidate' : 'none',
    ...(permission ? { 'x-permission': permission } : {}),
  };
  for (const part of ['params', 'querystring', 'headers', 'body'] as const)
    if (source[part]) described[part] = source[part];
  return { schema: described, url };
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function finishOperation(operation: JsonObject): void {
  const id = operation.operationId as string;
  // A query parameter with a default may be left out, though the route's schema requires it after defaults apply.
  for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
    if (parameter.in === 'query' && (parameter.schema as JsonObject).default !== undefined) parameter.required = false;
  }
  const responses = operation.responses as Record<string, JsonObject>;
  for (const [status, response] of Object.entries(responses)) {
    const headers: JsonObject =
      status === '304'
        ? { 'X-Request-Id': COMMON_HEADERS['X-Request-Id']!, ETag: CACHE_HEADERS.ETag! }
        : { ...COMMON_HEADERS };
    if (status === '200' && operation[CACHING_KEY] === 'revalidate') Object.assign(headers, CACHE_HEADERS);
    if (operation[CACHING_KEY] === 'no-store') headers['Cache-Control'] = CACHE_HEADERS['Cache-Control']!;
    response.headers = headers;
  }
  for (const status of operation[ERRORS_KEY] as number[])
    responses[String(status)] = errorResponseRef(status) as JsonObject;
  delete operation[ERRORS_KEY];
  delete operation[CACHING_KEY];

  if (id === 'uploadMedia') operation.requestBody = UPLOAD_BODY;
  const examples = REQUEST_EXAMPLES[id];
  const json = ((operation.requestBody as JsonObject | undefined)?.content as JsonObject | undefined)?.[
    'application/json'
  ] as JsonObject | undefined;
  if (examples && json) json.examples = examples as unknown as Json;
  if (POST_RESPONSE_OPERATIONS.includes(id)) {
    const success = (responses['200'] ?? responses['201'])!;
    ((success.content as JsonObject)['application/json'] as JsonObject).examples = {
      post: { $ref: '#/components/examples/Post' },
    };
  }
}

/** POST /media parses its multipart body itself (media.upload.ts), so the route declares no body schema. */
const UPLOAD_BODY: JsonObject = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            format: 'binary',
            description: 'The file; its type is sniffed from the bytes, never taken from the part headers.',
          },
          alt: {
            type: 'string',
            maxLength: MEDIA_LIMITS.alt,
            description: 'Alternative text; `""` marks a decorative image.',
          },
          caption: { type: 'string', maxLength: MEDIA_LIMITS.caption },
        },
        additionalProperties: false,
      },
    },
  },
};

/** The document as @fastify/swagger built it, with names, shared responses and examples added. */
function finishDocument(document: JsonObject): JsonObject {
  const named = namedSchemas();
  const paths = document.paths as Record<string, Record<string, JsonObject>>;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) if (item[method]) finishOperation(item[method]);
  }
  return {
    ...document,
    paths: named.reference(simplify(paths as unknown as Json)),
    components: {
      ...(document.components as JsonObject),
      schemas: named.schemas,
      responses: errorResponses(),
      headers: HEADERS,
      examples: { Post: { summary: 'A published post', value: POST_EXAMPLE } },
    },
  };
}

/** Registers the generator; it must come before the routes, whose registration it records. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await registerDashboardOpenApi(app);
  await registerContentOpenApi(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      // The version of the API (v1 in every path), not of the server.
      info: {
        title: 'Quire external API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: EXTERNAL_PREFIX, description: 'This Quire server' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'A workspace-bound key, `quire_live_…`.',
          },
        },
      },
      security: [{ ApiKey: [] }],
    },
    // OpenAPI 3.1 is JSON Schema 2020-12: `const` is valid, and it says more than a one-value enum.
    convertConstToEnum: false,
    transform: describeRoute,
    transformObject: (built) =>
      finishDocument(('openapiObject' in built ? built.openapiObject : {}) as unknown as JsonObject) as never,
  });
}
