import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Dataset } from './dataset.js';
import { writeForm, type Block } from './fixtures.js';
import { BIN, binLine, freePort, launch, ROOT, shellEnv, waitFor } from './processes.js';
import { loadAverage, machineInfo, processCpuSeconds } from './proc-stats.js';
import { EXTERNAL } from './quire-server.js';

/*
 * `npm run bench:writes`: what one content write costs the server, one write at a time on one connection, so
 * no write waits for another and nothing else runs in the server. Two writes, each PATCHing one post in turn
 * between two versions:
 *   - title: another title (what a writer's rename, and the benchmark's cold scenarios, do);
 *   - blocks: a 60-block bodyJson with one paragraph edited (patch-60-blocks);
 *   - pending: the same 60 blocks saved as the pending changes of a published post (the studio's autosave of a
 *     live post: a PUT …/pending, checked by a rehearsed Update that is rolled back).
 * For each, the server's CPU per write from /proc over `--writes` writes after `--warmup` ones, and the wall
 * time. With `--callgrind`, the server runs under valgrind instead, twice (a quarter of the writes, then all of
 * them), and the difference of the two runs' instruction counts divided by the difference of their writes is
 * the instructions of one write: a figure the machine's other load cannot move, which CPU time on a shared
 * machine is not. `--server` measures another checkout's bin/quire.js (an earlier commit, for an A/B) on the same
 * data. The data dir is one kept by `npm run bench -- --keep`; a SQLite one is copied for each server, so every
 * run starts from the same file; a PostgreSQL one is written in place, and each write is undone by the next.
 */

const HELP = `npm run bench:writes -- --data-dir DIR [options]

  --data-dir DIR     a data dir kept by npm run bench -- --keep (SQLite or PostgreSQL)
  --server FILE      the bin/quire.js to measure (default: this checkout's)
  --writes N         measured writes of each kind (default 2000; the blocks write runs a quarter as many)
  --warmup N         writes of each kind before measuring (default 300)
  --kinds a,b        title, blocks, pending (default all)
  --log-level L      the server's LOG_LEVEL (default info)
  --callgrind        count instructions under valgrind instead of timing (slow: try --writes 400 --warmup 50)
  --label NAME       names the results file bench/results/<date>-writes-NAME.json
`;

const KINDS = ['title', 'blocks', 'pending'] as const;
type Kind = (typeof KINDS)[number];
const START_TIMEOUT_MS = 600_000;

interface SamplePost {
  id: string;
  title: string;
  bodyJson: Block[];
  updatedAt: string;
}

interface PlannedWrite {
  method: 'PATCH' | 'PUT';
  path: string;
  bodies: [string, string];
}

const log = (line: string) => process.stdout.write(`${line}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      server: { type: 'string' },
      writes: { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '300' },
      kinds: { type: 'string', default: KINDS.join(',') },
      'log-level': { type: 'string', default: 'info' },
      callgrind: { type: 'boolean', default: false },
      label: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help || !values['data-dir']) {
    process.stdout.write(HELP);
    process.exit(values.help ? 0 : 2);
  }
  const kinds = values.kinds.split(',').map((kind) => {
    if (!(KINDS as readonly string[]).includes(kind)) throw new Error(`--kinds: ${kind} is not one of ${KINDS}`);
    return kind as Kind;
  });
  const count = (name: string, raw: string) => {
    if (!/^\d+$/.test(raw) || Number(raw) < 4) throw new Error(`--${name} must be a whole number of 4 or more`);
    return Number(raw);
  };
  return {
    dataDir: path.resolve(values['data-dir']),
    server: path.resolve(values.server ?? BIN),
    writes: count('writes', values.writes),
    warmup: count('warmup', values.warmup),
    kinds,
    logLevel: values['log-level'],
    callgrind: values.callgrind,
    label: values.label ?? (values.callgrind ? 'callgrind' : 'cpu'),
  };
}
type Options = ReturnType<typeof options>;

/** Two request bodies per kind, and what each writes to: posts of the first page nobody reads here. */
function writesOf(sample: SamplePost[], live: SamplePost): Record<Kind, PlannedWrite> {
  const blocks = sample.flatMap((post) => post.bodyJson.map(writeForm)).slice(0, 60);
  const edited = blocks.map((block) => ({ ...block }));
  const paragraph = edited.find((block) => block.type === 'paragraph');
  if (blocks.length < 60 || !paragraph) throw new Error('the first 100 posts hold too few blocks');
  paragraph.text = `${String(paragraph.text)} Revised by the benchmark.`;
  const [titled, bodied] = [sample[57]!, sample[58]!];
  const pending = (body: Block[]) => JSON.stringify({ baseVersion: live.updatedAt, changes: { bodyJson: body } });
  return {
    title: {
      method: 'PATCH',
      path: `/posts/${titled.id}`,
      bodies: [JSON.stringify({ title: `${titled.title} (edited)` }), JSON.stringify({ title: titled.title })],
    },
    blocks: {
      method: 'PATCH',
      path: `/posts/${bodied.id}`,
      bodies: [JSON.stringify({ bodyJson: blocks }), JSON.stringify({ bodyJson: bodied.bodyJson.map(writeForm) })],
    },
    pending: { method: 'PUT', path: `/posts/${live.id}/pending`, bodies: [pending(edited), pending(blocks)] },
  };
}

interface Measured {
  writes: number;
  cpuMsPerWrite: number;
  wallMsPerWrite: number;
}

/** One server on its own copy of the data: the writes of each kind, and at the end its instructions if counted. */
async function serve(opts: Options, dataset: Dataset, writes: number, callgrindOut: string | null) {
  const copy = dataset.dialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-writes-')) : null;
  if (copy) fs.cpSync(dataset.dataDir, copy, { recursive: true });
  const port = await freePort();
  // The measured checkout's own first line, not this checkout's.
  const line = binLine(opts.server);
  const env = {
    ...shellEnv(),
    ...line.env,
    QUIRE_DATA_DIR: copy ?? dataset.dataDir,
    ...(dataset.databaseUrl ? { DATABASE_URL: dataset.databaseUrl } : {}),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: opts.logLevel,
    QUIRE_RATE_LIMIT_MAX: '1000000000',
  };
  const wrapper = callgrindOut ? ['valgrind', '--tool=callgrind', `--callgrind-out-file=${callgrindOut}`] : [];
  const server = launch([...line.flags, opts.server, 'serve'], env, port, wrapper);
  try {
    const base = `${server.url}${EXTERNAL}`;
    const headers = { 'x-api-key': dataset.key, 'content-type': 'application/json', 'accept-encoding': 'identity' };
    await waitFor(`${base}/posts?pageSize=1`, { headers }, performance.now(), START_TIMEOUT_MS, server);
    const page = (await (await fetch(`${base}/posts?pageSize=100`, { headers })).json()) as { data: SamplePost[] };
    const published = `${base}/posts?status=published&pageSize=1&page=3`;
    const [live] = ((await (await fetch(published, { headers })).json()) as { data: SamplePost[] }).data;
    if (!live) throw new Error('the data holds too few published posts');
    const plan = writesOf(page.data, live);
    const results: Partial<Record<Kind, Measured>> = {};
    for (const kind of opts.kinds) {
      const { method, path: url, bodies } = plan[kind];
      // An even number of writes, so the post ends as it began.
      const even = (n: number) => n + (n % 2);
      const count = even(kind === 'title' ? writes : Math.max(1, Math.round(writes / 4)));
      const write = async (i: number) => {
        const response = await fetch(`${base}${url}`, { method, headers, body: bodies[i % 2] });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${method} ${kind} answered ${response.status}`);
      };
      for (let i = 0; i < even(opts.warmup); i += 1) await write(i);
      const [cpu0, wall0] = [processCpuSeconds(server.pid)!, performance.now()];
      for (let i = 0; i < count; i += 1) await write(i);
      const [cpu1, wall1] = [processCpuSeconds(server.pid)!, performance.now()];
      results[kind] = {
        writes: count,
        cpuMsPerWrite: ((cpu1 - cpu0) * 1000) / count,
        wallMsPerWrite: (wall1 - wall0) / count,
      };
    }
    // Stopped before its output is read: valgrind prints the count as the server exits.
    await server.stop();
    const counted = /I\s+refs:\s+([\d,]+)/.exec(server.output())?.[1];
    const instructions = callgrindOut ? Number(counted?.replaceAll(',', '')) : null;
    return { results, instructions };
  } finally {
    await server.stop();
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  }
}

async function main() {
  const opts = options();
  const dataset = JSON.parse(fs.readFileSync(path.join(opts.dataDir, 'bench.json'), 'utf8')) as Dataset;
  dataset.dataDir = opts.dataDir;
  log(`bench:writes: ${opts.server} on ${dataset.posts} posts (${dataset.dialect}), LOG_LEVEL=${opts.logLevel}`);
  const report: Record<string, unknown> = {
    server: opts.server,
    dialect: dataset.dialect,
    posts: dataset.posts,
    logLevel: opts.logLevel,
    machine: machineInfo(),
    loadBefore: loadAverage(),
  };
  if (!opts.callgrind) {
    const { results } = await serve(opts, dataset, opts.writes, null);
    for (const [kind, m] of Object.entries(results))
      log(
        `${kind.padEnd(7)} ${m.cpuMsPerWrite.toFixed(3)} CPU ms/write, ${m.wallMsPerWrite.toFixed(3)} ms wall (${m.writes} writes)`,
      );
    report.cpu = results;
  } else {
    // One kind per pair of runs, so each count is that kind's alone.
    const counted: Record<string, unknown> = {};
    for (const kind of opts.kinds) {
      const one = { ...opts, kinds: [kind] };
      const small = Math.max(2, Math.round(opts.writes / 4));
      const out = (n: number) => path.join(os.tmpdir(), `quire-writes-${process.pid}-${kind}-${n}.callgrind`);
      const a = await serve(one, dataset, small, out(small));
      const b = await serve(one, dataset, opts.writes, out(opts.writes));
      const [wa, wb] = [a.results[kind]!.writes, b.results[kind]!.writes];
      const perWrite = (b.instructions! - a.instructions!) / (wb - wa);
      log(`${kind.padEnd(7)} ${(perWrite / 1e6).toFixed(2)} M instructions/write (${wb} − ${wa} writes)`);
      counted[kind] = {
        instructionsPerWrite: Math.round(perWrite),
        runs: [
          [wa, a.instructions],
          [wb, b.instructions],
        ],
      };
      for (const n of [small, opts.writes]) fs.rmSync(out(n), { force: true });
    }
    report.callgrind = counted;
  }
  const file = path.join(
    ROOT,
    'bench',
    'results',
    `${new Date().toISOString().slice(0, 10)}-writes-${opts.label}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`results: ${path.relative(ROOT, file)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
