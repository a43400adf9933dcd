import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The VCL the docs ship (docs/cdn/varnish.vcl), its backend pointed at the server under test. */
const VCL = path.join(ROOT, 'docs/cdn/varnish.vcl');

export interface Varnish {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real Varnish (Debian's varnishd with varnish-modules' xkey) in front of a Quire server on `backendPort`, on
 * loopback, in a working directory of its own; `.ci/run` installs it. As root it runs without its jail.
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
      if (answer.ok) return { url, stop };
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
