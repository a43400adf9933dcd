import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/media.js';
import { faultTally, missingPosts } from './fault-tally.js';
import { EXTERNAL, installWithKey, startServer, tempDir, type Env, type ServerProcess } from './helpers.js';

/*
 * The SQLite data dir's disk fills up under a load of writes and reads, on a small tmpfs the test mounts: writes
 * are refused with 503 UNAVAILABLE (never 500), reads go on, nothing acknowledged is lost and nothing refused is
 * half-written, and writing resumes as soon as space returns, without a restart.
 */

const DISK = '48m';
const WRITERS = 2;
const READERS = 2;
/** How long the disk stays full under load. */
const FULL_MS = 2_000;
const RECOVERY_BOUND_MS = 5_000;

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const title = 'the SQLite data dir runs out of space under load [sqlite]';

/** Writes zeros into `file` until the file system refuses, first in large pieces, then in small ones. */
function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 12, 1 << 9]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          written += fs.writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

(asRoot ? describe : describe.skip)(asRoot ? title : `${title} [skipped: mounting a tmpfs needs root]`, () => {
  const dir = tempDir('quire-disk-full-');
  const mount = path.join(dir.root, 'disk');
  const dataDir = path.join(mount, 'data');
  const filler = path.join(mount, 'filler');
  let mounted = false;
  let server: ServerProcess | undefined;
  let key: string;
  let env: Env;

  beforeAll(async () => {
    fs.mkdirSync(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK}`, 'tmpfs', mount]);
    mounted = true;
    env = { QUIRE_DATA_DIR: dataDir, QUIRE_RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'warn' };
    ({ key } = await installWithKey(env, 'Disk'));
    server = await startServer(env);
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    if (mounted) execFileSync('umount', ['-l', mount]);
    dir.remove();
  });

  it('refuses writes with 503 while the disk is full, keeps reading, and writes again once space returns', async () => {
    const live = server!;
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const tally = faultTally();
    const acknowledged = new Set<string>();
    let readsWhileFull = 0;
    let full = false;
    let freedAt: number | null = null;
    let firstWriteAfterFree: number | null = null;
    let running = true;

    const writer = async (id: number) => {
      for (let n = 0; running; n += 1) {
        const response = await live.fetch(`${EXTERNAL}/posts`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            title: `Disk ${id}-${n} ${crypto.randomBytes(3).toString('hex')}`,
            excerpt: 'x'.repeat(300),
          }),
        });
        const post = (await tally.count(response)) as { id: string } | null;
        if (response.status === 201 && post) {
          acknowledged.add(post.id);
          if (freedAt !== null && firstWriteAfterFree === null) firstWriteAfterFree = Date.now();
        }
        await sleep(5);
      }
    };
    const reader = async (id: number) => {
      for (let n = 0; running; n += 1) {
        const response = await live.fetch(`${EXTERNAL}/posts?pageSize=5&page=${(n % 10) + 1 + id}`, { headers });
        await tally.count(response);
        if (response.ok && full) readsWhileFull += 1;
        await sleep(5);
      }
    };
    const load = [
      ...Array.from({ length: WRITERS }, (_, id) => writer(id)),
      ...Array.from({ length: READERS }, (_, id) => reader(id)),
    ];

    await sleep(1_000);
    const filled = fillDisk(filler);
    full = true;
    await sleep(FULL_MS);
    // A media upload needs the disk too: refused the same way, and no media row is written.
    const upload = new FormData();
    upload.append('file', new Blob([png(8, 8)], { type: 'image/png' }), 'full.png');
    const refusedUpload = await live.fetch(`${EXTERNAL}/media`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: upload,
    });
    const refusedUploadBody = (await refusedUpload.json()) as { code: string; details: { dependency?: string } };
    full = false;
    fs.rmSync(filler);
    freedAt = Date.now();
    const deadline = freedAt + RECOVERY_BOUND_MS + 5_000;
    while (firstWriteAfterFree === null && Date.now() < deadline) await sleep(50);
    await sleep(1_000);
    running = false;
    await Promise.all(load);

    expect(live.child.exitCode, live.stderr().slice(-3000)).toBeNull();
    expect(tally.other).toEqual([]);
    expect(tally.malformed503).toEqual([]);
    expect(tally.unavailable).toBeGreaterThan(0);
    expect([...tally.reasons]).toContain('disk_full');
    expect(readsWhileFull).toBeGreaterThan(0);
    expect(refusedUpload.status).toBe(503);
    expect(refusedUploadBody.code).toBe('UNAVAILABLE');
    const media = (await (await live.fetch(`${EXTERNAL}/media`, { headers })).json()) as { total: number };
    expect(media.total).toBe(0);
    expect(firstWriteAfterFree).not.toBeNull();
    const recoveryMs = firstWriteAfterFree! - freedAt;
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);

    const lost = await missingPosts(live.fetch, key, acknowledged);
    expect(lost).toBe(0);
    await live.stop();
    server = undefined;
    const sqlite = new BetterSqlite3(path.join(dataDir, 'quire.sqlite'), { fileMustExist: true });
    let stored: number;
    let integrity: string;
    try {
      integrity = String(sqlite.pragma('integrity_check', { simple: true }));
      stored = (sqlite.prepare('select count(*) as n from posts').get() as { n: number }).n;
    } finally {
      sqlite.close();
    }
    expect(integrity).toBe('ok');
    // Every post in the database was acknowledged: a refused write left nothing behind.
    expect(stored).toBe(acknowledged.size);

    process.stdout.write(
      `sqlite disk full: ${DISK} tmpfs, ${(filled / 2 ** 20).toFixed(1)} MiB of filler, full for ${FULL_MS} ms; ` +
        `${tally.requests} requests, ${tally.ok} ok (${readsWhileFull} reads while full), ${tally.unavailable} ` +
        `answered 503 (${[...tally.reasons].join(', ')}), ${tally.other.length} other; ${acknowledged.size} acknowledged ` +
        `posts, ${lost} lost, ${stored} stored; upload while full ${refusedUpload.status}; first write ` +
        `${recoveryMs} ms after space returned\n`,
    );
  }, 120_000);
});
