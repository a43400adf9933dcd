import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabase, dropDatabase, ensureBuilt } from './dataset.js';
import { loadAverage, machineInfo } from './proc-stats.js';
import {
  BIN,
  ROOT,
  baseEnv,
  binNodeFlags,
  freePort,
  launch,
  quire,
  waitFor,
  type Child,
  type Env,
} from './processes.js';

/*
 * `npm run bench:webhooks`: the figures of issue 22 (item 8) for each dialect, on loopback with a real receiver.
 * Commit-to-receipt latency (from the write's 201 to the delivery's arrival), deliveries per second to 10
 * endpoints, the CPU a post write pays with 3 endpoints against none (in-process, A/B alternated), events lost
 * and duplicated over kill -9 of the server under write-and-deliver load, and 3 instances on one PostgreSQL.
 * `--only fairness` (issue 35, item 2): another workspace's commit-to-receipt while one workspace's endpoints
 * all hang and it writes on, against the same figure with nothing else going on.
 */

const USAGE = `npm run bench:webhooks -- [--db sqlite|postgres|both] [--kills N] [--writes N] [--only write-cpu|fairness] [--hanging N] [--rounds N]

  --only fairness   workspace B's commit-to-receipt alone, then while workspace A has --hanging endpoints (40 by
                    default; the server allows that many) that never answer and writes a post every 250 ms;
                    --writes B's writes in each phase (100 for this scenario unless given)`;
const EXTERNAL = '/api/v1/external';
const log = (line: string) => process.stderr.write(`${line}\n`);
type Dialect = 'sqlite' | 'postgres';

/** A receiver that answers 204 at once and notes each delivery's id, the resource's id and when it came. */
async function receiver() {
  const got: Array<{ id: string; resource: string; at: number }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string } };
      got.push({ id: String(request.headers['webhook-id']), resource: body.data.id, at: performance.now() });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`;
  return { got, url, close: () => new Promise((resolve) => server.close(resolve)) };
}

interface Installation {
  env: Env;
  key: string;
  workspaceId: string;
  databaseUrl: string | null;
  root: string;
}

async function install(dialect: Dialect): Promise<Installation> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-webhooks-'));
  const databaseUrl = dialect === 'postgres' ? await createDatabase() : null;
  const env = baseEnv({
    QUIRE_DATA_DIR: path.join(root, 'data'),
    LOG_LEVEL: 'warn',
    QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true',
    QUIRE_RATE_LIMIT_MAX: '1000000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const email = 'bench@example.com';
  await quire(['user', 'create', '--email', email, '--password', 'correct horse battery staple'], env);
  const workspace = await quire<{ id: string; slug: string }>(
    ['workspace', 'create', '--name', 'Bench', '--owner', email],
    env,
  );
  const { key } = await quire<{ key: string }>(
    ['key', 'create', '--workspace', workspace.slug, '--email', email, '--name', 'bench'],
    env,
  );
  return { env, key, workspaceId: workspace.id, databaseUrl, root };
}

/** A second workspace of the installation's user, and a key of its owner's. */
async function otherWorkspace(inst: Installation, name: string): Promise<Installation> {
  const workspace = await quire<{ id: string; slug: string }>(
    ['workspace', 'create', '--name', name, '--owner', 'bench@example.com'],
    inst.env,
  );
  const { key } = await quire<{ key: string }>(
    ['key', 'create', '--workspace', workspace.slug, '--email', 'bench@example.com', '--name', 'bench'],
    inst.env,
  );
  return { ...inst, key, workspaceId: workspace.id };
}

async function serve(installation: Installation, extraEnv: Env = {}): Promise<Child> {
  const port = await freePort();
  const child = launch(
    [...binNodeFlags(), BIN, 'serve'],
    { ...installation.env, ...extraEnv, HOST: '127.0.0.1', PORT: String(port) },
    port,
  );
  await waitFor(`${child.url}/healthz`, {}, performance.now(), 30_000, child);
  return child;
}

async function call(base: string, key: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${base}${EXTERNAL}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as { id: string };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** Commit-to-receipt: one endpoint, writes one at a time, each delivery's arrival minus its write's answer. */
async function latency(server: Child, inst: Installation, writes: number) {
  const rx = await receiver();
  const hook = await call(server.url, inst.key, 'POST', '/webhooks', { url: rx.url('/latency') });
  const samples: number[] = [];
  for (let i = 0; i < writes; i += 1) {
    const tag = await call(server.url, inst.key, 'POST', '/tags', { name: `Latency ${i} ${crypto.randomUUID()}` });
    const answered = performance.now();
    await until(() => rx.got.some((g) => g.resource === tag.id), 15_000);
    samples.push(rx.got.find((g) => g.resource === tag.id)!.at - answered);
  }
  await call(server.url, inst.key, 'DELETE', `/webhooks/${hook.id}`);
  await rx.close();
  const sorted = samples.sort((a, b) => a - b);
  return {
    writes,
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted.at(-1)!),
  };
}

/** A receiver that reads each request and never answers: the dispatcher gives up on each after its 10 s. */
async function hangingReceiver() {
  let requests = 0;
  const server = http.createServer((request) => {
    request.resume();
    requests += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`;
  return {
    url,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * Workspace B's commit-to-receipt alone, then while workspace A's `hanging` endpoints never answer and A writes
 * a post every 250 ms (its first three at once), on one server that allows A that many endpoints.
 */
async function fairness(inst: Installation, hanging: number, writes: number) {
  const a = inst;
  const b = await otherWorkspace(inst, 'Bench B');
  const server = await serve(inst, { QUIRE_WEBHOOK_ENDPOINTS_MAX: String(Math.max(20, hanging)) });
  try {
    log('  B alone');
    const idle = await latency(server, b, writes);
    const rx = await hangingReceiver();
    const hooks = [];
    for (let i = 0; i < hanging; i += 1)
      hooks.push(await call(server.url, a.key, 'POST', '/webhooks', { url: rx.url(`/hang${i}`) }));
    const post = (i: number) =>
      call(server.url, a.key, 'POST', '/posts', { title: `Hanging ${i} ${crypto.randomUUID()}`, bodyJson: [] });
    for (let i = 0; i < 3; i += 1) await post(i);
    const stop = { now: false };
    let aWrites = 3;
    const aLoad = (async () => {
      while (!stop.now) {
        await sleep(250);
        await post(aWrites);
        aWrites += 1;
      }
    })();
    // A's first sends are under way before B writes.
    await until(() => rx.requests() > 0, 10_000);
    log(`  B while A's ${hanging} endpoints hang`);
    const loaded = await latency(server, b, writes);
    stop.now = true;
    await aLoad;
    const hangingRequests = rx.requests();
    for (const hook of hooks) await call(server.url, a.key, 'DELETE', `/webhooks/${hook.id}`);
    await rx.close();
    return {
      hangingEndpoints: hanging,
      aWrites,
      aDeliveriesQueued: aWrites * hanging,
      aRequestsHanging: hangingRequests,
      idle,
      whileAHangs: loaded,
      p99Ratio: round(loaded.p99Ms / idle.p99Ms, 2),
    };
  } finally {
    await server.stop();
  }
}

/** Deliveries per second to 10 endpoints: writes as fast as 4 clients go, until every delivery has arrived. */
async function throughput(server: Child, inst: Installation, writes: number) {
  const rx = await receiver();
  const hooks = [];
  for (let i = 0; i < 10; i += 1)
    hooks.push(
      await call(server.url, inst.key, 'POST', '/webhooks', { url: rx.url(`/t${i}`), eventTypes: ['tag.created'] }),
    );
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < writes) {
        next += 1;
        await call(server.url, inst.key, 'POST', '/tags', { name: `Throughput ${crypto.randomUUID()}` });
      }
    }),
  );
  const expected = writes * 10;
  const complete = await until(() => rx.got.length >= expected, 300_000);
  const seconds = (rx.got.at(-1)!.at - started) / 1000;
  for (const hook of hooks) await call(server.url, inst.key, 'DELETE', `/webhooks/${hook.id}`);
  await rx.close();
  return {
    endpoints: 10,
    writes,
    deliveries: rx.got.length,
    complete,
    seconds: round(seconds, 2),
    perSecond: Math.round(rx.got.length / seconds),
  };
}

/** Writes from 4 clients until `stop`; answers the ids of the tags whose create was answered 201. */
async function writeLoad(server: Child, inst: Installation, stop: { now: boolean }) {
  const acknowledged: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!stop.now) {
        try {
          acknowledged.push(
            (await call(server.url, inst.key, 'POST', '/tags', { name: `Kill ${crypto.randomUUID()}` })).id,
          );
        } catch {
          return; // the server is gone
        }
      }
    }),
  );
  return acknowledged;
}

/** kill -9 under load `kills` times, then one server drains the outbox (after the leases run out). */
async function killNine(inst: Installation, kills: number) {
  const rx = await receiver();
  let server = await serve(inst);
  await call(server.url, inst.key, 'POST', '/webhooks', { url: rx.url('/kill'), eventTypes: ['tag.created'] });
  const acknowledged: string[] = [];
  for (let round = 0; round < kills; round += 1) {
    if (round > 0) server = await serve(inst);
    const stop = { now: false };
    const load = writeLoad(server, inst, stop);
    await sleep(600 + Math.random() * 900);
    server.child.kill('SIGKILL');
    stop.now = true;
    acknowledged.push(...(await load));
    await server.exited;
  }
  server = await serve(inst);
  // A delivery claimed by a killed server is sent again when its lease (a minute) runs out.
  const wanted = new Set(acknowledged);
  const arrived = () => new Set(rx.got.map((g) => g.resource));
  await until(() => [...wanted].every((id) => arrived().has(id)), 150_000);
  await sleep(2_000);
  await server.stop();
  const got = arrived();
  const lost = [...wanted].filter((id) => !got.has(id)).length;
  const ids = rx.got.map((g) => g.id);
  await rx.close();
  return {
    kills,
    acknowledgedWrites: wanted.size,
    received: ids.length,
    lost,
    duplicates: ids.length - new Set(ids).size,
  };
}

/** Three servers on one PostgreSQL, writes spread over them: every event delivered once or more. */
async function threeInstances(inst: Installation, writes: number) {
  const rx = await receiver();
  const servers = [await serve(inst), await serve(inst), await serve(inst)];
  await call(servers[0]!.url, inst.key, 'POST', '/webhooks', { url: rx.url('/three'), eventTypes: ['tag.created'] });
  const ids: string[] = [];
  await Promise.all(
    servers.map(async (server, index) => {
      for (let i = index; i < writes; i += servers.length)
        ids.push((await call(server.url, inst.key, 'POST', '/tags', { name: `Three ${crypto.randomUUID()}` })).id);
    }),
  );
  await until(() => new Set(rx.got.map((g) => g.resource)).size >= ids.length, 60_000);
  await sleep(2_000);
  for (const server of servers) await server.stop();
  const got = new Set(rx.got.map((g) => g.resource));
  const deliveryIds = rx.got.map((g) => g.id);
  await rx.close();
  return {
    instances: 3,
    writes: ids.length,
    lost: ids.filter((id) => !got.has(id)).length,
    duplicates: deliveryIds.length - new Set(deliveryIds).size,
  };
}

/**
 * The CPU of a post create with 3 endpoints against none, in this process (no dispatcher runs here, so only the
 * write path is counted): blocks of writes alternate between a workspace with no endpoint and one with 3.
 */
async function writeCpu(inst: Installation, blocks: number, perBlock: number) {
  type Runtime = {
    services: {
      posts: { create(actor: unknown, body: unknown): Promise<unknown> };
      accounts: { createWorkspace(name: string, email: string): Promise<{ id: string }> };
      webhooks: {
        create(actor: unknown, body: unknown): Promise<{ id: string }>;
        remove(actor: unknown, id: string): Promise<unknown>;
      };
    };
    close(): Promise<void>;
  };
  const dist = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
  const { loadConfig } = (await import(dist('config.js'))) as { loadConfig(env: Env): unknown };
  const { openRuntime } = (await import(dist('runtime.js'))) as { openRuntime(config: unknown): Promise<Runtime> };
  const runtime = await openRuntime(loadConfig(inst.env));
  const actorOf = (workspaceId: string) => ({
    workspaceId,
    userId: null,
    apiKeyId: null,
    isOwner: true,
    permissions: new Set(),
    contentVersion: 0,
  });
  const none = await runtime.services.accounts.createWorkspace('No endpoints', 'bench@example.com');
  const three = await runtime.services.accounts.createWorkspace('Three endpoints', 'bench@example.com');
  const endpoints: string[] = [];
  for (let i = 0; i < 3; i += 1)
    endpoints.push(
      (await runtime.services.webhooks.create(actorOf(three.id), { url: `http://127.0.0.1:9/e${i}`, enabled: true }))
        .id,
    );
  const body = {
    title: 'A post of a realistic size',
    excerpt: 'x'.repeat(200),
    bodyJson: Array.from({ length: 20 }, (_, i) => ({ type: 'paragraph', text: `Paragraph ${i} `.repeat(30) })),
  };
  const cpu = { none: 0, three: 0 };
  for (let block = 0; block < blocks * 2 + 2; block += 1) {
    const which = block % 2 === 0 ? 'none' : 'three';
    const actor = actorOf(which === 'none' ? none.id : three.id);
    const start = process.cpuUsage();
    for (let i = 0; i < perBlock; i += 1) await runtime.services.posts.create(actor, body);
    const used = process.cpuUsage(start);
    if (block >= 2) cpu[which] += (used.user + used.system) / 1000; // the first pair warms up
  }
  // Their queued deliveries go with them: the server started next must not spend its time on them.
  for (const id of endpoints) await runtime.services.webhooks.remove(actorOf(three.id), id);
  await runtime.close();
  const writes = blocks * perBlock;
  const perWrite = { none: cpu.none / writes, three: cpu.three / writes };
  return {
    writesEach: writes,
    cpuMsPerWrite0: round(perWrite.none, 3),
    cpuMsPerWrite3: round(perWrite.three, 3),
    extraPercent: round(((perWrite.three - perWrite.none) / perWrite.none) * 100),
  };
}

async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'both' },
      kills: { type: 'string', default: '20' },
      writes: { type: 'string', default: '200' },
      // The write's CPU alone, measured `rounds` times on one installation: its spread says how far to trust one.
      only: { type: 'string' },
      rounds: { type: 'string', default: '1' },
      hanging: { type: 'string', default: '40' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const dialects: Dialect[] = values.db === 'both' ? ['sqlite', 'postgres'] : [values.db as Dialect];
  const writes = Number(values.writes);
  const fairnessWrites = argv.some((arg) => arg.startsWith('--writes')) ? writes : 100;
  await ensureBuilt(log);
  const load = loadAverage();
  const results: Record<string, unknown> = {};
  for (const dialect of dialects) {
    const inst = await install(dialect);
    try {
      if (values.only === 'fairness') {
        log(`${dialect}: fairness, ${values.hanging} hanging endpoints`);
        results[dialect] = { fairness: await fairness(inst, Number(values.hanging), fairnessWrites) };
        log(JSON.stringify(results[dialect]));
        continue;
      }
      log(`${dialect}: write CPU, 0 vs 3 endpoints`);
      const rounds = [];
      for (let round = 0; round < Number(values.rounds); round += 1) rounds.push(await writeCpu(inst, 10, 50));
      const cpu =
        rounds.length === 1 ? rounds[0]! : { rounds, medianExtraPercent: median(rounds.map((r) => r.extraPercent)) };
      if (values.only === 'write-cpu') {
        results[dialect] = { writeCpu: cpu };
        log(JSON.stringify(results[dialect]));
        continue;
      }
      const server = await serve(inst);
      log(`${dialect}: latency`);
      const lat = await latency(server, inst, writes);
      log(`${dialect}: throughput`);
      const thr = await throughput(server, inst, writes);
      await server.stop();
      log(`${dialect}: kill -9 ×${values.kills}`);
      const kills = await killNine(inst, Number(values.kills));
      const three = dialect === 'postgres' ? await threeInstances(inst, writes) : null;
      results[dialect] = { writeCpu: cpu, latency: lat, throughput: thr, killNine: kills, threeInstances: three };
      log(JSON.stringify(results[dialect]));
    } finally {
      fs.rmSync(inst.root, { recursive: true, force: true });
      if (inst.databaseUrl) await dropDatabase(inst.databaseUrl).catch(() => undefined);
    }
  }
  const document = {
    kind: 'webhooks',
    date: new Date().toISOString(),
    machine: machineInfo(),
    loadAverageBefore: load,
    loadAverageAfter: loadAverage(),
    results,
  };
  const name = `${document.date.slice(0, 10)}-webhooks-${dialects.join('-')}${values.only ? `-${values.only}` : ''}`;
  const file = path.join(ROOT, 'bench', 'results', `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  log(`results: ${path.relative(ROOT, file)}`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench:webhooks: ${error.stack ?? error.message}\n`);
  process.exit(1);
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : round((sorted[middle - 1]! + sorted[middle]!) / 2);
}
