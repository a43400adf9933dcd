import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_DIR } from '../../src/modules/dashboard/spa.routes.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { Response } from '../helpers/posts.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/dashboard/assets/index-Ab12Cd.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("dashboard");';

function expectHtmlHeaders(response: Response): void {
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  const csp = String(response.headers['content-security-policy']);
  for (const directive of [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
  ]) {
    expect(csp).toContain(directive);
  }
  expect(csp).not.toContain('unsafe');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('same-origin');
  expect(response.headers['x-frame-options']).toBe('DENY');
}

describeEachDialect('dashboard single-page app', (dialect) => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-dashboard-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd.js'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    ctx = await buildTestApp(dialect, { deps: { dashboardDir: dir } });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => ctx.app.inject({ method: 'GET', url });

  it('answers index.html for /dashboard and every client-side route, never cached stale', async () => {
    for (const url of [
      '/dashboard',
      '/dashboard/',
      '/dashboard/keys',
      '/dashboard/workspaces/abc/members',
      '/dashboard/setup',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
      expectHtmlHeaders(response);
    }
  });

  it('serves hashed assets with long, immutable caching', async () => {
    const response = await get('/dashboard/assets/index-Ab12Cd.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SCRIPT);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect((await get('/dashboard/assets/missing-123.js')).statusCode).toBe(404);
    const favicon = await get('/dashboard/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toMatch(/svg/);
  });

  it('never serves a file from outside the build', async () => {
    for (const url of [
      '/dashboard/assets/../../package.json',
      '/dashboard/assets/%2e%2e/%2e%2e/package.json',
      '/dashboard/..%2f..%2fpackage.json',
    ]) {
      const response = await get(url);
      expect(response.body, url).not.toContain('"name": "quire"');
    }
  });

  it('answers only GET and HEAD', async () => {
    expect((await ctx.app.inject({ method: 'HEAD', url: '/dashboard/keys' })).statusCode).toBe(200);
    const post = await ctx.app.inject({ method: 'POST', url: '/dashboard/keys', payload: {} });
    expect(post.statusCode).toBe(405);
  });

  it('/dashboard/setup is a 404 page once a user exists', async () => {
    await ctx.createUser();
    const response = await get('/dashboard/setup');
    expect(response.statusCode).toBe(404);
    expectHtmlHeaders(response);
    expect(response.body).toContain('/dashboard');
    expect((await get('/dashboard/settings')).statusCode).toBe(200);
  });

  describe('before the app is built', () => {
    it('answers 503 with a one-line explanation', async () => {
      fs.renameSync(path.join(dir, 'index.html'), path.join(dir, 'index.html.moved'));
      try {
        for (const url of ['/dashboard', '/dashboard/keys']) {
          const response = await get(url);
          expect(response.statusCode, url).toBe(503);
          expect(response.headers['content-type']).toMatch(/^text\/plain/);
          expect(response.body.trim().split('\n')).toHaveLength(1);
          expect(response.body).toContain('npm run build');
        }
      } finally {
        fs.renameSync(path.join(dir, 'index.html.moved'), path.join(dir, 'index.html'));
      }
      expect((await get('/dashboard')).statusCode).toBe(200);
    });
  });
});

describe('the default dashboard directory', () => {
  it('is <repo>/dashboard/dist', () => {
    expect(DEFAULT_DASHBOARD_DIR).toBe(path.resolve(import.meta.dirname, '../../dashboard/dist'));
  });
});
