import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { datasetEnv, ensureBuilt } from './dataset.js';
import { BIN, binNodeFlags, freePort, launch, quire, ROOT, waitFor } from './processes.js';
import { loadAverage, machineInfo, UsageWindow } from './proc-stats.js';
import { EXTERNAL } from './quire-server.js';

/*
 * `npm run bench:images`: what responsive images cost the server (issue 24). On a fresh SQLite data dir it
 * starts the server as production runs it and uploads 4,000×3,000 JPEG photos (noise, so they compress like
 * photos), then measures:
 *   - the server's CPU time to make a 960-px WebP and AVIF on their first request (read, decode, encode, store);
 *   - requests per second for a derivative already made, against a bare node:http server sending the same bytes
 *     and headers (the ceiling), each with autocannon for `--seconds`;
 *   - the server's peak RSS while 8 different derivatives of 8 photos are asked for at once.
 * Results go to bench/results/<date>-images.json.
 */

const SECONDS = Number(process.argv.find((arg) => arg.startsWith('--seconds='))?.split('=')[1] ?? 10);
const CONNECTIONS = 10;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function photo(seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: { r: 40 * seed, g: 120, b: 200 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function upload(base: string, key: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), name);
  const response = await fetch(`${base}${EXTERNAL}/media`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    srcset: Record<'avif' | 'webp' | 'original', Array<{ width: number; url: string }>>;
  };
}

const pathOf = (url: string) => new URL(url).pathname;

function hammer(url: string) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function main() {
  await ensureBuilt(log);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-images-'));
  const env = datasetEnv({ dataDir: path.join(root, 'data'), databaseUrl: null });
  const email = 'bench@example.com';
  await quire(['user', 'create', '--email', email, `--password=${crypto.randomBytes(18).toString('base64url')}`], env);
  const workspace = await quire<{ id: string }>(['workspace', 'create', '--name', 'Bench', '--owner', email], env);
  const { key } = await quire<{ key: string }>(
    ['key', 'create', '--workspace', workspace.id, '--email', email, '--name', 'bench'],
    env,
  );
  const port = await freePort();
  const server = launch(
    [...binNodeFlags(), BIN, 'serve'],
    {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      QUIRE_RATE_LIMIT_MAX: '1000000000',
      QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    port,
  );
  const ceilingPort = await freePort();
  let ceiling: ReturnType<typeof launch> | null = null;
  try {
    await waitFor(`${server.url}/healthz`, {}, performance.now(), 30_000, server);
    const photos = await Promise.all(Array.from({ length: 12 }, (_, i) => photo(i % 6)));
    log(`photo: 4000×3000 JPEG, ${Math.round(photos[0]!.length / 1024)} KiB`);
    const media = [];
    for (const [i, bytes] of photos.entries()) media.push(await upload(server.url, key, bytes, `photo-${i}.jpg`));

    // CPU of a first request: two photos per format, each its own (no derivative made before).
    const cpu: Record<string, number[]> = { webp: [], avif: [] };
    for (const [i, format] of (['webp', 'avif', 'webp', 'avif'] as const).entries()) {
      const url = media[i]!.srcset[format].find((entry) => entry.width === 960)!.url;
      const window = new UsageWindow(server.pid);
      const response = await fetch(`${server.url}${pathOf(url)}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      cpu[format]!.push(Math.round((window.end().cpuSeconds ?? NaN) * 1000));
    }
    log(`CPU ms for a 960-px derivative on first request: WebP ${cpu.webp!.join(', ')}; AVIF ${cpu.avif!.join(', ')}`);

    // Peak RSS while 8 different derivatives (8 photos, one each) are made at once.
    const idle = new UsageWindow(server.pid).end().peakRssMb;
    const asked = media.slice(4, 12).map((item, i) => item.srcset[i % 2 ? 'avif' : 'webp'][[3, 4, 5, 6][i % 4]!]!.url);
    const burst = new UsageWindow(server.pid);
    const started = performance.now();
    const statuses = await Promise.all(asked.map(async (url) => (await fetch(`${server.url}${pathOf(url)}`)).status));
    const burstMs = Math.round(performance.now() - started);
    const usage = burst.end();
    log(
      `8 derivatives at once: ${statuses.join(' ')} in ${burstMs} ms; RSS ${idle} MB before, peak ${usage.peakRssMb} MB`,
    );

    // An already made derivative, against the bare-Node ceiling with the same bytes and headers.
    const made = pathOf(media[0]!.srcset.webp.find((entry) => entry.width === 960)!.url);
    const sample = await fetch(`${server.url}${made}`);
    const body = Buffer.from(await sample.arrayBuffer());
    const headers = [...sample.headers.entries()].filter(
      ([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name),
    );
    const routes = path.join(root, 'routes.json');
    fs.writeFileSync(
      routes,
      JSON.stringify([
        {
          method: 'GET',
          path: made,
          apiKey: null,
          responses: [{ status: 200, headers, bodyBase64: body.toString('base64') }],
        },
      ]),
    );
    ceiling = launch([path.join(ROOT, 'dist/bench/ceiling.js'), routes, String(ceilingPort)], env, ceilingPort);
    await waitFor(`${ceiling.url}/-/ready`, {}, performance.now(), 10_000, ceiling);
    await hammer(`${server.url}${made}`); // warm-up
    const quireRun = await hammer(`${server.url}${made}`);
    const ceilingRun = await hammer(`${ceiling.url}${made}`);
    const share = Math.round((quireRun.requests.average / ceilingRun.requests.average) * 100);
    log(
      `derivative already made (${body.length} B): Quire ${quireRun.requests.average} req/s, ceiling ${ceilingRun.requests.average} req/s: ${share} %`,
    );

    const results = {
      date: new Date().toISOString(),
      machine: machineInfo(),
      loadAverage: loadAverage(),
      photoBytes: photos[0]!.length,
      cpuMsFirst960: cpu,
      burst: { statuses, ms: burstMs, rssBeforeMb: idle, peakRssMb: usage.peakRssMb, hwmMb: usage.hwmMb },
      madeDerivative: {
        bytes: body.length,
        seconds: SECONDS,
        connections: CONNECTIONS,
        quire: {
          rps: quireRun.requests.average,
          p50: quireRun.latency.p50,
          p99: quireRun.latency.p99,
          non2xx: quireRun.non2xx,
        },
        ceiling: { rps: ceilingRun.requests.average, p50: ceilingRun.latency.p50, p99: ceilingRun.latency.p99 },
        sharePercent: share,
      },
    };
    const file = path.join(ROOT, 'bench/results', `${results.date.slice(0, 10)}-images.json`);
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, file)}`);
  } finally {
    await ceiling?.stop();
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
