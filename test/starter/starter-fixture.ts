import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  EXTERNAL,
  ROOT,
  baseEnv,
  cliJson,
  freePort,
  installWithKey,
  startServer,
  tempDir,
  type ServerProcess,
} from '../e2e/helpers.js';

/**
 * A Quire server seeded with realistic content and a site made from the starter by `quire site init`, built and
 * served: what a newcomer has after the starter's README, with the site's dependencies linked from this
 * repository's node_modules in place of `npm install` (the same packages, with no registry in the loop).
 */

export const SITE_SETTINGS = {
  postUrlPattern: '/blog/{slug}',
  pageUrlPattern: '/{slug}',
  authorUrlPattern: '/authors/{slug}',
  categoryUrlPattern: '/topics/{path}',
  previewUrlPattern: '/preview?type={type}&id={id}&token={token}',
} as const;

const SCRIPT_TIMEOUT_MS = 120_000;

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

export interface Starter {
  quire: ServerProcess;
  adminKey: string;
  slug: string;
  siteDir: string;
  siteUrl: string;
  sitePort: number;
  /** A call of Quire's admin API with the owner's key; throws on anything but 2xx. */
  admin<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<T>;
  /** `node <file> …args` in the site's folder; resolves with what it printed. */
  node(args: string[], env?: Record<string, string>): Promise<ScriptRun>;
  /** `npm run sync`'s script, its JSON report parsed. */
  sync(full?: boolean): Promise<Record<string, number | boolean>>;
  /** `npm run rebuild`'s script (sync, build aside, swap), its JSON report parsed. */
  rebuild(): Promise<{ sync: Record<string, number | boolean>; built: boolean; buildSeconds: number }>;
  /** `npm run build`: a full sync, then Astro's build into dist/. */
  build(): Promise<{ sync: Record<string, number | boolean>; buildSeconds: number }>;
  /** The site's server, as `npm start` runs it. */
  startSite(): Promise<void>;
  siteFetch(route: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/** A JPEG of the size a writer uploads (photographs are wider than any column), in a colour of its own. */
export async function photo(index: number, width = 1600, height = 1000): Promise<Buffer> {
  const hue = (index * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},60%,70%)"/>
    </linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.7}" cy="${height * 0.4}" r="${height * 0.25}" fill="hsl(${hue},40%,90%)" opacity="0.5"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

export async function startStarter(options: { posts: number; name: string }): Promise<Starter> {
  const dir = tempDir('quire-starter-');
  const env = { QUIRE_DATA_DIR: dir.dataDir, QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true', QUIRE_RATE_LIMIT_MAX: '1000000' };
  const { key: adminKey, slug } = await installWithKey(env, options.name);
  await cliJson(['seed', '--workspace', slug, '--posts', String(options.posts)], env);
  const sitePort = await freePort();
  const siteUrl = `http://127.0.0.1:${sitePort}`;
  await cliJson(
    [
      'workspace',
      'settings',
      '--workspace',
      slug,
      '--site-url',
      siteUrl,
      '--post-url-pattern',
      SITE_SETTINGS.postUrlPattern,
      '--page-url-pattern',
      SITE_SETTINGS.pageUrlPattern,
      '--author-url-pattern',
      SITE_SETTINGS.authorUrlPattern,
      '--category-url-pattern',
      SITE_SETTINGS.categoryUrlPattern,
      '--preview-url-pattern',
      SITE_SETTINGS.previewUrlPattern,
    ],
    env,
  );
  const quire = await startServer(env);
  const siteDir = path.join(dir.root, 'site');
  await cliJson(['site', 'init', siteDir, '--quire-url', quire.url, '--api-key', adminKey, '--site-url', siteUrl], env);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(siteDir, 'node_modules'), 'dir');

  let site: ChildProcess | null = null;
  const admin = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await quire.fetch(`${EXTERNAL}${route}`, {
      method,
      headers: { 'x-api-key': adminKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return (text === '' ? {} : JSON.parse(text)) as T;
  };
  const node = (args: string[], extra: Record<string, string> = {}) =>
    new Promise<ScriptRun>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, args, {
        cwd: siteDir,
        env: baseEnv({ ASTRO_TELEMETRY_DISABLED: '1', ...extra }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), SCRIPT_TIMEOUT_MS);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
      });
    });
  const json = async (args: string[]) => {
    const run = await node(args);
    if (run.code !== 0) throw new Error(`node ${args.join(' ')} exited ${run.code}: ${run.stderr}${run.stdout}`);
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  };
  const siteFetch = (route: string, init: RequestInit = {}) =>
    fetch(`${siteUrl}${route}`, { redirect: 'manual', ...init, signal: AbortSignal.timeout(15_000) });

  return {
    quire,
    adminKey,
    slug,
    siteDir,
    siteUrl,
    sitePort,
    admin,
    node,
    sync: (full = false) => json(['scripts/sync.mjs', ...(full ? ['--full'] : [])]),
    rebuild: () => json(['scripts/rebuild.mjs']),
    async build() {
      const sync = await json(['scripts/sync.mjs', '--full']);
      const run = await node(['node_modules/astro/astro.js', 'build']);
      if (run.code !== 0) throw new Error(`astro build exited ${run.code}: ${run.stderr}${run.stdout.slice(-3000)}`);
      return { sync, buildSeconds: run.seconds };
    },
    siteFetch,
    async startSite() {
      site = spawn(process.execPath, ['server.mjs'], {
        cwd: siteDir,
        env: baseEnv({ PORT: String(sitePort), HOST: '127.0.0.1' }),
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const deadline = Date.now() + 20_000;
      for (;;) {
        const answer = await siteFetch('/robots.txt').catch(() => null);
        if (answer?.status === 200) return;
        if (Date.now() > deadline) throw new Error('the site did not answer within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      site?.kill('SIGTERM');
      await quire.stop().catch(() => undefined);
      dir.remove();
    },
  };
}
