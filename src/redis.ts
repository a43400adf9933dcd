import { Redis } from 'ioredis';

/**
 * A Redis client that never makes a request wait on a dead Redis: no offline queue (a command
 * fails at once while disconnected), a bounded connect and command timeout, and reconnects in
 * the background.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 250,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
}
