import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../helpers/services.js';
import { EXTERNAL, freePort, installWithKey, startServer, tempDir, type Env, type ServerProcess } from './helpers.js';

/*
 * A Redis of the test's own (the shared rate-limit store) is stopped under load and started again on the same
 * port: the server stays up and answers every request (the limit counted in the instance meanwhile), /healthz
 * says Redis is down and then up, and readiness never depends on it.
 */

const REDIS = '/usr/bin/redis-server';
const DOWN_MS = 2_000;
const skipReason = !services.redisUrl
  ? 'QUIRE_TEST_REDIS_URL is not set'
  : !fs.existsSync(REDIS)
    ? `${REDIS} is absent`
    : null;
const title = 'a Redis outage under load [redis]';

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited ${code}: ${output}`));
    });
  });
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

(skipReason ? describe.skip : describe)(skipReason ? `${title} [skipped: ${skipReason}]` : title, () => {
  const dir = tempDir('quire-redis-outage-');
  let redis: ChildProcess | undefined;
  let redisPort: number;
  let server: ServerProcess | undefined;
  let key: string;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const env: Env = {
      QUIRE_DATA_DIR: dir.dataDir,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      QUIRE_RATE_LIMIT_MAX: '1000000000',
      LOG_LEVEL: 'warn',
    };
    ({ key } = await installWithKey(env, 'Redis'));
    server = await startServer(env);
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    if (redis) await stopRedis(redis);
    dir.remove();
  });

  const redisCheck = async () => {
    const response = await server!.fetch('/healthz');
    return ((await response.json()) as { checks: { redis?: { status: string } } }).checks.redis?.status;
  };

  it('answers every request while Redis is away, says so in /healthz, and uses it again when it returns', async () => {
    const live = server!;
    const tally = { requests: 0, ok: 0, other: [] as string[] };
    let running = true;
    const client = async (id: number) => {
      for (let n = 0; running; n += 1) {
        const response = await live.fetch(`${EXTERNAL}/posts?pageSize=2&page=${(n % 5) + 1 + id}`, {
          headers: { 'X-API-Key': key },
        });
        tally.requests += 1;
        if (response.ok) tally.ok += 1;
        else tally.other.push(`${response.status} ${(await response.text()).slice(0, 200)}`);
        await response.arrayBuffer().catch(() => undefined);
        await sleep(5);
      }
    };
    const load = [client(0), client(1)];

    expect(await redisCheck()).toBe('up');
    await sleep(500);
    await stopRedis(redis!);
    redis = undefined;
    await sleep(DOWN_MS / 2);
    const whileDown = await redisCheck();
    const readyWhileDown = (await live.fetch('/readyz')).status;
    await sleep(DOWN_MS / 2);
    redis = await startRedis(redisPort);
    const startedAt = Date.now();
    let backAfterMs: number | null = null;
    while (backAfterMs === null && Date.now() - startedAt < 10_000) {
      if ((await redisCheck()) === 'up') backAfterMs = Date.now() - startedAt;
      else await sleep(50);
    }
    await sleep(500);
    running = false;
    await Promise.all(load);

    expect(live.child.exitCode, live.stderr().slice(-3000)).toBeNull();
    expect(tally.other).toEqual([]);
    expect(whileDown).toBe('down');
    expect(readyWhileDown).toBe(200);
    expect(backAfterMs).not.toBeNull();
    process.stdout.write(
      `redis outage: killed for ${DOWN_MS} ms under load; ${tally.requests} requests, ${tally.ok} ok, ` +
        `${tally.other.length} other; /healthz said redis up again ${backAfterMs} ms after it started\n`,
    );
  }, 60_000);
});
