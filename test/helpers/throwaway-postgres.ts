import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../e2e/helpers.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of a test's own (initdb on a free loopback port), so that a test can stop, restart and
 * start its database without taking away the one every other suite uses. The server binaries are Debian's
 * (`.ci/run` installs the postgresql package); as root, the cluster runs as the `postgres` user, since
 * PostgreSQL refuses to run as root.
 */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`, trust auth. */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: every connection is ended, as a minor upgrade or a failover does. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl restart -m fast`. */
  restart(): Promise<void>;
  /** Stops the cluster (immediately) and removes its files. */
  destroy(): Promise<void>;
}

/** The newest installed server's bin directory, or null when no PostgreSQL server is installed. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest === undefined ? null : path.join(root, newest, 'bin');
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pg-'));
  const dataDir = path.join(root, 'cluster');
  const logFile = path.join(root, 'server.log');
  if (asRoot) fs.chownSync(root, ...postgresIds());
  const tool = async (name: string, args: string[]) => {
    const command = path.join(bin, name);
    try {
      await (asRoot
        ? run('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: root })
        : run(command, args, { cwd: root }));
    } catch (error) {
      const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`${name} ${args.join(' ')} failed: ${(error as Error).message}\n${log}`);
    }
  };
  await tool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = [
    `-c listen_addresses=127.0.0.1`,
    `-c port=${port}`,
    `-c unix_socket_directories=${root}`,
    // A fast stop checkpoints, so nothing committed depends on fsync here; the crash suites test kills.
    `-c fsync=off`,
    `-c max_connections=60`,
  ].join(' ');
  const ctl = (...args: string[]) => tool('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '30', ...args]);
  const start = () => ctl('-o', options, 'start');
  await start();
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => ctl('-m', 'fast', 'stop'),
    start,
    restart: () => ctl('-m', 'fast', '-o', options, 'restart'),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function postgresIds(): [number, number] {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('running as root needs the postgres user (the postgresql package makes it)');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
