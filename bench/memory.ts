import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { datasetEnv, ensureBuilt, prepareDataset, type Dataset } from './dataset.js';
import type { BenchFlags, Dialect } from './flags.js';
import { BIN, binNodeFlags, freePort, launch, ROOT, waitFor, type Child } from './processes.js';
import { EXTERNAL } from './quire-server.js';

type QuireServer = Child;

/** The server as production runs it, started without a request to it, so its memory is measured from idle. */
async function startIdle(dataset: Dataset): Promise<QuireServer> {
  const port = await freePort();
  const env = { ...datasetEnv(dataset), HOST: '127.0.0.1', PORT: String(port), QUIRE_RATE_LIMIT_MAX: '1000000000' };
  const child = launch([...binNodeFlags(), BIN, 'serve'], env, port);
  await waitFor(`${child.url}/healthz`, {}, performance.now(), 30_000, child);
  return child;
}

/*
 * `npm run bench:memory`: what the largest lists the API allows cost the server in memory (issue 20). It fills a
 * workspace with posts and pages at the specification's limits (1,000 paragraphs of 10,000 characters each),
 * then asks for a page of 100 of them three times at once and samples the server's resident memory (VmRSS)
 * all along: before, at its peak, and once the answers are done and the process has had a few seconds.
 */

const USAGE = `npm run bench:memory -- [--db sqlite|postgres] [--posts N] [--paragraphs P] [--keep] [--data-dir DIR]`;

function flagsOf(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'sqlite' },
      posts: { type: 'string', default: '100' },
      paragraphs: { type: 'string', default: '1000' },
      keep: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help' as const;
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
  return {
    db: values.db as Dialect,
    posts: Number(values.posts),
    paragraphs: Number(values.paragraphs),
    keep: values.keep,
    dataDir: values['data-dir'] ?? null,
  };
}

/** The server's resident memory, in MiB. */
function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function largestBody(paragraphs: number, seed: number) {
  return Array.from({ length: paragraphs }, (_, i) => ({
    type: 'paragraph',
    text: `Post ${seed}, paragraph ${i}: `.padEnd(10_000, 'the quick brown fox jumps over the lazy dog '),
  }));
}

async function fill(server: QuireServer, key: string, count: number, paragraphs: number, log: (line: string) => void) {
  for (const resource of ['posts', 'pages']) {
    for (let i = 0; i < count; i += 1) {
      const response = await fetch(`${server.url}${EXTERNAL}/${resource}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Largest ${i}`, status: 'published', bodyJson: largestBody(paragraphs, i) }),
      });
      if (response.status !== 201)
        throw new Error(`POST /${resource} answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      if ((i + 1) % 10 === 0) log(`${resource}: ${i + 1} of ${count} written`);
    }
  }
}

interface Measure {
  scenario: string;
  beforeMiB: number;
  peakMiB: number;
  afterMiB: number;
  bytesPerAnswer: number;
  seconds: number;
}

/** Issue 20: three of the largest lists at once keep the server under 400 MB (the unit, in MiB), ... */
const PEAK_TARGET_MIB = 400e6 / 2 ** 20;
/** ... and its memory comes back to within this share of where it was before them. */
const AFTER_TARGET = 0.2;

function withinTarget(result: Measure): boolean {
  return result.peakMiB < PEAK_TARGET_MIB && result.afterMiB <= result.beforeMiB * (1 + AFTER_TARGET);
}

/** Three requests of `path` at once, with the server's RSS sampled every 20 ms from before to after. */
async function measure(server: QuireServer, key: string, scenario: string, urlPath: string): Promise<Measure> {
  await sleep(3_000);
  const beforeMiB = rssMiB(server.pid);
  let peakMiB = beforeMiB;
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, rssMiB(server.pid))), 20);
  const started = performance.now();
  const sizes = await Promise.all(
    [0, 1, 2].map(async () => {
      const response = await fetch(`${server.url}${EXTERNAL}${urlPath}`, { headers: { 'x-api-key': key } });
      if (response.status !== 200) throw new Error(`GET ${urlPath} answered ${response.status}`);
      let bytes = 0;
      for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
      return bytes;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  // V8 gives memory back to the system some seconds after a process goes idle.
  await sleep(15_000);
  const afterMiB = rssMiB(server.pid);
  return { scenario, beforeMiB, peakMiB, afterMiB, bytesPerAnswer: sizes[0]!, seconds };
}

async function main(): Promise<void> {
  const flags = flagsOf(process.argv.slice(2));
  if (flags === 'help') return void process.stdout.write(`${USAGE}\n`);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  await ensureBuilt(log);
  const benchFlags: BenchFlags = {
    db: flags.db,
    posts: 1,
    duration: 0,
    warmup: 0,
    connections: 1,
    only: [],
    keep: flags.keep,
    dataDir: flags.dataDir,
    cpuProf: null,
    // Only the data set is prepared here; its server is started below, at the level of its CLI commands.
    logLevel: 'warn',
    resultsDir: null,
  };
  const prepared = await prepareDataset(benchFlags, log);
  const { dataset } = prepared;
  let server = await startIdle(dataset);
  try {
    if (!prepared.reused) {
      log(
        `writing ${flags.posts} posts and ${flags.posts} pages of ${flags.paragraphs} paragraphs of 10,000 characters`,
      );
      await fill(server, dataset.key, flags.posts, flags.paragraphs, log);
      // Measured from a fresh process, not one that has just parsed a gigabyte of requests.
      await server.stop();
      server = await startIdle(dataset);
    }
    const results: Measure[] = [];
    const run = async (scenario: string, urlPath: string) => {
      const result = await measure(server, dataset.key, scenario, urlPath);
      results.push(result);
      log(
        `${scenario}: RSS ${result.beforeMiB.toFixed(0)} → peak ${result.peakMiB.toFixed(0)} → ${result.afterMiB.toFixed(0)} MiB; ` +
          `${(result.bytesPerAnswer / 1024 / 1024).toFixed(1)} MiB an answer; ${result.seconds.toFixed(1)} s; ` +
          `issue 20's target (peak under ${PEAK_TARGET_MIB.toFixed(1)} MiB, after within ${AFTER_TARGET * 100} % of before) ` +
          (withinTarget(result) ? 'met' : 'missed'),
      );
    };
    await run('posts, renders built', '/posts?pageSize=100');
    await run('posts, renders stored', '/posts?pageSize=100');
    await run('posts, search', '/posts?pageSize=100&q=fox');
    await run('pages', '/pages?pageSize=100');
    const file = path.join(
      ROOT,
      'bench',
      'results',
      `${new Date().toISOString().slice(0, 10)}-memory-${flags.db}.json`,
    );
    fs.writeFileSync(
      file,
      `${JSON.stringify({ flags, results: results.map((result) => ({ ...result, withinTarget: withinTarget(result) })) }, null, 2)}\n`,
    );
    log(`results: ${path.relative(ROOT, file)}`);
  } finally {
    await server.stop();
    await prepared.dispose();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
