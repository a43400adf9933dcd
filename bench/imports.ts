import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { dropDatabase, ensureBuilt } from './dataset.js';
import { writeGhostExport } from './fixtures/ghost-export.js';
import { writeWxr } from './fixtures/wxr.js';
import { emptyInstallation, measured } from './measured-command.js';
import { ROOT, quire, type Env } from './processes.js';
import { loadAverage, machineInfo } from './proc-stats.js';

/*
 * `npm run bench:imports`: the figures of the importers (docs/imports.md). Writes a generated WordPress export (with
 * an uploads folder of its featured images) and a Ghost export (whose images are on its site, which is not
 * reachable from here: they are reported, as a site that is down would make them) of --posts posts, then imports
 * each into a new empty installation as its own process, and once more (the re-run, which finds everything
 * unchanged), reporting seconds, posts per second and peak RSS. Wall-clock figures: run it on an idle machine.
 */

const USAGE = `npm run bench:imports -- [--db sqlite|postgres] [--posts N] [--formats wordpress,ghost]

  --db        the dialect of the installation imported into (default sqlite); postgres databases are created and
              dropped on QUIRE_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
  --posts N   posts in each generated export (default 10000)
  --formats   which exports (default wordpress,ghost)
`;

const FORMATS = ['wordpress', 'ghost'] as const;
type Format = (typeof FORMATS)[number];

interface Step {
  step: string;
  seconds: number;
  postsPerSecond: number;
  peakRssMb: number | null;
  fileMb: number;
  counts: unknown;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Small JPEGs, each of its own colour (equal bytes would be uploaded once): a site's uploads folder. */
async function writeImages(root: string, files: readonly string[]): Promise<void> {
  for (const [index, file] of files.entries()) {
    const target = path.join(root, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const background = { r: index % 256, g: Math.floor(index / 256) % 256, b: 128 };
    await sharp({ create: { width: 64, height: 48, channels: 3, background } })
      .jpeg()
      .toFile(target);
  }
}

/** A new installation with one user and one workspace: where an import goes. */
async function importTarget(
  root: string,
  db: 'sqlite' | 'postgres',
): Promise<{ env: Env; databaseUrl: string | null; workspace: string }> {
  const target = await emptyInstallation(path.join(root, `target-${crypto.randomBytes(4).toString('hex')}`), db);
  const workspace = await quire<{ slug: string }>(
    ['workspace', 'create', '--name', 'Imported', '--owner', 'bench@example.com'],
    target.env,
  );
  return { ...target, workspace: workspace.slug };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      posts: { type: 'string' },
      formats: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return void process.stdout.write(USAGE);
  const db = values.db ?? 'sqlite';
  if (db !== 'sqlite' && db !== 'postgres') throw new Error(`--db must be sqlite or postgres, got ${db}`);
  const posts = Number(values.posts ?? 10_000);
  if (!Number.isInteger(posts) || posts < 1) throw new Error('--posts must be a whole number of at least 1');
  const formats = (values.formats ?? FORMATS.join(',')).split(',') as Format[];
  for (const format of formats) if (!FORMATS.includes(format)) throw new Error(`unknown format ${format}`);
  await ensureBuilt(log);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-imports-'));
  const databases: string[] = [];
  const steps: Step[] = [];
  const load = loadAverage();
  try {
    for (const format of formats) {
      const file = path.join(root, format === 'wordpress' ? 'export.xml' : 'export.json');
      log(`writing a ${format} export of ${posts} posts`);
      const extra: string[] = [];
      if (format === 'wordpress') {
        const { files } = await writeWxr(file, posts);
        const uploads = path.join(root, 'uploads');
        log(`writing ${files.length} images into an uploads folder`);
        await writeImages(uploads, files);
        extra.push('--uploads', uploads);
      } else await writeGhostExport(file, posts);
      const target = await importTarget(root, db);
      if (target.databaseUrl) databases.push(target.databaseUrl);
      for (const run of ['first run', 're-run']) {
        log(`${format} ${run}: quire import ${format} ${file}`);
        const { result, usage } = await measured(
          ['import', format, file, '--workspace', target.workspace, ...extra],
          target.env,
        );
        steps.push({
          step: `${format} ${run}`,
          seconds: Math.round(usage.seconds * 100) / 100,
          postsPerSecond: Math.round(posts / usage.seconds),
          peakRssMb: usage.peakRssMb,
          fileMb: mb(fs.statSync(file).size),
          counts: (result as { counts: unknown }).counts,
        });
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    for (const url of databases) await dropDatabase(url).catch(() => undefined);
  }
  const header = ['step', 'seconds', 'posts/s', 'peak RSS MB', 'file MB'];
  const rows = steps.map((s) => [s.step, s.seconds, s.postsPerSecond, s.peakRssMb ?? '', s.fileMb]);
  process.stdout.write(`${[header, ...rows].map((row) => row.map(String).join('\t')).join('\n')}\n`);
  const results = {
    kind: 'imports',
    date: new Date().toISOString(),
    dialect: db,
    posts,
    machine: machineInfo(),
    loadAverageBefore: load,
    steps,
  };
  const out = path.join(ROOT, 'bench', 'results', `${results.date.slice(0, 10)}-imports-${db}-${posts}.json`);
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`results: ${path.relative(ROOT, out)}`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench:imports: ${error.message}\n`);
  process.exit(1);
});
