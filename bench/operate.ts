import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, datasetEnv, dropDatabase, ensureBuilt, prepareDataset } from './dataset.js';
import type { BenchFlags } from './flags.js';
import { emptyInstallation, measured } from './measured-command.js';
import { ROOT, type Env } from './processes.js';
import { loadAverage, machineInfo } from './proc-stats.js';

/*
 * `npm run bench:operate`: the figures of issue 25 for one dialect and size. Seeds (or reuses) a workspace,
 * then runs quire export, import (into a new installation), backup, restore and migrate-to (SQLite only)
 * as the operator would, each its own process, and reports its time, posts per second and peak RSS.
 * Like `npm run bench`, it needs an idle machine: the figures are wall-clock time.
 */

const USAGE = `npm run bench:operate -- [--db sqlite|postgres] [--posts N] [--keep] [--data-dir DIR]

  --db        the dialect of the seeded installation (default sqlite); postgres databases are created and
              dropped on QUIRE_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
  --posts N   posts to seed (default 10000)
  --keep      keep the seeded data dir for a later --data-dir
  --data-dir  reuse a data dir kept by npm run bench -- --keep or by --keep here
`;

interface Step {
  step: string;
  seconds: number;
  postsPerSecond: number | null;
  peakRssMb: number | null;
  /** The archive a step wrote, in MB. */
  fileMb: number | null;
  otherCpuPercent: number | null;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

async function step(name: string, args: string[], env: Env, posts: number | null, file: string | null): Promise<Step> {
  log(`${name}: quire ${args.join(' ')}`);
  const { usage } = await measured(args, env);
  return {
    step: name,
    seconds: Math.round(usage.seconds * 100) / 100,
    postsPerSecond: posts === null ? null : Math.round(posts / usage.seconds),
    peakRssMb: usage.peakRssMb,
    fileMb: file === null ? null : mb(fs.statSync(file).size),
    otherCpuPercent: usage.otherCpuPercent,
  };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      posts: { type: 'string' },
      keep: { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return void process.stdout.write(USAGE);
  const db = values.db ?? 'sqlite';
  if (db !== 'sqlite' && db !== 'postgres') throw new Error(`--db must be sqlite or postgres, got ${db}`);
  const posts = Number(values.posts ?? 10_000);
  if (!Number.isInteger(posts) || posts < 20) throw new Error('--posts must be a whole number of at least 20');
  await ensureBuilt(log);
  const flags = { db, posts, keep: values.keep ?? false, dataDir: values['data-dir'] ?? null } as BenchFlags;
  const prepared = await prepareDataset(flags, log);
  const { dataset } = prepared;
  const env = datasetEnv(dataset);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-operate-'));
  const databases: string[] = [];
  const steps: Step[] = [];
  const load = loadAverage();
  try {
    const archive = path.join(root, 'workspace.quire.tgz');
    steps.push(
      await step(
        'export',
        ['export', '--workspace', dataset.workspaceId, '--out', archive],
        env,
        dataset.posts,
        archive,
      ),
    );
    const target = await emptyInstallation(path.join(root, 'import-target'), dataset.dialect);
    if (target.databaseUrl) databases.push(target.databaseUrl);
    steps.push(
      await step('import', ['import', archive, '--owner', 'bench@example.com'], target.env, dataset.posts, null),
    );
    const backup = path.join(root, 'quire.backup.tgz');
    steps.push(await step('backup', ['backup', '--out', backup], env, null, backup));
    if (dataset.dialect === 'sqlite') {
      const restored = datasetEnv({ dataDir: path.join(root, 'restored'), databaseUrl: null });
      steps.push(await step('restore', ['restore', backup], restored, null, null));
      const moveTo = await createDatabase();
      databases.push(moveTo);
      steps.push(await step('migrate-to', ['migrate-to', '--database-url', moveTo], env, dataset.posts, null));
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    for (const url of databases) await dropDatabase(url).catch(() => undefined);
    await prepared.dispose();
  }

  const header = ['step', 'seconds', 'posts/s', 'peak RSS MB', 'file MB', 'other CPU %'];
  const rows = steps.map((s) => [
    s.step,
    s.seconds,
    s.postsPerSecond ?? '',
    s.peakRssMb ?? '',
    s.fileMb ?? '',
    s.otherCpuPercent ?? '',
  ]);
  process.stdout.write(`${[header, ...rows].map((row) => row.map(String).join('\t')).join('\n')}\n`);
  const results = {
    kind: 'operate',
    date: new Date().toISOString(),
    dialect: dataset.dialect,
    posts: dataset.posts,
    machine: machineInfo(),
    loadAverageBefore: load,
    steps,
  };
  const file = path.join(
    ROOT,
    'bench',
    'results',
    `${results.date.slice(0, 10)}-operate-${dataset.dialect}-${dataset.posts}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`results: ${path.relative(ROOT, file)}`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench:operate: ${error.message}\n`);
  process.exit(1);
});
