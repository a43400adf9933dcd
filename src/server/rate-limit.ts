import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export interface RateLimitDecision {
  count: number;
  resetMs: number;
}

/** Seconds until the window ends, as RateLimit-Reset and Retry-After give them: at least 1. */
export const resetSeconds = (resetMs: number): number => Math.max(1, Math.ceil(resetMs / 1000));

/** The RateLimit-* headers every answer of the external API carries, refused ones too. */
export function limitHeaders(max: number, { count, resetMs }: RateLimitDecision) {
  return {
    'ratelimit-limit': max,
    'ratelimit-remaining': Math.max(0, max - count),
    'ratelimit-reset': resetSeconds(resetMs),
  };
}

export interface RateLimitStore {
  /** Counts one request for `bucket` in the current window. */
  hit(bucket: string, windowMs: number): Promise<RateLimitDecision>;
}

/** Fixed windows in this process: the store of a single instance, and the fallback when Redis is down. */
export function memoryStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweepAt = 0;
  return {
    async hit(bucket, windowMs) {
      const now = Date.now();
      if (now >= sweepAt) {
        for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
        sweepAt = now + windowMs;
      }
      let window = windows.get(bucket);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs };
        windows.set(bucket, window);
      }
      window.count += 1;
      return { count: window.count, resetMs: window.resetAt - now };
    },
  };
}

// INCR and the expiry in one step, so a crash between them cannot leave a counter that never resets.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/**
 * The bucket shared by every instance. When Redis does not answer in time, the request is counted
 * by this process's own window instead (documented in docs/decisions.md): the limit degrades to
 * per-instance, and no request waits on a dead Redis longer than the command timeout.
 */
export function redisStore(redis: Redis, log: FastifyBaseLogger): RateLimitStore {
  const fallback = memoryStore();
  let degraded = false;
  return {
    async hit(bucket, windowMs) {
      try {
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, `quire:rl:${bucket}`, windowMs)) as [number, number];
        if (degraded) {
          degraded = false;
          log.info('rate limit: Redis answers again; the shared bucket is back');
        }
        return { count, resetMs: ttl };
      } catch (error) {
        if (!degraded) {
          degraded = true;
          log.warn({ err: error }, 'rate limit: Redis unavailable; counting in this instance until it returns');
        }
        return fallback.hit(bucket, windowMs);
      }
    },
  };
}
