import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, datasetEnv, dropDatabase, ensureBuilt } from './dataset.js';
import { wholeNumber } from './flags.js';
import { BIN, quire, serveBin, type Child } from './processes.js';
import { EXTERNAL } from './quire-server.js';

/*
 * The response cache's fairness between workspaces (issue 42, point 3; docs/performance.md, "A thousand
 * workspaces"): a busy workspace walks `--walk` distinct list URLs (a crawler, a site build with a query
 * per page) while a quiet one reads its hot answers after every `--every` of them. The quiet workspace's
 * share of hits is the figure: with one cache shared by every workspace, the walker should evict its own
 * answers, not the quiet workspace's. Requests go one at a time, so the server's hit and miss counters
 * (its Prometheus metrics) around each quiet round count the quiet workspace's lookups alone.
 *
 *   npm run bench:tenants -- [--db sqlite|postgres] [--server <bin/quire.js>] [--walk 10000] [--every 1000]
 *     [--cache-mb 64] [--posts 100]
 */

const METRICS_TOKEN = crypto.randomBytes(24).toString('base64url');

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    server: { type: 'string', default: BIN },
    walk: { type: 'string', default: '10000' },
    every: { type: 'string', default: '1000' },
    'cache-mb': { type: 'string', default: '64' },
    posts: { type: 'string', default: '100' },
  },
});
const count = (flag: 'walk' | 'every' | 'posts' | 'cache-mb') =>
  wholeNumber(flag, args[flag], Number.NaN, 1, Number.MAX_SAFE_INTEGER);
const walk = count('walk');
const every = count('every');
const posts = count('posts');
const cacheMb = count('cache-mb');
if (every > walk) throw new Error('--every must be at most --walk: the quiet workspace reads after every that many');
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Workspace {
  id: string;
  key: string;
}

async function install(env: Record<string, string>): Promise<{ busy: Workspace; quiet: Workspace }> {
  const email = 'tenants@example.com';
  await quire(['user', 'create', '--email', email, `--password=${crypto.randomBytes(18).toString('base64url')}`], env);
  const workspace = async (name: string): Promise<Workspace> => {
    const { id } = await quire<{ id: string }>(['workspace', 'create', '--name', name, '--owner', email], env);
    const { key } = await quire<{ key: string }>(
      ['key', 'create', '--workspace', id, '--email', email, '--name', 'bench'],
      env,
    );
    await quire(['seed', '--workspace', id, '--posts', String(posts)], env, 120_000 + posts * 120);
    return { id, key };
  };
  return { busy: await workspace('Busy'), quiet: await workspace('Quiet') };
}

/** The cache's hit and miss counters, read from the server's metrics. */
async function lookups(server: Child): Promise<{ hit: number; miss: number }> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  const count = (result: string) =>
    Number(new RegExp(`^quire_response_cache_lookups_total\\{result="${result}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { hit: count('hit'), miss: count('miss') };
}

async function get(server: Child, key: string, url: string): Promise<void> {
  const response = await fetch(`${server.url}${EXTERNAL}${url}`, { headers: { 'x-api-key': key } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-tenants-'));
  const dataDir = path.join(root, 'data');
  const databaseUrl = args.db === 'postgres' ? await createDatabase() : null;
  let server: Child | null = null;
  try {
    const bin = path.resolve(args.server);
    // The results name this checkout's code when its own server is measured: not a build of an edit since undone.
    if (bin === BIN) await ensureBuilt(log);
    const env = datasetEnv({ dataDir, databaseUrl });
    log(`seeding two workspaces of ${posts} posts on ${args.db}`);
    const { busy, quiet } = await install(env);
    server = await serveBin(bin, {
      ...env,
      QUIRE_RESPONSE_CACHE_MB: String(cacheMb),
      QUIRE_METRICS_TOKEN: METRICS_TOKEN,
    });

    // The quiet workspace's hot answers: its front page, its second page, and its ten newest posts.
    const newest = (await (
      await fetch(`${server.url}${EXTERNAL}/posts?pageSize=10`, { headers: { 'x-api-key': quiet.key } })
    ).json()) as { data: Array<{ slug: string }> };
    const hot = ['/posts', '/posts?page=2', ...newest.data.map((post) => `/posts/${post.slug}`)];
    for (const url of hot) await get(server, quiet.key, url);

    // Distinct lists of the busy workspace: the posts published after a moment a second later each time.
    const since = Date.UTC(2000, 0, 1);
    const walked = (i: number) => `/posts?pageSize=20&dateFrom=${new Date(since + i * 1000).toISOString()}`;
    const rounds: number[] = [];
    for (let i = 0; i < walk; i += 1) {
      await get(server, busy.key, walked(i));
      if ((i + 1) % every !== 0) continue;
      const before = await lookups(server);
      for (const url of hot) await get(server, quiet.key, url);
      const after = await lookups(server);
      rounds.push((after.hit - before.hit) / (after.hit - before.hit + after.miss - before.miss));
    }
    const ratio = rounds.reduce((sum, r) => sum + r, 0) / rounds.length;
    const result = {
      server: path.relative(process.cwd(), bin) || bin,
      db: args.db,
      cacheMb,
      walked: walk,
      quietEvery: every,
      quietHotUrls: hot.length,
      quietHitRatio: Math.round(ratio * 1000) / 1000,
      quietHitRatioByRound: rounds.map((r) => Math.round(r * 1000) / 1000),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}

await main();
