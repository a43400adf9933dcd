import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root: the compiled CLI is `bin/quire.js` there, and it resolves `dist/` from it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'quire.js');

export const EXTERNAL = '/api/v1/external';

const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 12_000; // the server forces its own exit after 10 s of closing
const CLI_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 5_000;

export type Env = Record<string, string>;

/**
 * Scrypt's cheapest cost allowed for the passwords the tests make: at the production cost each hash is a tenth
 * of a second of CPU and 128 MiB, which over a run's sign-ins is minutes. The production cost has tests of its
 * own (src/security/password.test.ts); a test that sets QUIRE_PASSWORD_COST itself keeps its own.
 */
export const TEST_PASSWORD_COST = '10';

/**
 * The environment a child starts from: only what Node and npm need to run, and the test password cost.
 * Nothing of the developer's shell leaks in (a DATABASE_URL or PORT exported there would silently change
 * what a test exercises).
 */
export function baseEnv(extra: Env = {}): Env {
  const env: Env = { QUIRE_PASSWORD_COST: TEST_PASSWORD_COST };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'SYSTEMROOT']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/** A fresh temp directory; `data` inside it does not exist yet, so a first start has to create it. */
export function tempDir(prefix = 'quire-e2e-'): { root: string; dataDir: string; remove(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { root, dataDir: path.join(root, 'data'), remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export interface CliResult {
  /** The exit code, or null when the process was killed (the timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/quire.js …` with exactly `env`; stdin is closed at once unless given, so nothing waits on it. */
export function cli(args: string[], env: Env, stdin?: string, { timeoutMs = CLI_TIMEOUT_MS } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: ROOT,
        env: baseEnv(env),
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 4 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    // A command that fails before reading stdin closes the pipe; the EPIPE that follows is not the test's concern.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin ?? '');
  });
}

/** `cli` for a command expected to succeed with --json: its one JSON document, or an error carrying stderr. */
export async function cliJson<T = Record<string, unknown>>(args: string[], env: Env, stdin?: string): Promise<T> {
  const result = await cli([...args, '--json'], env, stdin);
  if (result.code !== 0) throw new Error(`quire ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}`);
  return JSON.parse(result.stdout) as T;
}

/** A port the kernel just handed out on loopback; the caller retries if another process grabs it first. */
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

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  url: string;
  port: number;
  env: Env;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited, however it ended. */
  exited: Promise<Exit>;
  /** SIGTERM, then the exit within a bound (SIGKILL and a rejection past it). */
  stop(): Promise<Exit>;
  /** A fetch to this server, bounded in time. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
}

const running = new Set<ChildProcess>();
// A worker that dies mid-suite must not leave servers holding ports and database connections.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The server's environment, or a function of the port it is given (a QUIRE_PUBLIC_URL that names the port). */
export type ServerEnv = Env | ((port: number) => Env);

function launch(env: ServerEnv, port: number, asFile: boolean): ServerProcess {
  const given = typeof env === 'function' ? env(port) : env;
  const fullEnv = baseEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'info', ...given, PORT: String(port) });
  // As a file, bin/quire.js's first line starts node, with its settings, as `npm start` and `npx quire` do.
  const [file, args] = asFile ? [BIN, ['serve']] : [process.execPath, [BIN, 'serve']];
  const child = spawn(file, args, { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  let exit: Exit | null = null;
  void exited.then((value) => (exit = value));

  return {
    url,
    port,
    env: fullEnv,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    fetch: (pathname, init = {}) =>
      fetch(`${url}${pathname}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    async stop() {
      if (exit) return exit;
      child.kill('SIGTERM');
      const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => null)]);
      if (result) return result;
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the server did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM; stderr: ${stderr.trim()}`);
    },
  };
}

/**
 * Starts `quire serve` on a free loopback port and resolves once GET /healthz answers 200. A port
 * taken between the probe and the listen (EADDRINUSE) is retried on another one, a few times. `node
 * bin/quire.js` unless `asFile`, which runs the file itself. `launched` is handed each process as it
 * starts, for a test that must watch what it prints before it answers.
 */
export async function startServer(
  env: ServerEnv,
  { asFile = false, launched }: { asFile?: boolean; launched?: (server: ServerProcess) => void } = {},
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt += 1) {
    const server = launch(env, await freePort(), asFile);
    launched?.(server);
    const deadline = Date.now() + START_TIMEOUT_MS;
    let exit: Exit | null = null;
    void server.exited.then((value) => (exit = value));
    while (!exit && Date.now() < deadline) {
      try {
        const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
        if (response.status === 200) return server;
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
    if (exit === null) {
      await server.stop().catch(() => undefined);
      throw new Error(
        `quire serve did not answer /healthz within ${START_TIMEOUT_MS} ms; stderr: ${server.stderr().trim()}`,
      );
    }
    const failure = `${server.stderr()}${server.stdout()}`;
    if (failure.includes('EADDRINUSE') && attempt < 3) continue;
    throw new Error(`quire serve exited (${JSON.stringify(exit)}) before it answered: ${server.stderr().trim()}`);
  }
}

/** Polls `check` until it holds, within a bound; for output a process writes a moment after it answers. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The one-line failure the contract asks of every command: non-zero exit, nothing on stdout, one line on stderr. */
export function oneLineFailure(result: CliResult): boolean {
  return result.code !== 0 && result.code !== null && result.stdout === '' && /^[^\n]+\n$/.test(result.stderr);
}

/**
 * A fresh installation as an operator makes one with the CLI: migrated, with one owner, one workspace and an API
 * key of the owner's. Answers the key and the workspace's slug.
 */
export async function installWithKey(env: Env, name: string): Promise<{ key: string; slug: string }> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.com`;
  await cliJson(['migrate'], env);
  await cliJson(['user', 'create', '--email', email, '--password-stdin'], env, 'long password 1\n');
  const { slug } = await cliJson<{ slug: string }>(['workspace', 'create', '--name', name, '--owner', email], env);
  const { key } = await cliJson<{ key: string }>(
    ['key', 'create', '--workspace', slug, '--email', email, '--name', `${name} key`],
    env,
  );
  return { key, slug };
}
