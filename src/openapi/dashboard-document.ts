import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import {
  SessionInfo,
  SessionsEnded,
  Member,
  MemberAddBody,
  MemberPermissionsBody,
  PasswordChangeBody,
  Removed,
  Session,
  SetupBody,
  SetupStatus,
  SignedOut,
  SignInBody,
  TransferBody,
  WorkspaceNameBody,
  WorkspaceSummary,
} from '../modules/dashboard/dashboard.schemas.js';
import {
  AcceptBody,
  Capabilities,
  Invitation,
  InvitationPreview,
  InvitationSent,
  ResetBody,
  ResetRequestBody,
  ResetRequested,
  Revoked,
  TokenBody,
} from '../modules/team/team.schemas.js';
import { SiteSettingsPatch } from '../modules/workspaces/site-settings.patch.js';
import { SiteSettings } from '../modules/workspaces/site-settings.js';
import { namedSchemas, simplify, type Json, type JsonObject } from './components.js';
import { OPERATIONS } from './operations.js';
import { TAGS } from './text.js';

export const DASHBOARD_PREFIX = '/api/v1/dashboard';
/** The decorator of the second @fastify/swagger instance: `app.swagger()` stays the external document. */
export const DASHBOARD_DOCUMENT = 'dashboardSwagger';

const WORKSPACE_PREFIX = '/workspaces/:workspaceId';

type RouteSchema = FastifySchema & { response?: Record<string, unknown>; [key: string]: unknown };

/** The dashboard's own shapes, named so the dashboard's generated types have one name per shape. */
const DASHBOARD_NAMED = {
  Session,
  WorkspaceSummary,
  SetupStatus,
  SetupBody,
  SignInBody,
  SignedOut,
  PasswordChangeBody,
  WorkspaceNameBody,
  DashboardSiteSettings: SiteSettings,
  SiteSettingsPatch,
  Member,
  MemberAddBody,
  MemberPermissionsBody,
  TransferBody,
  Removed,
  Invitation,
  InvitationSent,
  InvitationPreview,
  AcceptBody,
  ResetRequestBody,
  ResetRequested,
  ResetBody,
  TokenBody,
  Revoked,
  Capabilities,
  SessionInfo,
  SessionsEnded,
};

/** `getSession`, `patchWorkspacesSettings`, …: stable enough for a document that only the dashboard reads. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((part) => part && !part.startsWith(':'))
    .flatMap((part) => part.split('-'));
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/**
 * The dashboard's routes only: its own (sessions, workspaces, members, keys) and the external API's content
 * routes mounted under `/workspaces/{workspaceId}`, which keep the external document's operationId with
 * `dashboard` in front. Every error is the shared envelope (`default`).
 */
const describeDashboardRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!url.startsWith(`${DASHBOARD_PREFIX}/`)) return { schema: { ...schema, hide: true }, url };
  const method = String(route.method);
  const path = url.slice(DASHBOARD_PREFIX.length);
  const mounted = path.startsWith(`${WORKSPACE_PREFIX}/`)
    ? OPERATIONS[`${method} ${path.slice(WORKSPACE_PREFIX.length)}`]
    : undefined;
  const operationId = mounted
    ? `dashboard${mounted.operationId[0]!.toUpperCase()}${mounted.operationId.slice(1)}`
    : operationIdOf(method, path);

  const source = schema as RouteSchema;
  const response: Record<string, unknown> = {};
  for (const [status, body] of Object.entries(source.response ?? {})) {
    if (/^2\d\d$/.test(status))
      response[status] = { ...(body as object), 'x-response-description': status === '201' ? 'Created' : 'OK' };
    // A browser navigation's answer (single sign-on's routes).
    if (status === '302') response[status] = { ...(body as object), 'x-response-description': 'Found: see Location' };
  }
  const described: RouteSchema = {
    tags: mounted ? (source.tags ?? ['dashboard']) : ['dashboard'],
    operationId,
    ...(mounted ? { summary: mounted.summary } : {}),
    response,
  };
  for (const part of ['params', 'querystring', 'body'] as const) if (source[part]) described[part] = source[part];
  return { schema: described, url };
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function finishDocument(document: JsonObject): JsonObject {
  const named = namedSchemas(DASHBOARD_NAMED);
  const paths = document.paths as Record<string, Record<string, JsonObject>>;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // A query parameter with a default may be left out, though the route's schema requires it after defaults apply.
      for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
        if (parameter.in === 'query' && (parameter.schema as JsonObject).default !== undefined)
          parameter.required = false;
      }
      const responses = operation.responses as Record<string, JsonObject>;
      responses.default = { $ref: '#/components/responses/Error' };
      if (operation.operationId === 'dashboardUploadMedia') operation.requestBody = UPLOAD_BODY;
    }
  }
  return {
    ...document,
    paths: named.reference(simplify(paths as unknown as Json)),
    components: {
      schemas: named.schemas,
      responses: {
        Error: {
          description:
            'The error envelope `{code, message, details}`: 400 (with `details.issues`), 401, 403, 404, 409, 429, 503.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
    },
  };
}

/** POST …/media parses its multipart body itself, so the route declares no body schema. */
const UPLOAD_BODY: JsonObject = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: { type: 'string', format: 'binary' },
          alt: { type: 'string' },
          caption: { type: 'string' },
        },
      },
    },
  },
};

/** The dashboard's document (for its generated types); registered beside the external one, before any route. */
export async function registerDashboardOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    decorator: DASHBOARD_DOCUMENT,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire dashboard API',
        version: '1.0.0',
        description:
          'The session-authenticated API of the dashboard (docs/dashboard.md): a session cookie, and `X-CSRF-Token` on every write. Internal: it may change with the dashboard.',
      },
      servers: [{ url: DASHBOARD_PREFIX, description: 'This Quire server' }],
      tags: [{ name: 'dashboard', description: 'Sessions, workspaces, members and API keys.' }, ...TAGS],
    },
    convertConstToEnum: false,
    transform: describeDashboardRoute,
    transformObject: (built) =>
      finishDocument(('openapiObject' in built ? built.openapiObject : {}) as unknown as JsonObject) as never,
  });
}
