import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { badRequest } from '../errors.js';
import { displayDir } from './data-location.js';

/*
 * Who is using a SQLite installation's data dir: every `quire serve` holds a read transaction on
 * `serving.lock` (an empty SQLite file) for its whole life, and `quire migrate-to` needs that file's exclusive
 * lock for its whole copy. The locks are SQLite's own file locks, which the system drops with the process that
 * held them: a server killed with SIGKILL holds nothing, and no pid it left behind can be mistaken for a live
 * one. The pid files beside it (`serving/<command>.<pid>`) only name who holds the lock in a refusal.
 */

const LOCK_FILE = 'serving.lock';
const PIDS_DIR = 'serving';

type Holder = 'serve' | 'migrate-to';

export interface ServingLock {
  release(): void;
}

function pidFile(dataDir: string, holder: Holder, pid = process.pid): string {
  return path.join(dataDir, PIDS_DIR, `${holder}.${pid}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live processes of `holder` that said they use the data dir; files of dead ones are removed. */
function holders(dataDir: string, holder: Holder): number[] {
  const dir = path.join(dataDir, PIDS_DIR);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const pids: number[] = [];
  for (const name of names) {
    const [kind, digits] = name.split('.');
    const pid = Number(digits);
    if (kind !== holder || !Number.isInteger(pid) || pid <= 0) continue;
    if (pid !== process.pid && alive(pid)) pids.push(pid);
    else if (pid !== process.pid) fs.rmSync(path.join(dir, name), { force: true });
  }
  return pids.sort((a, b) => a - b);
}

const busy = (error: unknown) => (error as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;

function hold(dataDir: string, holder: Holder, take: (lock: BetterSqlite3.Database) => void): ServingLock | null {
  fs.mkdirSync(path.join(dataDir, PIDS_DIR), { recursive: true });
  // No busy timeout: a lock held by the other side is an answer now, not something to wait for.
  const lock = new BetterSqlite3(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    take(lock);
  } catch (error) {
    lock.close();
    if (busy(error)) return null;
    throw error;
  }
  const file = pidFile(dataDir, holder);
  try {
    fs.writeFileSync(file, `${process.pid}\n`);
  } catch {
    // Only a refusal's wording needs it: a full disk must not keep a server from starting.
  }
  return {
    release() {
      if (!lock.open) return;
      lock.close();
      fs.rmSync(file, { force: true });
    },
  };
}

const pidList = (pids: number[]) => (pids.length === 1 ? `pid ${pids[0]}` : `pids ${pids.join(', ')}`);

/** Taken by `quire serve` on SQLite: refused, in one line, while `quire migrate-to` copies the installation. */
export function holdServingLock(dataDir: string): ServingLock {
  const held = hold(dataDir, 'serve', (lock) => {
    lock.exec('begin');
    lock.prepare('select count(*) from sqlite_master').get();
  });
  if (held) return held;
  const movers = holders(dataDir, 'migrate-to');
  throw badRequest(
    `quire migrate-to${movers.length > 0 ? ` (${pidList(movers)})` : ''} is copying the installation in ${displayDir(dataDir)} to PostgreSQL: ` +
      'let it finish, then start the server with the DATABASE_URL it prints',
  );
}

/**
 * Taken by `quire migrate-to` for its whole copy: refused, in one line naming the servers' pids, while a
 * server is serving the installation, since what it wrote after the copy's snapshot would not be moved.
 */
export function holdMoveLock(dataDir: string): ServingLock {
  const held = hold(dataDir, 'migrate-to', (lock) => lock.exec('begin exclusive'));
  if (held) return held;
  const servers = holders(dataDir, 'serve');
  throw badRequest(
    `A Quire server${servers.length > 0 ? ` (${pidList(servers)})` : ''} is serving ${displayDir(dataDir)}: ` +
      'what it writes during the copy would be lost; stop it, then run quire migrate-to again',
  );
}
