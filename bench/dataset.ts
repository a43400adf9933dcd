import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNeeded } from '#build-needed';
import pg from 'pg';
import type { BenchFlags, Dialect } from './flags.js';
import { ROOT, baseEnv, quire, run, type Env } from './processes.js';

/** What a seeded data dir holds, saved beside it as bench.json so `--data-dir` can reuse it. */
export interface Dataset {
  dialect: Dialect;
  dataDir: string;
  /** The PostgreSQL database of this data dir; null on SQLite. */
  databaseUrl: string | null;
  workspaceId: string;
  /** The owner's key: every permission. */
  key: string;
  /** A key of the same owner, revoked: the 401 scenario's key, which costs the server a database lookup. */
  revokedKey: string;
  posts: number;
  seedSeconds: number;
}

const MANIFEST = 'bench.json';
const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The environment every `quire` command and server of this dataset runs with. */
export function datasetEnv(dataset: Pick<Dataset, 'dataDir' | 'databaseUrl'>): Env {
  return baseEnv({
    QUIRE_DATA_DIR: dataset.dataDir,
    LOG_LEVEL: 'warn',
    ...(dataset.databaseUrl ? { DATABASE_URL: dataset.databaseUrl } : {}),
  });
}

/**
 * Builds `ROOT` when its compiled server is missing or older than src/: the results name the checked-out
 * commit, so they must measure its code, not a build of an edit since undone.
 */
export async function ensureBuilt(log: (line: string) => void): Promise<void> {
  const need = buildNeeded(ROOT, 'server');
  if (need === null) return;
  log(need === 'missing' ? 'dist/ is missing: npm run build' : 'src/ has changed since dist/ was built: npm run build');
  await run('npm', ['run', 'build'], baseEnv({}), { timeoutMs: 600_000 });
}

function adminUrl(): string {
  return process.env.QUIRE_BENCH_DATABASE_URL?.trim() || DEFAULT_ADMIN_URL;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty benchmark database on QUIRE_BENCH_DATABASE_URL's server. */
export async function createDatabase(): Promise<string> {
  const name = `quire_bench_${crypto.randomBytes(5).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^quire_bench_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop ${name}: not a benchmark database`);
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** The PostgreSQL backends connected to the dataset's database (the server's pool, once warm). */
export async function databaseBackendPids(dataset: Pick<Dataset, 'databaseUrl'>): Promise<number[]> {
  if (!dataset.databaseUrl) return [];
  const name = new URL(dataset.databaseUrl).pathname.slice(1);
  const result = await withAdmin((client) =>
    client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]),
  );
  return result.rows.map((row) => row.pid);
}

function readManifest(dataDir: string): Dataset {
  const file = path.join(dataDir, MANIFEST);
  if (!fs.existsSync(file))
    throw new Error(`${dataDir} has no ${MANIFEST}: pass a data dir kept by an earlier run with --keep`);
  // The dir as given, not as recorded: a copy of a kept dir (one per server of an A/B) is itself.
  return { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Dataset), dataDir };
}

/** A seeded dataset and how to dispose of it. */
export interface PreparedDataset {
  dataset: Dataset;
  reused: boolean;
  /** Removes the data dir and drops the database, unless kept or reused. */
  dispose(): Promise<void>;
}

export async function prepareDataset(flags: BenchFlags, log: (line: string) => void): Promise<PreparedDataset> {
  if (flags.dataDir !== null) {
    const dataset = readManifest(path.resolve(flags.dataDir));
    if (dataset.dialect !== flags.db)
      throw new Error(`${flags.dataDir} holds a ${dataset.dialect} dataset; run with --db ${dataset.dialect}`);
    log(`reusing ${dataset.dataDir}: ${dataset.posts} posts on ${dataset.dialect}`);
    return { dataset, reused: true, dispose: async () => undefined };
  }

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const dataDir = path.join(root, 'data');
  let databaseUrl: string | null = null;
  const dispose = async () => {
    if (flags.keep) {
      log(
        `kept ${dataDir}${databaseUrl ? ` and its database ${new URL(databaseUrl).pathname.slice(1)}` : ''}: rerun with --data-dir ${dataDir}`,
      );
      return;
    }
    fs.rmSync(root, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl);
  };
  try {
    if (flags.db === 'postgres') databaseUrl = await createDatabase();
    const env = datasetEnv({ dataDir, databaseUrl });
    const email = 'bench@example.com';
    await quire(
      ['user', 'create', '--email', email, `--password=${crypto.randomBytes(18).toString('base64url')}`],
      env,
    );
    const workspace = await quire<{ id: string }>(['workspace', 'create', '--name', 'Bench', '--owner', email], env);
    const owner = await quire<{ key: string }>(
      ['key', 'create', '--workspace', workspace.id, '--email', email, '--name', 'bench'],
      env,
    );
    const revoked = await quire<{ id: string; key: string }>(
      ['key', 'create', '--workspace', workspace.id, '--email', email, '--name', 'revoked'],
      env,
    );
    await quire(['key', 'revoke', '--workspace', workspace.id, '--id', revoked.id], env);
    log(`seeding ${flags.posts} posts on ${flags.db} in ${dataDir}`);
    const started = performance.now();
    await quire(
      ['seed', '--workspace', workspace.id, '--posts', String(flags.posts)],
      env,
      120_000 + flags.posts * 120,
    );
    const dataset: Dataset = {
      dialect: flags.db,
      dataDir,
      databaseUrl,
      workspaceId: workspace.id,
      key: owner.key,
      revokedKey: revoked.key,
      posts: flags.posts,
      seedSeconds: Math.round(performance.now() - started) / 1000,
    };
    fs.writeFileSync(path.join(dataDir, MANIFEST), `${JSON.stringify(dataset, null, 2)}\n`, { mode: 0o600 });
    return { dataset, reused: false, dispose };
  } catch (error) {
    // Nothing half-seeded is worth keeping.
    fs.rmSync(root, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl).catch(() => undefined);
    throw error;
  }
}
