import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TestContext, TestUser } from './app.js';
import type { Json, Response } from './posts.js';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';

export const DASHBOARD = '/api/v1/dashboard';

/** A signed-in browser: the session cookie it holds and the CSRF token the API gave it. */
export interface Browser {
  cookie: string;
  csrfToken: string;
  user: { id: string; email: string };
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A user with a real (scrypt) password, so they can sign in. */
export async function userWithPassword(
  ctx: TestContext,
  password = `pw-${crypto.randomBytes(6).toString('hex')}`,
): Promise<TestUser & { password: string }> {
  const email = `dash-${crypto.randomBytes(5).toString('hex')}@example.com`;
  const created = await ctx.runtime.services.accounts.createUser(email, password);
  return { id: created.id, email, password };
}

/** The value of the session cookie a response sets (undefined when it sets none). */
export function sessionCookieOf(response: Response): { value: string; raw: string } | undefined {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const raw = lines.find((line) => line.startsWith('quire_session='));
  if (raw === undefined) return undefined;
  return { value: raw.slice('quire_session='.length).split(';')[0]!, raw };
}

export function browserFrom(response: Response): Browser {
  expect(response.statusCode, response.body).toBeLessThan(300);
  const cookie = sessionCookieOf(response);
  expect(cookie).toBeDefined();
  const body = response.json() as { csrfToken: string; user: { id: string; email: string } };
  return { cookie: `quire_session=${cookie!.value}`, csrfToken: body.csrfToken, user: body.user };
}

export function signInRequest(
  ctx: TestContext,
  email: string,
  password: string,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  return ctx.app.inject({
    method: 'POST',
    url: `${DASHBOARD}/session`,
    payload: { email, password },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    headers: options.headers ?? {},
  });
}

export async function signIn(
  ctx: TestContext,
  user: { email: string; password: string },
  remoteAddress?: string,
): Promise<Browser> {
  return browserFrom(await signInRequest(ctx, user.email, user.password, remoteAddress ? { remoteAddress } : {}));
}

/** A request as the dashboard app makes it: the cookie, and the CSRF token on writes. */
export function send(
  ctx: TestContext,
  browser: Browser | null,
  method: Method,
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const withCsrf = browser && method !== 'GET' ? { 'x-csrf-token': browser.csrfToken } : {};
  return ctx.app.inject({
    method,
    url: `${DASHBOARD}${path}`,
    headers: { ...(browser ? { cookie: browser.cookie } : {}), ...withCsrf, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
}

/** A workspace owned by a fresh user who is signed in. */
export async function signedInOwner(
  ctx: TestContext,
): Promise<{ owner: Browser; workspaceId: string; password: string }> {
  const user = await userWithPassword(ctx);
  const owner = await signIn(ctx, user);
  const created = await send(ctx, owner, 'POST', '/workspaces', {
    name: `Site ${crypto.randomBytes(3).toString('hex')}`,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { owner, workspaceId: (created.json() as { id: string }).id, password: user.password };
}

/** A signed-in member of `workspaceId` holding exactly `permissions`. */
export async function signedInMember(ctx: TestContext, workspaceId: string, permissions: string[]): Promise<Browser> {
  const user = await userWithPassword(ctx);
  await ctx.runtime.services.accounts.addMember(workspaceId, user.email, permissions as never, COMMAND_LINE);
  return signIn(ctx, user);
}
