import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './dataset.js';
import { BIN, ROOT, baseEnv, binNodeFlags, freePort, launch, quire, waitFor } from './processes.js';

/*
 * `npm run bench:starter`: the figures of the Astro starter (docs/starter.md) against one `quire serve` (SQLite)
 * seeded with N posts: a full build (the sync's requests, bytes and seconds, then Astro's build), a rebuild after
 * one edit (requests, seconds), and publish-to-visible through the webhook: the edit's answer, the delivery, the
 * site's sync and build, until the site serves the new title (p50, p99 over the edits).
 */

const USAGE = 'npm run bench:starter -- [--posts N] [--edits N]';
const log = (line: string) => process.stderr.write(`${line}\n`);
const EXTERNAL = '/api/v1/external';
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
const seconds = (ms: number) => Math.round(ms / 10) / 100;

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '100' },
    edits: { type: 'string', default: '20' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  log(USAGE);
  process.exit(0);
}
const POSTS = Number(values.posts);
const EDITS = Number(values.edits);

await ensureBuilt(log);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-starter-'));
const env = baseEnv({
  QUIRE_DATA_DIR: path.join(root, 'data'),
  LOG_LEVEL: 'warn',
  QUIRE_RATE_LIMIT_MAX: '1000000000',
  QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true',
});
const email = 'bench@example.com';
await quire(['user', 'create', '--email', email, '--password', 'correct horse battery staple'], env);
const workspace = await quire<{ slug: string }>(['workspace', 'create', '--name', 'Bench', '--owner', email], env);
const { key } = await quire<{ key: string }>(
  ['key', 'create', '--workspace', workspace.slug, '--email', email, '--name', 'bench'],
  env,
);
log(`seeding ${POSTS} posts`);
await quire(['seed', '--workspace', workspace.slug, '--posts', String(POSTS)], env, 600_000);
const sitePort = await freePort();
const siteUrl = `http://127.0.0.1:${sitePort}`;
await quire(
  [
    'workspace',
    'settings',
    '--workspace',
    workspace.slug,
    '--site-url',
    siteUrl,
    '--post-url-pattern',
    '/posts/{slug}',
    '--page-url-pattern',
    '/{slug}',
    '--author-url-pattern',
    '/authors/{slug}',
    '--category-url-pattern',
    '/categories/{path}',
  ],
  env,
);
const port = await freePort();
const server = launch([...binNodeFlags(), BIN, 'serve'], { ...env, HOST: '127.0.0.1', PORT: String(port) }, port);
await waitFor(`${server.url}/healthz`, {}, performance.now(), 30_000, server);

async function admin(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${EXTERNAL}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const siteDir = path.join(root, 'site');
await quire(['site', 'init', siteDir, '--quire-url', server.url, '--api-key', key, '--site-url', siteUrl], env);
fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(siteDir, 'node_modules'), 'dir');

/** `node …args` in the site's folder: its last line of output parsed, and the wall time. */
function node(args: string[]): Promise<{ report: Record<string, unknown>; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: siteDir,
      env: baseEnv({ ASTRO_TELEMETRY_DISABLED: '1' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}`));
      const last = stdout.trim().split('\n').at(-1) ?? '';
      resolve({
        report: last.startsWith('{') ? (JSON.parse(last) as Record<string, unknown>) : {},
        ms: performance.now() - started,
      });
    });
  });
}

/** Resolves once the site's server answers. */
async function siteUp() {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const answer = await fetch(`${siteUrl}/robots.txt`).catch(() => null);
    if (answer?.status === 200) return;
    if (performance.now() > deadline) throw new Error('the site did not start within 30 s');
    await sleep(100);
  }
}

let served: ReturnType<typeof spawn> | null = null;
try {
  log('full build');
  const full = await node(['scripts/sync.mjs', '--full']);
  const astro = await node(['node_modules/astro/astro.js', 'build']);
  const pages = fs
    .readdirSync(path.join(siteDir, 'dist', 'client'), { recursive: true })
    .filter((name) => String(name).endsWith('.html')).length;

  // `npm start` in the site's folder.
  served = spawn(process.execPath, ['server.mjs'], {
    cwd: siteDir,
    env: baseEnv({ PORT: String(sitePort), HOST: '127.0.0.1', ASTRO_TELEMETRY_DISABLED: '1' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await siteUp();

  const list = (await admin('GET', '/posts?status=published&pageSize=100')) as {
    data: Array<{ id: string; slug: string }>;
  };
  const posts = list.data;
  log('rebuild after one edit');
  await admin('PATCH', `/posts/${posts[0]!.id}`, { title: 'One edit' });
  const one = await node(['scripts/rebuild.mjs']);

  log(`publish to visible through the webhook: ${EDITS} edits`);
  const hook = await admin('POST', '/webhooks', {
    url: `${siteUrl}/api/webhook`,
    eventTypes: ['post.updated', 'post.published', 'post.unpublished', 'post.deleted'],
  });
  fs.appendFileSync(path.join(siteDir, '.env'), `\nQUIRE_WEBHOOK_SECRET=${String(hook.secret)}\n`);
  const delays: number[] = [];
  for (let i = 0; i < EDITS; i += 1) {
    const post = posts[(i + 1) % posts.length]!;
    const title = `Webhook edit ${i}`;
    await admin('PATCH', `/posts/${post.id}`, { title });
    const answered = performance.now();
    for (;;) {
      const html = await (await fetch(`${siteUrl}/posts/${post.slug}`)).text();
      if (html.includes(`<h1>${title}</h1>`)) break;
      if (performance.now() - answered > 120_000) throw new Error(`edit ${i} not visible after 120 s`);
      await sleep(20);
    }
    delays.push(performance.now() - answered);
    // The next edit starts from a settled site, so each delay is one edit's alone.
    await sleep(500);
  }
  delays.sort((a, b) => a - b);
  const fullSync = full.report as { requests: number; bytes: number; seconds: number };
  const oneReport = one.report as { sync: { requests: number; bytes: number; seconds: number }; buildSeconds: number };
  process.stdout.write(
    JSON.stringify(
      {
        posts: POSTS,
        pages,
        fullBuild: {
          syncSeconds: fullSync.seconds,
          requests: fullSync.requests,
          bytes: fullSync.bytes,
          astroBuildSeconds: seconds(astro.ms),
        },
        oneEdit: {
          requests: oneReport.sync.requests,
          bytes: oneReport.sync.bytes,
          syncSeconds: oneReport.sync.seconds,
          buildSeconds: oneReport.buildSeconds,
          wallSeconds: seconds(one.ms),
        },
        publishToVisible: {
          edits: EDITS,
          p50Seconds: seconds(percentile(delays, 0.5)),
          p99Seconds: seconds(percentile(delays, 0.99)),
          maxSeconds: seconds(delays.at(-1)!),
        },
      },
      null,
      2,
    ) + '\n',
  );
} finally {
  served?.kill();
  server.child.kill();
  fs.rmSync(root, { recursive: true, force: true });
}
