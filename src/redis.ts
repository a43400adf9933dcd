import { Redis } from 'ioredis';

/**
 * A Redis client that never makes a request wait on a dead Redis: no offline queue (a command
 * fails at once while disconnected), a bounded connect and command timeout, and reconnects in
 * the background.
 */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 250,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
  // Connection errors arrive as events, one per failed reconnect; what depends on Redis reports its own degraded
  // state (the rate limiter, /healthz), so the events themselves are only heard.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Waits, at most `ms`, for the first connection, so the first requests after a start use the shared
 * bucket. A Redis that is down does not stop the start: the limiter falls back and says so.
 */
export async function waitForRedis(redis: Redis, ms = 1000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.once('ready', onReady);
  });
}
