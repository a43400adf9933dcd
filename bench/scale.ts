import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { databaseBackendPids, datasetEnv, ensureBuilt } from './dataset.js';
import { wholeNumber, type Dialect } from './flags.js';
import { drive } from './load.js';
import { BIN, ROOT, serveBin, type Child } from './processes.js';
import { UsageWindow, waitUntilIdle } from './proc-stats.js';
import { EXTERNAL } from './quire-server.js';
import type { RequestSpec, Scenario } from './scenarios.js';
import { disposeLayout, readLayout, seedLayout, type Layout, type LayoutName } from './tenant-layouts.js';

/*
 * `npm run bench:scale`: whether an answer costs the same with a thousand tenants as with one (issue 42,
 * point 3; docs/performance.md, "A thousand workspaces"). The same number of posts is held two ways:
 * `--workspaces` workspaces of `--posts` posts (many), and one workspace of all of them (one). Against each,
 * the server answers the same kinds of request, spread over as many distinct answers (one per workspace of the
 * many): a post by slug and a list of the default size, cached (warm, in a cache that holds them all) and with
 * the response cache off (uncached); uncached also one workspace's list on every request (list-default-same).
 * The figure is CPU per answer, the server's and PostgreSQL's backends', over a fixed window after a warm-up.
 * Then the memory: the idle server's resident set and heap on each layout, and again once every workspace has
 * been asked once.
 *
 *   npm run bench:scale -- [--db sqlite|postgres] [--workspaces 1000] [--posts 100] [--duration 10]
 *     [--warmup 3] [--connections 8] [--reuse DIR] [--keep] [--seed-only] [--server bin/quire.js]
 *
 * --seed-only seeds the two layouts and keeps them for a later --reuse: seeding a thousand workspaces takes
 * minutes, which the measurement must not share the machine with.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    workspaces: { type: 'string', default: '1000' },
    posts: { type: 'string', default: '100' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    reuse: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
    server: { type: 'string', default: BIN },
  },
});
const count = (flag: 'workspaces' | 'posts' | 'duration' | 'warmup' | 'connections') =>
  wholeNumber(flag, args[flag], Number.NaN, 1, Number.MAX_SAFE_INTEGER);
const workspaceCount = count('workspaces');
const postsEach = count('posts');
const duration = count('duration');
const warmup = count('warmup');
const connections = count('connections');
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
const dialect = args.db as Dialect;
const log = (line: string) => process.stderr.write(`[scale] ${line}\n`);
const METRICS_TOKEN = crypto.randomBytes(24).toString('base64url');

interface Server extends Child {
  cacheOff: boolean;
}

async function start(layout: Layout, cacheOff: boolean): Promise<Server> {
  const child = await serveBin(path.resolve(args.server), {
    ...datasetEnv(layout),
    QUIRE_METRICS_TOKEN: METRICS_TOKEN,
    // Warm, the cache holds every answer of a run on either layout: what is measured is a hit's cost among a
    // thousand workspaces, not the bound.
    QUIRE_RESPONSE_CACHE_MB: cacheOff ? '0' : '512',
  });
  return { ...child, cacheOff };
}

async function getJson<T>(server: Server, key: string, url: string): Promise<T> {
  const response = await fetch(`${server.url}${EXTERNAL}${url}`, { headers: { 'x-api-key': key } });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** One target per workspace on `many`; as many targets in the one workspace on `one`. */
interface Target {
  key: string;
  slug: string;
}

async function targetsOf(server: Server, layout: Layout): Promise<Target[]> {
  if (layout.name === 'many') {
    const targets: Target[] = [];
    for (const workspace of layout.workspaces) {
      const page = await getJson<{ data: Array<{ slug: string }> }>(server, workspace.key, '/posts?pageSize=1');
      targets.push({ key: workspace.key, slug: page.data[0]!.slug });
    }
    return targets;
  }
  const { key } = layout.workspaces[0]!;
  const targets: Target[] = [];
  for (let page = 1; targets.length < workspaceCount; page += 1) {
    const listed = await getJson<{ data: Array<{ slug: string }> }>(server, key, `/posts?pageSize=100&page=${page}`);
    if (listed.data.length === 0) throw new Error(`the one workspace lists fewer than ${workspaceCount} posts`);
    for (const post of listed.data) targets.push({ key, slug: post.slug });
  }
  return targets.slice(0, workspaceCount);
}

const read = (key: string, url: string): RequestSpec => ({
  method: 'GET',
  path: `${EXTERNAL}${url}`,
  apiKey: key,
  bodies: [],
  kind: 'read',
  expectStatus: 200,
});

/**
 * A post by slug, and a list of the default size. Warm, each target's list is a distinct answer on either layout
 * (the one workspace's default list alone would be a single cached answer against a thousand): the posts
 * published after a moment one second later each time, the newest page on seeded dates. Uncached, the
 * default list itself: its filtered form would count all 100,000 posts of the one workspace, and the measure
 * would be of that count, not of the number of workspaces.
 */
function scenarios(targets: Target[], cacheOff: boolean): Scenario[] {
  const scenario = (name: string, requests: RequestSpec[]): Scenario => ({
    name,
    block: cacheOff ? 'no-cache' : 'warm',
    what: name,
    requests,
    bounded: 'duration',
  });
  const since = Date.UTC(2000, 0, 1);
  return [
    scenario(
      'post-by-slug',
      targets.map((target) => read(target.key, `/posts/${target.slug}`)),
    ),
    scenario(
      'list-default',
      targets.map((target, index) =>
        read(target.key, cacheOff ? '/posts' : `/posts?dateFrom=${new Date(since + index * 1000).toISOString()}`),
      ),
    ),
    // Uncached, the first target's default list on every request, on either layout: the same rows each time, as
    // the one workspace's default list reads, so set against list-default it tells what reading a thousand
    // workspaces' rows in turn costs apart from the number of workspaces.
    ...(cacheOff
      ? [
          scenario(
            'list-default-same',
            targets.map(() => read(targets[0]!.key, '/posts')),
          ),
        ]
      : []),
  ];
}

interface Row {
  layout: LayoutName;
  cache: 'warm' | 'uncached';
  scenario: string;
  requestsPerSecond: number;
  /** CPU per answer in µs: the server's, PostgreSQL's backends', and both. */
  serverUs: number;
  databaseUs: number;
  totalUs: number;
  unexpected: number;
  otherCpuPercent: number | null;
}

/**
 * Every request of the scenario once, `connections` at a time: a post's stored render is made by its first
 * read after a write and kept, so a run that met a thousand workspaces' posts for the first time would measure
 * the making of renders that one workspace's run, asking the same newest posts again, makes only once.
 */
async function prime(server: Server, scenario: Scenario): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < scenario.requests.length) {
      const spec = scenario.requests[next++]!;
      const response = await fetch(`${server.url}${spec.path}`, { headers: { 'x-api-key': spec.apiKey! } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${spec.path} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

async function measure(server: Server, layout: Layout, scenario: Scenario): Promise<Row> {
  await prime(server, scenario);
  await drive(server.url, scenario, { connections, duration: warmup, amount: 0 });
  await waitUntilIdle(server.pid);
  const usage = new UsageWindow(server.pid, await databaseBackendPids(layout));
  const result = await drive(server.url, scenario, { connections, duration, amount: 0 });
  const window = usage.end();
  const perAnswer = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, result.responses));
  const serverUs = perAnswer(window.cpuSeconds ?? 0);
  const databaseUs = perAnswer(window.alsoOursCpuSeconds);
  return {
    layout: layout.name,
    cache: server.cacheOff ? 'uncached' : 'warm',
    scenario: scenario.name,
    requestsPerSecond: result.requestsPerSecond,
    serverUs,
    databaseUs,
    totalUs: serverUs + databaseUs,
    unexpected: result.unexpected + result.errors,
    otherCpuPercent: window.otherCpuPercent,
  };
}

interface Memory {
  layout: LayoutName;
  /** The server's resident set and V8 heap in use, in MB, idle after start and after every workspace was asked once. */
  idleRssMb: number;
  idleHeapMb: number;
  touchedRssMb: number;
  touchedHeapMb: number;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 100) / 10;
}

/** The heap in use as the server's own metrics give it (prom-client's default nodejs_heap_size_used_bytes). */
async function heapMb(server: Server): Promise<number> {
  const text = await (
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const bytes = Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN);
  return Math.round(bytes / 1e5) / 10;
}

/** Memory with the response cache off, so what it holds is not counted as the workspaces'. */
async function measureMemory(layout: Layout): Promise<Memory> {
  const server = await start(layout, true);
  try {
    // Past start-up's own allocations: the figures compare layouts, not moments of a start.
    await sleep(3_000);
    const idleRssMb = rssMb(server.pid);
    const idleHeapMb = await heapMb(server);
    for (const workspace of layout.workspaces) await getJson(server, workspace.key, '/posts?pageSize=1');
    if (layout.name === 'one')
      for (let i = 1; i < workspaceCount; i += 1) await getJson(server, layout.workspaces[0]!.key, '/posts?pageSize=1');
    await sleep(3_000);
    return {
      layout: layout.name,
      idleRssMb,
      idleHeapMb,
      touchedRssMb: rssMb(server.pid),
      touchedHeapMb: await heapMb(server),
    };
  } finally {
    await server.stop();
  }
}

async function layoutOf(root: string, name: LayoutName): Promise<Layout> {
  const kept = readLayout(root, name, dialect);
  if (kept) {
    log(`reusing ${name}: ${kept.workspaces.length} workspace(s) of ${kept.postsPerWorkspace} posts`);
    return kept;
  }
  return name === 'many'
    ? seedLayout(root, name, dialect, workspaceCount, postsEach, log)
    : seedLayout(root, name, dialect, 1, workspaceCount * postsEach, log);
}

async function main(): Promise<void> {
  const bin = path.resolve(args.server);
  if (bin === BIN) await ensureBuilt(log);
  const root = args.reuse ? path.resolve(args.reuse) : fs.mkdtempSync(path.join(os.tmpdir(), 'quire-scale-'));
  fs.mkdirSync(root, { recursive: true });
  const layouts: Layout[] = [];
  try {
    for (const name of ['many', 'one'] as const) layouts.push(await layoutOf(root, name));
    if (args['seed-only']) return;
    const rows: Row[] = [];
    const memory: Memory[] = [];
    for (const layout of layouts) {
      memory.push(await measureMemory(layout));
      for (const cacheOff of [false, true]) {
        const server = await start(layout, cacheOff);
        try {
          const targets = await targetsOf(server, layout);
          for (const scenario of scenarios(targets, cacheOff)) {
            const row = await measure(server, layout, scenario);
            log(JSON.stringify(row));
            rows.push(row);
          }
        } finally {
          await server.stop();
        }
      }
    }
    const result = {
      date: new Date().toISOString(),
      command: `npm run bench:scale -- ${process.argv.slice(2).join(' ')}`.trim(),
      server: path.relative(ROOT, bin) || bin,
      db: dialect,
      workspaces: workspaceCount,
      postsPerWorkspace: postsEach,
      connections,
      duration,
      seedSeconds: Object.fromEntries(layouts.map((layout) => [layout.name, layout.seedSeconds])),
      rows,
      memory,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    if (args.keep || args.reuse || args['seed-only']) log(`kept the layouts under ${root}: rerun with --reuse ${root}`);
    else {
      for (const layout of layouts) await disposeLayout(layout);
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
}

await main();
