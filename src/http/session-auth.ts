import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export const SESSION_COOKIE = 'quire_session';
/** Sliding: every request pushes the expiry this far out again (at most once a minute). */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** 32 random bytes as base64url: the shape of a session token, checked before any database work. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Who a dashboard request is signed in as, read afresh from the sessions table on every request. */
export interface DashboardSession {
  id: string;
  userId: string;
  email: string;
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard route reachable without a session (setup, sign-in); its writes check Origin instead of CSRF. */
    anonymous?: boolean;
    /** A dashboard workspace route's caller: any member of `:workspaceId`, or only its owner. */
    access?: 'member' | 'owner';
  }
  interface FastifyRequest {
    dashboardSession: DashboardSession;
  }
}

/** The one 401 of the dashboard API: no cookie, an unknown or ended session, an expired one. */
export const signedOut = () => new AppError('UNAUTHORIZED', 'Sign in to use the dashboard');

export function newSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Only this hash is stored: a copy of the sessions table opens no session. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function isWellFormedToken(token: string | undefined): token is string {
  return typeof token === 'string' && TOKEN_SHAPE.test(token);
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

function cookieOptions(request: FastifyRequest) {
  // `request.protocol` honours X-Forwarded-Proto only when QUIRE_TRUST_PROXY says the proxy is trusted.
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https' } as const;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: SESSION_TTL_MS / 1000 });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
