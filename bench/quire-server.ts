import path from 'node:path';
import { datasetEnv, type Dataset } from './dataset.js';
import { BIN, binNodeFlags, freePort, launch, waitFor, type Child } from './processes.js';

export const EXTERNAL = '/api/v1/external';
const START_TIMEOUT_MS = 30_000;

export interface ServerOptions {
  /** QUIRE_RESPONSE_CACHE_MB=0: the response cache off (ignored by a server that has none). */
  cacheOff: boolean;
  cpuProfDir: string | null;
  /** LOG_LEVEL of the server (the CLI commands of the data set log at warn). */
  logLevel: string;
}

export interface QuireServer extends Child {
  cacheOff: boolean;
  /** From spawn to the first 200 of GET /healthz, and of an authenticated GET /posts, in ms. */
  startup: { healthzMs: number; firstPostsMs: number };
}

/**
 * `node <the flags on bin/quire.js's first line> bin/quire.js serve` on the dataset, as production
 * runs it, at the log level asked for (the server's default, info, unless told) and with a rate limit too
 * high to trip. Resolves once both /healthz
 * and an authenticated GET /posts answer 200, polled side by side from the spawn, so each time is
 * its own.
 */
export async function startQuire(dataset: Dataset, options: ServerOptions): Promise<QuireServer> {
  const port = await freePort();
  const env = {
    ...datasetEnv(dataset),
    HOST: '127.0.0.1',
    PORT: String(port),
    QUIRE_RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: options.logLevel,
    ...(options.cacheOff ? { QUIRE_RESPONSE_CACHE_MB: '0' } : {}),
  };
  const nodeArgs = [
    ...binNodeFlags(),
    ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`] : []),
  ];
  const spawned = performance.now();
  const child = launch([...nodeArgs, BIN, 'serve'], env, port);
  try {
    const [healthzMs, firstPostsMs] = await Promise.all([
      waitFor(`${child.url}/healthz`, {}, spawned, START_TIMEOUT_MS, child),
      waitFor(
        `${child.url}${EXTERNAL}/posts`,
        { headers: { 'x-api-key': dataset.key } },
        spawned,
        START_TIMEOUT_MS,
        child,
      ),
    ]);
    return {
      ...child,
      cacheOff: options.cacheOff,
      startup: { healthzMs: Math.round(healthzMs), firstPostsMs: Math.round(firstPostsMs) },
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
