/** The one way the dashboard talks to the server: JSON over /api/v1/dashboard with the session cookie. */

import createClient from 'openapi-fetch';
import type { paths } from './api/schema.js';
import { inWords } from './validation-words.js';

export const API_BASE = '/api/v1/dashboard';

export interface ErrorEnvelope {
  code: string;
  message: string;
  details?: Record<string, unknown> | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }

  /** Validation issues in words, each after the field it concerns ("siteUrl: Enter a full address …"). */
  get issues(): string[] {
    const issues = this.details?.issues;
    if (!Array.isArray(issues)) return [];
    return issues.flatMap((issue: { path?: string; message?: string }) => {
      const field = (issue.path ?? '').split('/')[1] ?? '';
      const words = inWords(issue.message ?? 'is not valid', field);
      return words === null ? [] : [field ? `${field}: ${words}` : words];
    });
  }
}

// The CSRF token lives in memory only: it comes with the Session and must never outlive the page.
let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a signed-in request answers 401: the session ended elsewhere (sign-out, password change). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Query = Record<string, string | number | boolean | null | undefined>;

/** Leaves out what a form left empty: `?q=` means the same as no `q` to the server, and reads worse. */
export function queryString(query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  return params.toString();
}

export function withQuery(path: string, query: Query = {}): string {
  const text = queryString(query);
  return text ? `${path}?${text}` : path;
}

/**
 * The one client of the dashboard's API, typed from its OpenAPI document (api/openapi.json, `npm run openapi`):
 * paths, parameters, bodies and answers are checked against the server's schemas at build time.
 */
export const client = createClient<paths>({
  baseUrl: API_BASE,
  credentials: 'same-origin',
  headers: { Accept: 'application/json' },
  querySerializer: (query) => queryString(query as Record<string, unknown>),
  // Looked up at each call, not once at load: whatever `fetch` the page has then is the one used.
  fetch: (input) => globalThis.fetch(input),
});

client.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
});

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * A call's body, or an ApiError: the envelope's code, message and details (a body that is not an envelope
 * gives `HTTP_<status>`), status 0 when the server could not be reached. A 401 tells the app the session
 * ended, unless `quiet401` (the first look at the session, sign-in: a 401 there is an answer, not news).
 */
export async function call<T>(answer: Promise<Answer<T>>, { quiet401 = false } = {}): Promise<T> {
  let settled: Answer<T>;
  try {
    settled = await answer;
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.');
  }
  const { response } = settled;
  if (!response.ok) {
    const envelope = (
      typeof settled.error === 'object' && settled.error !== null ? settled.error : {}
    ) as Partial<ErrorEnvelope>;
    if (response.status === 401 && !quiet401) onUnauthorized?.();
    throw new ApiError(
      response.status,
      envelope.code ?? `HTTP_${response.status}`,
      envelope.message ?? response.statusText,
      envelope.details ?? null,
    );
  }
  // An answer without a body (none today) reads as null, as before.
  return (settled.data ?? null) as T;
}

/**
 * A request by a path built at run time (a collection chosen by the screen: posts or pages), through the same
 * client; prefer the typed `client.GET('/workspaces/{workspaceId}/…')` wherever the path is known.
 */
export function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  { quiet401 = false, extraHeaders = {} as Record<string, string> } = {},
): Promise<T> {
  const [pathname, search] = path.split('?') as [string, string | undefined];
  const query = Object.fromEntries(new URLSearchParams(search ?? ''));
  const untyped = client as unknown as {
    request(method: string, url: string, init: Record<string, unknown>): Promise<Answer<T>>;
  };
  return call(untyped.request(method.toLowerCase(), pathname, { body, headers: extraHeaders, params: { query } }), {
    quiet401,
  });
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** Seconds a 503 asked to wait before trying again (the server says so in `details`), or null for any other error. */
export function unavailableFor(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.status !== 503) return null;
  const seconds = Number(error.details?.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 5;
}

/** A workspace-scoped path: every resource of the dashboard API lives under its workspace. */
export function ws(workspaceId: string, rest = ''): string {
  return `/workspaces/${encodeURIComponent(workspaceId)}${rest}`;
}

/** What a person should read for an error; the envelope's message is not a contract, the code is. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : 'Something went wrong.';
  switch (error.status) {
    case 0:
      return error.message;
    case 401:
      return 'Your session has ended. Sign in again.';
    case 403:
      return error.details?.reason === 'csrf'
        ? 'The request was refused as a possible forgery. Reload the page and try again.'
        : 'You do not have permission to do this.';
    case 404:
      return 'Not found.';
    case 429:
      return 'Too many attempts. Wait a few minutes and try again.';
    case 503:
      return error.details?.dependency === 'storage'
        ? 'Media storage is not answering right now. Try again in a few seconds.'
        : 'Quire’s database is not answering right now. Try again in a few seconds.';
    default: {
      // The validator's own text is for developers; a form shows these on its fields (form-errors.ts).
      const issues = error.issues;
      return issues.length > 0
        ? `Some values were not accepted. ${issues.join(' ')}`
        : error.message || 'Something went wrong.';
    }
  }
}

/** The CSRF header for requests `request` cannot make: a multipart upload that reports its progress. */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}

/**
 * A PATCH of a post or page that must still find the version it was based on: `If-Match` with that version
 * (its updatedAt, quoted); the server answers 409 `CONFLICT` with `details.reason = "stale"` otherwise.
 */
export function patchIfMatch<T>(path: string, body: unknown, version: string): Promise<T> {
  return request<T>('PATCH', path, body, { extraHeaders: { 'If-Match': `"${version}"` } });
}
