import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * The worker's whole program: VACUUM INTO writes a consistent copy of the database as of the start of its
 * read transaction, while other connections and processes go on writing (WAL mode). It runs on a worker
 * thread because better-sqlite3 runs it synchronously, and the command's thread has a progress bar to draw.
 */
const WORKER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.source, { fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  db.prepare('vacuum into ?').run(workerData.target);
} finally {
  db.close();
}
`;

/**
 * Writes a consistent copy of the SQLite database `source` to `target` (which must not exist) while the
 * server keeps serving and writing. SQLite's online backup API would restart from the first page after
 * every write another process makes, and so might never finish under load; VACUUM INTO reads one snapshot.
 * `onBytes` hears how much of the copy is written, about every 200 ms.
 */
export async function snapshotSqlite(source: string, target: string, onBytes: (bytes: number) => void): Promise<void> {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, source, target } });
  const poll = setInterval(() => {
    fs.promises.stat(target).then(
      (stat) => onBytes(stat.size),
      () => undefined,
    );
  }, 200);
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`the snapshot worker exited with ${code}`)),
      );
    });
  } finally {
    clearInterval(poll);
  }
  onBytes(fs.statSync(target).size);
}
