import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

// Compiled to dist/bench as well as run from source: the repository is the nearest folder holding docs/cdn.
const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'docs', 'cdn'))) {
    if (dir === path.dirname(dir)) throw new Error('docs/cdn/varnish.vcl not found above this file');
    dir = path.dirname(dir);
  }
  return dir;
})();
/** The VCL the docs ship (docs/cdn/varnish.vcl), its backend pointed at the server under test. */
const VCL = path.join(ROOT, 'docs/cdn/varnish.vcl');

export interface Varnish {
  url: string;
  /** Varnish's counters (varnishstat), such as MAIN.backend_req, MAIN.cache_hit, MAIN.cache_miss. */
  counters(...names: string[]): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * A real Varnish (Debian's varnishd with varnish-modules' xkey) in front of a Quire server on `backendPort`, on
 * loopback, in a working directory of its own; `.ci/run` installs it. As root it runs without its jail. The CDN
 * suite (test/e2e/cdn-varnish.test.ts) and the CDN benchmark (bench/cdn.ts) both start it here.
 */
export async function startVarnish(backendPort: number, listenPort: number): Promise<Varnish> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-varnish-'));
  const vcl = fs.readFileSync(VCL, 'utf8').replace(/\.port = "\d+";/, `.port = "${backendPort}";`);
  fs.writeFileSync(path.join(dir, 'default.vcl'), vcl);
  const args = ['-F', '-n', path.join(dir, 'work'), '-a', `127.0.0.1:${listenPort}`, '-T', 'none'];
  args.push('-f', path.join(dir, 'default.vcl'), '-s', 'malloc,32m');
  if (process.getuid?.() === 0) args.push('-j', 'none');
  const child: ChildProcess = spawn('varnishd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${listenPort}`;
  const work = path.join(dir, 'work');
  const counters = async (...names: string[]) => {
    const args = ['-n', work, '-1', '-j', ...names.flatMap((name) => ['-f', name])];
    const { stdout } = await promisify(execFile)('varnishstat', args);
    const parsed = JSON.parse(stdout) as { counters?: Record<string, { value: number }> } & Record<string, unknown>;
    // varnishstat 7 nests the counters; older ones put them at the top.
    const all = (parsed.counters ?? parsed) as Record<string, { value?: number }>;
    return Object.fromEntries(names.map((name) => [name, Number(all[name]?.value ?? 0)]));
  };
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const answer = await fetch(url, {
        method: 'PURGE',
        headers: { 'xkey-purge': 'none' },
        signal: AbortSignal.timeout(1_000),
      });
      await answer.arrayBuffer();
      if (answer.ok) return { url, counters, stop };
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not start: ${output.trim()}`);
    }
    await sleep(100);
  }
}
