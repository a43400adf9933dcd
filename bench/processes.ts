import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file whether it runs compiled (dist/bench) or not (bench). */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'bin', 'quire.js'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the repository root (bin/quire.js) above the benchmark');
    dir = parent;
  }
  return dir;
})();
export const BIN = path.join(ROOT, 'bin', 'quire.js');

/**
 * bin/quire.js's `#!/usr/bin/env -S [NAME=VALUE …] node [flag …]` line: the environment and node flags every
 * quire process runs with, `npm start` and `npx quire` included, so the benchmark's processes get them too.
 * `bin` names another checkout's bin/quire.js, which runs with its own line.
 */
export function binLine(bin = BIN): { env: Record<string, string>; flags: string[] } {
  const first = fs.readFileSync(bin, 'utf8').split('\n', 1)[0] ?? '';
  const match = /^#!\/usr\/bin\/env -S((?: [A-Z_]+=\S*)*) node((?: \S+)*)\s*$/.exec(first);
  if (!match) throw new Error(`${bin}'s first line is not #!/usr/bin/env -S [NAME=VALUE …] node …: ${first}`);
  const words = (text: string | undefined) => (text ?? '').trim().split(/\s+/).filter(Boolean);
  const env = Object.fromEntries(
    words(match[1]).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  );
  return { env, flags: words(match[2]) };
}

/** The node flags on bin/quire.js's first line. */
export function binNodeFlags(): string[] {
  return binLine().flags;
}

export type Env = Record<string, string>;

/**
 * Only what Node needs, and what bin/quire.js's first line sets: a DATABASE_URL or PORT exported in the shell
 * must not change what is measured.
 */
export function baseEnv(extra: Env): Env {
  return { ...binLine().env, ...shellEnv(), ...extra };
}

/** Only what Node needs from the shell the benchmark runs in. */
export function shellEnv(): Env {
  const env: Env = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Runs a command to completion within `timeoutMs`; rejects with its stderr when it fails. */
export function run(file: string, args: string[], env: Env, { timeoutMs = 120_000, stdin = '' } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { cwd: ROOT, env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${path.basename(file)} ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin);
  });
}

/** `quire …  --json` with the benchmark's environment; its one JSON document. */
export async function quire<T>(args: string[], env: Env, timeoutMs?: number): Promise<T> {
  const stdout = await run(
    process.execPath,
    [BIN, ...args, '--json'],
    baseEnv(env),
    timeoutMs === undefined ? {} : { timeoutMs },
  );
  return JSON.parse(stdout) as T;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A child process of the benchmark: the Quire server or the ceiling. */
export interface Child {
  pid: number;
  url: string;
  child: ChildProcess;
  /** The last 200,000 characters it wrote to stdout and stderr. */
  output(): string;
  exited: Promise<void>;
  stop(): Promise<void>;
}

const OUTPUT_KEPT = 200_000;

const children = new Set<ChildProcess>();
// An interrupted benchmark must not leave servers behind holding ports and database connections.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  });
}

/** `node args…` as a child of the benchmark; `wrapper` runs node under another program (valgrind). */
export function launch(args: string[], env: Env, port: number, wrapper: string[] = []): Child {
  const [file, ...rest] = [...wrapper, process.execPath, ...args];
  const child = spawn(file!, rest, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  // Chunks, joined only when asked for: re-cutting one string on every chunk would copy the whole tail each time,
  // in the process that is also the load generator.
  const chunks: string[] = [];
  let kept = 0;
  const keep = (chunk: string) => {
    chunks.push(chunk);
    kept += chunk.length;
    while (kept - chunks[0]!.length >= OUTPUT_KEPT) kept -= chunks.shift()!.length;
  };
  child.stdout!.setEncoding('utf8').on('data', keep);
  child.stderr!.setEncoding('utf8').on('data', keep);
  // 'close', not 'exit': by then its stdout and stderr have been read to the end (pino flushes at exit).
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void exited.then(() => children.delete(child));
  let gone = false;
  void exited.then(() => (gone = true));
  return {
    pid: child.pid!,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => chunks.join('').slice(-OUTPUT_KEPT),
    exited,
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(12_000).then(() => false)]);
      if (!done) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Polls `url` until it answers `status`, within `timeoutMs`; the time from `since` to that answer, in ms. */
export async function waitFor(
  url: string,
  init: RequestInit,
  since: number,
  timeoutMs: number,
  server?: Child,
): Promise<number> {
  const deadline = since + timeoutMs;
  let exited = false;
  void server?.exited.then(() => (exited = true));
  while (performance.now() < deadline && !exited) {
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  throw new Error(
    `${url} did not answer 200 within ${timeoutMs} ms${server ? `; output: ${server.output().trim().slice(-2_000)}` : ''}`,
  );
}

/**
 * `bin serve` as its first line runs it (the node flags and environment of bin/quire.js's `#!` line), with `env`
 * on a free loopback port and a rate limit too high to trip; resolves once /healthz answers 200.
 */
export async function serveBin(bin: string, env: Env, timeoutMs = 60_000): Promise<Child> {
  const line = binLine(bin);
  const port = await freePort();
  const child = launch(
    [...line.flags, bin, 'serve'],
    { ...env, ...line.env, HOST: '127.0.0.1', PORT: String(port), QUIRE_RATE_LIMIT_MAX: '1000000000' },
    port,
  );
  try {
    await waitFor(`${child.url}/healthz`, {}, performance.now(), timeoutMs, child);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return child;
}
