import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { notFound } from '../../errors.js';

/** The nearest folder above this module with a package.json: this file runs from src/, dist/ and dist/bundle/. */
function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

/** `<repo>/dashboard/dist`. */
export const DEFAULT_DASHBOARD_DIR = path.join(repositoryRoot(), 'dashboard', 'dist');

/**
 * The HTML is the app's only entry point: nothing but our own files may run, style, load or frame it.
 * Images may also come from QUIRE_PUBLIC_URL's origin, where media URLs point, when the dashboard is
 * opened under another name (localhost for 127.0.0.1, or behind a proxy).
 */
const htmlHeaders = (publicUrl: string) => ({
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    `img-src 'self' data: ${new URL(publicUrl).origin}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  // Revalidated on every load, so a deploy's new asset names are picked up at once.
  'Cache-Control': 'no-cache',
});

const NOT_BUILT =
  'The dashboard has not been built yet: run `npm run build` (it builds dashboard/dist), then reload.\n';
const SETUP_DONE_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found · Quire</title>' +
  // Without it the browser asks for /favicon.ico, which Quire does not serve.
  '<link rel="icon" href="/dashboard/favicon.svg" type="image/svg+xml"></head>' +
  '<body><h1>Not found</h1><p>Quire is already set up. <a href="/dashboard">Sign in to the dashboard</a>.</p></body></html>\n';
// Root files of the build (favicon.svg, robots.txt); anything else under /dashboard is a client-side route.
const ROOT_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9]+$/;
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export interface SpaOptions {
  /** The built app; tests point it at a directory of their own. */
  dir: string;
  /** QUIRE_PUBLIC_URL: media URLs are built on it. */
  publicUrl: string;
  /** Whether the first-run setup is over, asked afresh for each request of /dashboard/setup. */
  usersExist: () => Promise<boolean>;
}

/** Whether `relative` names a file inside `dir` (a `..` that climbs out names nothing). */
async function isFileIn(dir: string, relative: string): Promise<boolean> {
  const file = path.resolve(dir, relative);
  if (!file.startsWith(path.resolve(dir) + path.sep)) return false;
  return fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
}

/**
 * Serves the React app at /dashboard: hashed assets cached for a year, and index.html (no-cache, with
 * the security headers) for every client-side route. Before the app is built, a 503 says how to build it.
 */
export const spaRoutes: FastifyPluginAsync<SpaOptions> = async (app, { dir, publicUrl, usersExist }) => {
  const headers = htmlHeaders(publicUrl);
  // `serve: false`: this plugin only lends reply.sendFile (path-traversal safe) to the routes below. The build
  // precompresses the assets (scripts/precompress.mjs): a client that accepts brotli or gzip gets those files.
  await app.register(fastifyStatic, { root: dir, serve: false, suppressWarning: true, preCompressed: true });

  async function sendIndex(reply: FastifyReply, status = 200): Promise<FastifyReply> {
    const html = await fs.readFile(path.join(dir, 'index.html'), 'utf8').catch(() => null);
    if (html === null)
      return reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT);
    return reply.code(status).headers(headers).type('text/html; charset=utf-8').send(html);
  }

  app.get('/dashboard', (_request, reply) => sendIndex(reply));

  app.get('/dashboard/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'].replace(/\/+$/, '');
    if (rest.startsWith('assets/')) {
      // A missing asset is a plain 404: answering index.html would hand the browser HTML as a script.
      if (!(await isFileIn(dir, rest))) throw notFound('Dashboard asset');
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.sendFile(rest, dir, { maxAge: YEAR_MS, immutable: true });
    }
    if (rest === 'setup' && (await usersExist())) {
      return reply
        .code(404)
        .headers({ ...headers, 'Cache-Control': 'no-store' })
        .type('text/html; charset=utf-8')
        .send(SETUP_DONE_PAGE);
    }
    if (rest !== 'index.html' && ROOT_FILE.test(rest) && (await isFileIn(dir, rest))) {
      reply.headers({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
      return reply.sendFile(rest, dir, { cacheControl: false });
    }
    return sendIndex(reply);
  });
};
