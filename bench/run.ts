/*
 * `npm run bench`: seeds a data set with `quire seed`, starts the real server as a separate process,
 * drives it over loopback with autocannon, drives a bare node:http server sending the same bytes
 * (the ceiling), prints one table and writes bench/results/<date>-<dialect>.json (or into --results-dir).
 * docs/performance.md explains how to read it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { newestMtimeMs } from '#build-needed';
import { ensureBuilt, prepareDataset } from './dataset.js';
import { parseFlags, USAGE, type BenchFlags } from './flags.js';
import { measure, type Measurement } from './measure.js';
import { baseEnv, ROOT, run } from './processes.js';
import { loadAverage, machineInfo } from './proc-stats.js';
import { checkTargets, coldStartSummary, formatTable, formatTargets } from './report.js';

const out = (text: string) => process.stdout.write(`${text}\n`);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function commit(): Promise<{ hash: string | null; dirty: boolean | null }> {
  try {
    const env = baseEnv({});
    const hash = (await run('git', ['rev-parse', 'HEAD'], env, { timeoutMs: 10_000 })).trim();
    const status = await run('git', ['status', '--porcelain'], env, { timeoutMs: 10_000 });
    return { hash, dirty: status.trim() !== '' };
  } catch {
    return { hash: null, dirty: null };
  }
}

/** <dir>/<YYYY-MM-DD>-<dialect>.json, or -2, -3 … when that day already has one; dir is bench/results unless given. */
function resultsFile(dialect: string, resultsDir: string | null): string {
  const dir = resultsDir === null ? path.join(ROOT, 'bench', 'results') : path.resolve(resultsDir);
  fs.mkdirSync(dir, { recursive: true });
  const stem = `${new Date().toISOString().slice(0, 10)}-${dialect}`;
  for (let n = 1; ; n += 1) {
    const file = path.join(dir, `${stem}${n === 1 ? '' : `-${n}`}.json`);
    if (!fs.existsSync(file)) return file;
  }
}

function print(
  flags: BenchFlags,
  posts: number,
  measurement: Measurement,
  targets: ReturnType<typeof checkTargets>,
  seconds: number,
  load: number[][],
): void {
  const { fixtures, rows } = measurement;
  out('');
  out(
    `Quire benchmark: ${flags.db}, ${posts} posts, ${flags.connections} connections, ${flags.duration} s per scenario ` +
      `(after ${flags.warmup} s of warm-up), server LOG_LEVEL=${flags.logLevel}${flags.logLevel === 'info' ? ' (the default)' : ''}, node ${process.version}, ${machineInfo().cpus} CPUs; load average before ${load[0]!.join(' ')}, after ${load[1]!.join(' ')}`,
  );
  out('');
  out(formatTable(rows));
  out('');
  if (fixtures) {
    out(
      `post: ${fixtures.post.slug}; search: "${fixtures.common.text}" in ${fixtures.common.total} posts, "${fixtures.rare.text}" in ${fixtures.rare.total}; ` +
        `60-block body: ${fixtures.patch.blockTypes.join(', ')}`,
    );
  }
  for (const row of rows) for (const note of row.notes) out(`${row.scenario}: ${note}`);
  out(coldStartSummary(measurement.coldStarts));
  out('');
  out('Targets (issues 8 and 26):');
  out(formatTargets(targets));
  out('');
  out(`total ${Math.round(seconds)} s`);
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  if (flags === 'help') {
    out(USAGE);
    return;
  }
  const started = performance.now();
  const loadBefore = loadAverage();
  await ensureBuilt(log);
  const prepared = await prepareDataset(flags, log);
  try {
    const { dataset } = prepared;
    const measurement = await measure(flags, dataset, log);
    const targets = checkTargets(
      measurement.rows,
      measurement.coldStarts,
      dataset.posts,
      measurement.linkHealthExact,
      dataset.dialect,
    );
    const loadAfter = loadAverage();
    const seconds = (performance.now() - started) / 1000;
    print(flags, dataset.posts, measurement, targets, seconds, [loadBefore, loadAfter]);

    const file = resultsFile(dataset.dialect, flags.resultsDir);
    const results = {
      date: new Date().toISOString(),
      dialect: dataset.dialect,
      flags: { ...flags, posts: dataset.posts },
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: { ...machineInfo(), loadAverageBefore: loadBefore, loadAverageAfter: loadAfter },
      commit: await commit(),
      // The server measured is dist/ as last built, which a dirty tree may not match.
      distBuiltAt: new Date(newestMtimeMs(path.join(ROOT, 'dist'), [path.join(ROOT, 'dist', 'bench')])).toISOString(),
      dataset: { posts: dataset.posts, seedSeconds: dataset.seedSeconds, reused: prepared.reused },
      fixtures: measurement.fixtures && {
        post: measurement.fixtures.post,
        tagId: measurement.fixtures.tagId,
        categoryId: measurement.fixtures.categoryId,
        totalPosts: measurement.fixtures.totalPosts,
        lastPage: measurement.fixtures.lastPage,
        common: measurement.fixtures.common,
        rare: measurement.fixtures.rare,
        mediaPath: measurement.fixtures.mediaPath,
        patchBlockTypes: measurement.fixtures.patch.blockTypes,
      },
      coldStarts: measurement.coldStarts,
      table: formatTable(measurement.rows),
      scenarios: measurement.rows,
      targets,
      totalSeconds: Math.round(seconds),
    };
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    out(`results: ${path.relative(ROOT, file)}`);
  } finally {
    await prepared.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
