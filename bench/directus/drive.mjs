// Issue 26's side-by-side: Directus uncached, on the rows of a Quire benchmark data dir, driven as
// `npm run bench` drives Quire (autocannon, 32 connections, 2 s of warm-up, then the server's CPU from /proc per
// answer). Directus is not a dependency of Quire: install it beside the checkout first (docs/performance.md,
// "Side by side with Directus"). Run from the repository root:
//   node bench/directus/drive.mjs bootstrap
//   SLUG=<a post's slug> RARE=<a rare phrase> node bench/directus/drive.mjs
// Environment: DIRECTUS_DIR (where directus is installed, default ../directus), DURATION (s, default 10),
// ONLY (scenario names, comma-separated), SEQ=N (N requests one at a time instead of the load), OUT (results file).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';

const DIRECTUS_DIR = path.resolve(process.env.DIRECTUS_DIR ?? '../directus');
const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = 2;
const CONNECTIONS = 32;
const PORT = 8055;
const env = {
  ...process.env,
  DB_CLIENT: 'sqlite3',
  DB_FILENAME: path.join(DIRECTUS_DIR, 'data.db'),
  KEY: 'k'.repeat(32),
  SECRET: 's'.repeat(32),
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'password1234',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  CACHE_ENABLED: 'false',
  RATE_LIMITER_ENABLED: 'false',
  TELEMETRY: 'false',
  ACCESS_TOKEN_TTL: '1d',
  WEBSOCKETS_ENABLED: 'false',
};
const cli = path.join(DIRECTUS_DIR, 'node_modules/directus/cli.js');
const log = (line) => process.stdout.write(`${line}\n`);

if (process.argv[2] === 'bootstrap') {
  const bootstrap = spawn(process.execPath, [cli, 'bootstrap'], { env, stdio: 'inherit', cwd: DIRECTUS_DIR });
  await new Promise((resolve) => bootstrap.on('exit', resolve));
  process.exit(0);
}

const child = spawn(process.execPath, [cli, 'start'], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
  cwd: DIRECTUS_DIR,
});
const base = `http://127.0.0.1:${PORT}`;
for (let tries = 0; ; tries += 1) {
  try {
    if ((await fetch(`${base}/server/ping`)).ok) break;
  } catch {
    // Not listening yet.
  }
  if (tries > 600) throw new Error('Directus did not start within a minute');
  await sleep(100);
}
const login = await fetch(`${base}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
});
const headers = { authorization: `Bearer ${(await login.json()).data.access_token}` };

// Quire's five uncached scenarios; Directus counts the matches only when asked (meta=filter_count), as Quire does.
const scenarios = {
  'newest-published': '/items/posts?filter[status][_eq]=published&sort=-published_at&limit=10&meta=filter_count',
  'list-default': '/items/posts?sort=-created_at&limit=10&meta=filter_count',
  'post-by-slug': `/items/posts?filter[slug][_eq]=${encodeURIComponent(process.env.SLUG ?? '')}&limit=1`,
  'search-common': `/items/posts?search=${encodeURIComponent(process.env.COMMON ?? 'time')}&sort=-created_at&limit=10&meta=filter_count`,
  'search-rare': `/items/posts?search=${encodeURIComponent(process.env.RARE ?? '')}&sort=-created_at&limit=10&meta=filter_count`,
};

function cpuSeconds() {
  const text = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const load = (url, duration) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration, headers, timeout: 30 }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

const results = {};
for (const [name, pathname] of Object.entries(scenarios)) {
  if (process.env.ONLY && !process.env.ONLY.split(',').includes(name)) continue;
  const url = base + pathname;
  if (process.env.SEQ) {
    const n = Number(process.env.SEQ);
    const [cpu0, wall0] = [cpuSeconds(), performance.now()];
    let total;
    for (let i = 0; i < n; i += 1) total = (await (await fetch(url, { headers })).json()).meta?.filter_count;
    const cpuMsPerAnswer = ((cpuSeconds() - cpu0) * 1000) / n;
    results[name] = {
      total,
      answers: n,
      sequential: true,
      wallMsPerAnswer: (performance.now() - wall0) / n,
      cpuMsPerAnswer,
    };
  } else {
    const first = await (await fetch(url, { headers })).json();
    await load(url, WARMUP);
    const cpu0 = cpuSeconds();
    const run = await load(url, DURATION);
    const answers = run['2xx'];
    results[name] = {
      total: first.meta?.filter_count ?? first.data?.length,
      answers,
      errors: run.errors,
      timeouts: run.timeouts,
      reqPerSec: run.requests.average,
      p99: run.latency.p99,
      cpuMsPerAnswer: answers ? ((cpuSeconds() - cpu0) * 1000) / answers : null,
    };
  }
  log(`${name.padEnd(18)} ${JSON.stringify(results[name])}`);
}
const out = process.env.OUT ?? `bench/results/${new Date().toISOString().slice(0, 10)}-directus.json`;
fs.writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), directus: '11.3.5', scenarios, results }, null, 2)}\n`,
);
log(`results: ${out}`);
child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
