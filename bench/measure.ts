import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { captureScenario, responseBytes, routeKey, type CeilingRoute } from './capture.js';
import { databaseBackendPids, type Dataset } from './dataset.js';
import { Api, discoverFixtures, restoreWrites, type Fixtures } from './fixtures.js';
import type { BenchFlags } from './flags.js';
import { drive, type LoadResult } from './load.js';
import { baseEnv, freePort, launch, waitFor } from './processes.js';
import { loadAverage, UsageWindow, waitUntilIdle, type UsageReport } from './proc-stats.js';
import { startQuire, type QuireServer } from './quire-server.js';
import type { ColdStart, Row } from './report.js';
import { blockOf, buildScenarios, SCENARIO_NAMES, type Block, type Scenario } from './scenarios.js';

const COLD_STARTS = 3;
const BLOCKS: Block[] = ['warm', 'no-cache', 'cold'];

type Log = (line: string) => void;
type Measured = LoadResult & { usage: UsageReport };

interface ServerRun {
  scenario: Scenario;
  bytes: number;
  load1: number;
  result: Measured;
  notes: string[];
  dialect: string;
}

export interface Measurement {
  coldStarts: ColdStart[];
  fixtures: Fixtures | null;
  rows: Row[];
  /** Whether link-health's hitCount grew by exactly the 2xx count; null when it did not run. */
  linkHealthExact: boolean | null;
}

/** A warm-up, then the measured run with the process watched; an `amount` run is sized from the warm-up's rate. */
async function warmAndDrive(
  url: string,
  scenario: Scenario,
  flags: BenchFlags,
  pid: number,
  before?: () => Promise<number[]>,
): Promise<Measured> {
  const settings = { connections: flags.connections, duration: flags.warmup, amount: 0 };
  // Always for a time, so an `amount` scenario learns from it how many requests fill the measured run.
  const warm = flags.warmup > 0 ? await drive(url, { ...scenario, bounded: 'duration' }, settings) : null;
  const amount = Math.round((warm?.requestsPerSecond ?? 500) * flags.duration);
  await waitUntilIdle(pid);
  const alsoOurs = (await before?.()) ?? [];
  const usage = new UsageWindow(pid, alsoOurs);
  const result = await drive(url, scenario, { ...settings, duration: flags.duration, amount });
  return { ...result, usage: usage.end() };
}

async function hitCountSum(api: Api, prefix: string): Promise<number> {
  const page = await api.json<{ data: Array<{ hitCount: number }> }>(
    'GET',
    `/link-health?pageSize=100&q=${encodeURIComponent(prefix)}`,
  );
  return page.data.reduce((sum, row) => sum + row.hitCount, 0);
}

/**
 * The hitCount sum once it stops moving: the warm-up ends with requests in flight, which the server
 * still commits after autocannon has hung up on them; they must not count toward the measured run.
 */
async function settledHitCountSum(api: Api, prefix: string): Promise<number> {
  let last = await hitCountSum(api, prefix);
  for (let i = 0; i < 20; i += 1) {
    await sleep(250);
    const now = await hitCountSum(api, prefix);
    if (now === last) return now;
    last = now;
  }
  throw new Error('the link-health hitCount kept moving after the warm-up');
}

interface OnServer {
  server: QuireServer;
  dataset: Dataset;
  api: Api;
  fixtures: Fixtures;
  flags: BenchFlags;
  log: Log;
}

/** The scenario against Quire, and the answers captured before it for its ceiling to replay. */
async function runOnServer(scenario: Scenario, { server, dataset, api, fixtures, flags, log }: OnServer) {
  const routes = await captureScenario(server.url, scenario);
  const linkHealth = scenario.name === 'link-health';
  const prefix = fixtures.linkHealthPaths[0]!.replace(/[^/]+$/, '');
  let hitsBefore = 0;
  let load1 = 0;
  log(`${scenario.name}: ${scenario.what}`);
  const result = await warmAndDrive(server.url, scenario, flags, server.pid, async () => {
    if (linkHealth) hitsBefore = await settledHitCountSum(api, prefix);
    load1 = loadAverage()[0];
    return databaseBackendPids(dataset);
  });
  const notes: string[] = [];
  let exact: boolean | null = null;
  if (linkHealth) {
    const grown = (await settledHitCountSum(api, prefix)) - hitsBefore;
    exact = grown === result.ok;
    notes.push(
      `hitCount grew by ${grown} for ${result.ok} 2xx responses counted by autocannon: ${exact ? 'exact' : 'MISMATCH'}`,
    );
  }
  if (scenario.block === 'cold') {
    notes.push(
      `${result.reads} reads and ${result.responses - result.reads} writes (${Math.round(result.responses / 2 / result.seconds)} pairs/s); ` +
        `the row shows reads; write p50 ${result.writeP50} ms, p99 ${result.writeP99} ms`,
    );
  }
  if (result.unexpected > 0)
    notes.push(
      `UNEXPECTED: ${result.unexpected} responses with another status than expected (${JSON.stringify(result.statusCodes)})`,
    );
  if (result.errors > 0) {
    notes.push(
      `${result.errors} requests failed, ${result.timeouts} of them by autocannon's 10 s timeout (not in the latencies, so p99 is capped near 10 s)`,
    );
  }
  const dialect = dataset.dialect;
  return { run: { scenario, bytes: responseBytes(scenario, routes), load1, result, notes, dialect }, exact, routes };
}

/**
 * The errors (pino level 50 and up) in a server's log. Pino buffers its output to a pipe until the
 * process exits, so this is read once the block's server has stopped.
 */
function loggedErrors(output: string): { count: number; first: string } {
  const messages: string[] = [];
  for (const line of output.split('\n')) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 50) messages.push(entry.err?.message ?? entry.msg ?? line.slice(0, 300));
    } catch {
      // Not a log line (a partial line at the 200 kB cut, or plain text).
    }
  }
  return { count: messages.length, first: messages[0] ?? '' };
}

/**
 * The ceiling of one scenario, measured right after Quire's run of it: the same bytes from a bare node:http
 * process started for it. Measured minutes apart, the same 24 kB answer's ceiling moved 2× within one run
 * (19,379 and 39,640 req/s on 2026-11-22), which a ratio cannot survive.
 */
async function measureCeiling(scenario: Scenario, captured: CeilingRoute[], flags: BenchFlags): Promise<Measured> {
  const routes = new Map<string, CeilingRoute>();
  for (const route of captured)
    if (!routes.has(routeKey(route.method, route.path, route.apiKey)))
      routes.set(routeKey(route.method, route.path, route.apiKey), route);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-ceiling-'));
  try {
    const file = path.join(workDir, 'ceiling-routes.json');
    fs.writeFileSync(file, JSON.stringify([...routes.values()]));
    const port = await freePort();
    const ceiling = launch(
      [fileURLToPath(new URL('./ceiling.js', import.meta.url)), file, String(port)],
      baseEnv({}),
      port,
    );
    try {
      await waitFor(`${ceiling.url}/-/ready`, {}, performance.now(), 10_000, ceiling);
      return await warmAndDrive(ceiling.url, scenario, flags, ceiling.pid);
    } finally {
      await ceiling.stop();
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** PostgreSQL's backends' CPU over the same window, per response: null on SQLite, which runs in the server. */
function dbCpuMsPerResponse(measured: Measured | null, dialect: string): number | null {
  if (dialect !== 'postgres' || !measured || measured.responses === 0) return null;
  return Math.round((measured.usage.alsoOursCpuSeconds * 1e6) / measured.responses) / 1000;
}

function cpuMsPerResponse(measured: Measured | null): number | null {
  const cpu = measured?.usage.cpuSeconds ?? null;
  return cpu === null || !measured || measured.responses === 0
    ? null
    : Math.round((cpu * 1e6) / measured.responses) / 1000;
}

function toRow(run: ServerRun, ceiling: Measured | null): Row {
  const { result } = run;
  return {
    scenario: run.scenario.name,
    block: run.scenario.block,
    what: run.scenario.what,
    requestsPerSecond: result.requestsPerSecond,
    p50: result.p50,
    p99: result.p99,
    bytes: run.bytes,
    ceilingRequestsPerSecond: ceiling?.requestsPerSecond ?? null,
    ceilingPercent:
      ceiling && ceiling.requestsPerSecond > 0
        ? Math.round((result.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 10
        : null,
    cpuMsPerResponse: cpuMsPerResponse(result),
    dbCpuMsPerResponse: dbCpuMsPerResponse(result, run.dialect),
    ceilingCpuMsPerResponse: cpuMsPerResponse(ceiling),
    peakRssMb: result.usage.peakRssMb,
    load1: run.load1,
    otherCpuPercent: result.usage.otherCpuPercent,
    notes:
      ceiling && (ceiling.unexpected > 0 || ceiling.errors > 0)
        ? [...run.notes, `ceiling UNEXPECTED: ${JSON.stringify(ceiling.statusCodes)}, ${ceiling.errors} errors`]
        : run.notes,
    server: result,
    ceiling,
  };
}

/** Cold starts, then each block of scenarios on its own server process, each scenario followed by its ceiling. */
export async function measure(flags: BenchFlags, dataset: Dataset, log: Log): Promise<Measurement> {
  const unknown = flags.only.filter((name) => !(SCENARIO_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown scenario ${unknown.join(', ')}; the scenarios are ${SCENARIO_NAMES.join(', ')}`);
  const selected = (name: string) => flags.only.length === 0 || flags.only.includes(name);

  const coldStarts: ColdStart[] = [];
  for (let i = 0; i < COLD_STARTS; i += 1) {
    const server = await startQuire(dataset, { cacheOff: false, cpuProfDir: null, logLevel: flags.logLevel });
    coldStarts.push(server.startup);
    await server.stop();
  }
  log(
    `cold starts (ms to /healthz, to GET /posts): ${coldStarts.map((c) => `${c.healthzMs}/${c.firstPostsMs}`).join(', ')}`,
  );

  let fixtures: Fixtures | null = null;
  let scenarios: Scenario[] = [];
  let linkHealthExact: boolean | null = null;
  const rows: Row[] = [];
  for (const block of BLOCKS) {
    if (!SCENARIO_NAMES.some((name) => blockOf(name) === block && selected(name))) continue;
    const server = await startQuire(dataset, {
      cacheOff: block === 'no-cache',
      cpuProfDir: flags.cpuProf,
      logLevel: flags.logLevel,
    });
    const runs: Array<{ run: ServerRun; ceiling: Measured }> = [];
    try {
      const api = new Api(server.url, dataset.key);
      if (!fixtures) {
        fixtures = await discoverFixtures(api, log);
        scenarios = buildScenarios(dataset, fixtures);
        log(
          `post ${fixtures.post.slug}; q "${fixtures.common.text}" (${fixtures.common.total} posts), "${fixtures.rare.text}" (${fixtures.rare.total})`,
        );
      }
      const chosen = scenarios.filter((scenario) => scenario.block === block && selected(scenario.name));
      for (const scenario of chosen) {
        const { run, exact, routes } = await runOnServer(scenario, { server, dataset, api, fixtures, flags, log });
        log(`ceiling: ${scenario.name}`);
        runs.push({ run, ceiling: await measureCeiling(scenario, routes, flags) });
        if (scenario.name === 'link-health') linkHealthExact = exact;
      }
      if (chosen.some((scenario) => scenario.requests.some((spec) => spec.method === 'PATCH')))
        await restoreWrites(api, fixtures);
    } finally {
      await server.stop();
    }
    const errors = loggedErrors(server.output());
    for (const { run, ceiling } of runs) {
      if (run.result.unexpected > 0 && errors.count > 0) {
        run.notes.push(
          `the server logged ${errors.count} errors in this block (in the last 200 kB of its log), the first: ${errors.first}`,
        );
      }
      rows.push(toRow(run, ceiling));
    }
  }

  const order = (row: Row) => SCENARIO_NAMES.indexOf(row.scenario as (typeof SCENARIO_NAMES)[number]);
  return { coldStarts, fixtures, rows: rows.sort((a, b) => order(a) - order(b)), linkHealthExact };
}
