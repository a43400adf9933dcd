import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './dataset.js';
import { BIN, baseEnv, binNodeFlags, freePort, launch, quire, waitFor } from './processes.js';
import { drive } from './load.js';
import { startVarnish } from './varnish.js';

/*
 * `npm run bench:cdn`: the figures of issue 37 (point 4), through a real Varnish with xkey in front of one
 * `quire serve` (SQLite) that purges it: how soon after an edit's answer the next read through the CDN sees the
 * edit (p50, p99, max), the hit ratio of a read load over the 100 newest posts (lists and single posts) while a
 * published post is edited every second, and the origin requests each of those edits costs. Then, at the origin
 * without the CDN, warm reads of one post through the content API against the admin API (three alternated runs
 * each, medians): the content scope has no fast path of its own, so this is what a miss of the CDN costs it.
 */

const USAGE = 'npm run bench:cdn -- [--posts N] [--edits N] [--seconds N] [--clients N]';
const log = (line: string) => process.stderr.write(`${line}\n`);
const EXTERNAL = '/api/v1/external';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round = (value: number) => Math.round(value * 10) / 10;

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '1000' },
    edits: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '8' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  log(USAGE);
  process.exit(0);
}
const POSTS = Number(values.posts);
const EDITS = Number(values.edits);
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);

await ensureBuilt(log);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-cdn-'));
const env = baseEnv({ QUIRE_DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT_MAX: '1000000000' });
const email = 'bench@example.com';
await quire(['user', 'create', '--email', email, '--password', 'correct horse battery staple'], env);
const workspace = await quire<{ slug: string }>(['workspace', 'create', '--name', 'Bench', '--owner', email], env);
const { key } = await quire<{ key: string }>(
  ['key', 'create', '--workspace', workspace.slug, '--email', email, '--name', 'bench'],
  env,
);

const varnishPort = await freePort();
const port = await freePort();
const server = launch(
  [...binNodeFlags(), BIN, 'serve'],
  { ...env, HOST: '127.0.0.1', PORT: String(port), QUIRE_CDN_PURGE_URL: `http://127.0.0.1:${varnishPort}` },
  port,
);
await waitFor(`${server.url}/healthz`, {}, performance.now(), 30_000, server);
const varnish = await startVarnish(port, varnishPort);

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

try {
  const contentKey = (await admin('POST', '/content-keys', { name: 'bench' })).key as string;
  const cdn = (pathname: string) =>
    `${varnish.url}/api/v1/content${pathname}${pathname.includes('?') ? '&' : '?'}key=${contentKey}`;
  log(`creating ${POSTS} published posts`);
  const ids: string[] = [];
  for (let i = 0; i < POSTS; i += 1) {
    const post = await admin('POST', '/posts', {
      title: `Post ${i}`,
      status: 'published',
      publishedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      bodyJson: [{ type: 'paragraph', text: `The body of post ${i}, long enough to be a post. `.repeat(20) }],
    });
    ids.push(post.id as string);
  }
  const newest = ids.slice(-100);
  const urls = [
    ...Array.from({ length: 10 }, (_, page) => `/posts?page=${page + 1}&pageSize=10`),
    ...newest.map((id) => `/posts/${id}`),
  ];

  // 1. Edit to visible: the edit's answer, then reads through the CDN until one shows it.
  log(`edit to visible: ${EDITS} edits`);
  const delays: number[] = [];
  for (let i = 0; i < EDITS; i += 1) {
    const id = newest[i % newest.length]!;
    await (await fetch(cdn(`/posts/${id}`))).arrayBuffer();
    const title = `Edited ${i}`;
    await admin('PATCH', `/posts/${id}`, { title });
    const answered = performance.now();
    for (;;) {
      const body = (await (await fetch(cdn(`/posts/${id}`))).json()) as { title: string };
      if (body.title === title) break;
      if (performance.now() - answered > 30_000) throw new Error(`edit ${i} not visible after 30 s`);
      await sleep(2);
    }
    delays.push(performance.now() - answered);
  }
  delays.sort((a, b) => a - b);

  // 2. Hit ratio under load, with a published edit every second.
  log(`read load: ${CLIENTS} clients for ${SECONDS} s over ${urls.length} URLs, an edit each second`);
  for (const url of urls) await (await fetch(cdn(url))).arrayBuffer();
  const before = await varnish.counters('MAIN.backend_req', 'MAIN.cache_hit', 'MAIN.cache_miss');
  const tally = { hit: 0, miss: 0, other: 0 };
  let edits = 0;
  const until = performance.now() + SECONDS * 1000;
  const editor = (async () => {
    while (performance.now() < until) {
      await sleep(1000);
      const id = newest[Math.floor(Math.random() * newest.length)]!;
      await admin('PATCH', `/posts/${id}`, { title: `Load edit ${edits}` });
      edits += 1;
    }
  })();
  const readers = Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < until) {
      const response = await fetch(cdn(urls[Math.floor(Math.random() * urls.length)]!));
      await response.arrayBuffer();
      const cache = response.headers.get('x-cache');
      if (response.status !== 200) tally.other += 1;
      else if (cache === 'HIT') tally.hit += 1;
      else tally.miss += 1;
    }
  });
  await Promise.all([editor, ...readers]);
  await sleep(1000);
  const after = await varnish.counters('MAIN.backend_req', 'MAIN.cache_hit', 'MAIN.cache_miss');
  const reads = tally.hit + tally.miss + tally.other;
  const backend = after['MAIN.backend_req']! - before['MAIN.backend_req']!;
  log('origin: warm post reads, content API against admin API, alternated');
  const target = newest[0]!;
  const warm = async (path: string, apiKey: string | null) =>
    drive(
      server.url,
      {
        name: 'origin',
        block: 'warm',
        what: path,
        bounded: 'duration',
        requests: [{ method: 'GET', path, apiKey, bodies: [], kind: 'read', expectStatus: 200 }],
      },
      { connections: 10, duration: 5, amount: 0 },
    );
  const runs: Record<'content' | 'admin', Array<{ rps: number; p99: number | null }>> = { content: [], admin: [] };
  for (let round = 0; round < 3; round += 1) {
    const content = await warm(`/api/v1/content/posts/${target}?key=${contentKey}`, null);
    runs.content.push({ rps: content.requestsPerSecond, p99: content.p99 });
    const adminRun = await warm(`${EXTERNAL}/posts/${target}`, key);
    runs.admin.push({ rps: adminRun.requestsPerSecond, p99: adminRun.p99 });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const originOf = (list: Array<{ rps: number; p99: number | null }>) => ({
    requestsPerSecond: Math.round(median(list.map((run) => run.rps))),
    p99Ms: median(list.map((run) => run.p99 ?? Number.NaN)),
  });

  const result = {
    posts: POSTS,
    editToVisibleMs: {
      edits: EDITS,
      p50: round(percentile(delays, 0.5)),
      p99: round(percentile(delays, 0.99)),
      max: round(delays.at(-1)!),
    },
    load: {
      seconds: SECONDS,
      clients: CLIENTS,
      urls: urls.length,
      reads,
      readsPerSecond: Math.round(reads / SECONDS),
      hitRatio: Math.round((10_000 * tally.hit) / reads) / 10_000,
      edits,
      originRequests: backend,
      originRequestsPerEdit: edits > 0 ? round(backend / edits) : null,
      errors: tally.other,
    },
    originWarmPostRead: { contentApi: originOf(runs.content), adminApi: originOf(runs.admin) },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await varnish.stop();
  server.child.kill('SIGTERM');
  await sleep(500);
  fs.rmSync(root, { recursive: true, force: true });
}
