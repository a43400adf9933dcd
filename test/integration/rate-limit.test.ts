import { once } from 'node:events';
import net from 'node:net';
import type { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/redis.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { services } from '../helpers/services.js';

/*
 * The limiter does not touch the database, so these suites run on SQLite only. Every test takes
 * addresses of its own, so that buckets never leak from one test into the next.
 */

const MAX = 5;
let lastOctet = 0;
const freshAddress = () => `198.51.100.${++lastOctet}`;

interface Call {
  key?: string;
  url?: string;
}

function call(
  ctx: TestContext,
  remoteAddress: string,
  { key, url = `${EXTERNAL}/api-keys` }: Call = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url, remoteAddress, headers: key === undefined ? {} : { 'x-api-key': key } });
}

function expectRateLimited(response: LightMyRequestResponse, max = MAX): void {
  expect(response.statusCode).toBe(429);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ code: 'RATE_LIMITED', message: expect.any(String), details: expect.anything() });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(response.headers['ratelimit-limit']).toBe(String(max));
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  expect(response.headers['x-request-id']).toBeTruthy();
}

/** Lines the app logged at warn level (pino's 40) whose message names Redis. */
const redisWarnings = (ctx: TestContext) =>
  ctx.logs.filter((line) => line.level === 40 && /redis/i.test(String(line.msg)));

describe('rate limit: one instance, in memory', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite', { env: { QUIRE_RATE_LIMIT_MAX: String(MAX) } });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  it('the sixth request from one address gets 429 with the envelope, Retry-After and RateLimit-* headers', async () => {
    const address = freshAddress();
    for (let i = 1; i <= MAX; i += 1) {
      const response = await call(ctx, address, { key });
      expect(response.statusCode, `request ${i}`).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe(String(MAX));
      expect(response.headers['ratelimit-remaining']).toBe(String(MAX - i));
      const reset = Number(response.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      expect(response.headers['retry-after']).toBeUndefined();
    }
    const refused = await call(ctx, address, { key });
    expectRateLimited(refused);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Refused requests keep counting; the address stays limited for the rest of the window.
    expectRateLimited(await call(ctx, address, { key }));
  });

  it('refused requests count too: 401s for missing and bad keys, 404s for unknown paths', async () => {
    const address = freshAddress();
    expect((await call(ctx, address)).statusCode).toBe(401);
    expect((await call(ctx, address, { key: 'nonsense' })).statusCode).toBe(401);
    expect((await call(ctx, address, { key: `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` })).statusCode).toBe(
      401,
    );
    expect((await call(ctx, address, { url: `${EXTERNAL}/no-such-thing` })).statusCode).toBe(401);
    expect((await call(ctx, address, { key, url: `${EXTERNAL}/no-such-thing` })).statusCode).toBe(404);
    expectRateLimited(await call(ctx, address, { key }));
  });

  it('the limit is checked before the key: past it, a request without a key gets 429, not 401', async () => {
    const address = freshAddress();
    for (let i = 0; i < MAX; i += 1) await call(ctx, address);
    expectRateLimited(await call(ctx, address));
  });

  it('buckets by client address, never by key', async () => {
    const limited = freshAddress();
    for (let i = 0; i < MAX; i += 1) expect((await call(ctx, limited, { key })).statusCode).toBe(200);
    expectRateLimited(await call(ctx, limited, { key }));

    // Another key from the same address shares its bucket…
    const other = await ctx.ownerKey();
    expectRateLimited(await call(ctx, limited, { key: other.key }));

    // …and the same key from another address has a bucket of its own.
    const fresh = await call(ctx, freshAddress(), { key });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['ratelimit-remaining']).toBe(String(MAX - 1));
  });

  it('routes outside /api/v1/external are not limited and do not count', async () => {
    const address = freshAddress();
    for (let i = 0; i < MAX * 3; i += 1) {
      const health = await call(ctx, address, { url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.headers['ratelimit-limit']).toBeUndefined();
      const miss = await call(ctx, address, { url: '/no-such-thing' });
      expect(miss.statusCode).toBe(404);
      expect(miss.headers['ratelimit-limit']).toBeUndefined();
    }
    const external = await call(ctx, address, { key });
    expect(external.statusCode).toBe(200);
    expect(external.headers['ratelimit-remaining']).toBe(String(MAX - 1));
  });
});

describe('rate limit: the window resets', () => {
  const WINDOW_MS = 300;
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite', {
      env: { QUIRE_RATE_LIMIT_MAX: '2', QUIRE_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) },
    });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  it('an address limited in one window is served again in the next', async () => {
    const address = freshAddress();
    expect((await call(ctx, address, { key })).statusCode).toBe(200);
    expect((await call(ctx, address, { key })).statusCode).toBe(200);
    const refused = await call(ctx, address, { key });
    expectRateLimited(refused, 2);
    // A window shorter than a second still asks the client to wait a whole second, never 0.
    expect(refused.headers['retry-after']).toBe('1');

    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    const next = await call(ctx, address, { key });
    expect(next.statusCode).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('1');
  });
});

/** Resolves once the client has finished its handshake; rejects if it reports an error first. */
async function ready(client: Redis): Promise<void> {
  if (client.status !== 'ready') await once(client, 'ready');
}

/** The test server's URL with a logical database of this file's own: other files may use Redis at the same time. */
function dedicatedRedisUrl(base: string): string {
  const url = new URL(base);
  url.pathname = '/3';
  return url.toString();
}

const describeRedis = services.redisUrl ? describe : describe.skip;
const redisTitle = services.redisUrl
  ? 'rate limit: shared through Redis [redis]'
  : 'rate limit: shared through Redis [redis: skipped, QUIRE_TEST_REDIS_URL is not set]';

describeRedis(redisTitle, () => {
  const clients: Redis[] = [];
  const contexts: TestContext[] = [];
  let admin: Redis;

  async function instance(env: Record<string, string> = {}): Promise<{ ctx: TestContext; key: string }> {
    const client = connectRedis(dedicatedRedisUrl(services.redisUrl!));
    clients.push(client);
    // Without this wait the first requests would be counted by the in-memory fallback: the client
    // refuses commands until its handshake is done.
    await ready(client);
    const ctx = await buildTestApp('sqlite', {
      env: { QUIRE_RATE_LIMIT_MAX: String(MAX), ...env },
      deps: { redis: client },
    });
    contexts.push(ctx);
    return { ctx, key: (await ctx.ownerKey()).key };
  }

  beforeAll(async () => {
    admin = connectRedis(dedicatedRedisUrl(services.redisUrl!));
    clients.push(admin);
    await ready(admin);
    await admin.flushdb();
  });
  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
    await Promise.all(clients.map((client) => client.quit()));
  });

  it('two instances share one bucket: 3 requests to one and 3 to the other, the sixth is 429', async () => {
    const first = await instance();
    const second = await instance();
    const address = freshAddress();

    for (let i = 1; i <= 3; i += 1) {
      const response = await call(first.ctx, address, { key: first.key });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(MAX - i));
    }
    for (let i = 4; i <= 5; i += 1) {
      const response = await call(second.ctx, address, { key: second.key });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(MAX - i));
    }
    expectRateLimited(await call(second.ctx, address, { key: second.key }));
    expectRateLimited(await call(first.ctx, address, { key: first.key }));

    // The counter carries its expiry, so a bucket can never outlive its window.
    const ttl = await admin.pttl(`quire:rl:${address}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await admin.get(`quire:rl:${address}`)).toBe('7');

    expect(redisWarnings(first.ctx)).toEqual([]);
    expect(redisWarnings(second.ctx)).toEqual([]);
  });

  it('the shared window resets', async () => {
    const WINDOW_MS = 300;
    const { ctx, key } = await instance({ QUIRE_RATE_LIMIT_MAX: '2', QUIRE_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) });
    const address = freshAddress();
    expect((await call(ctx, address, { key })).statusCode).toBe(200);
    expect((await call(ctx, address, { key })).statusCode).toBe(200);
    expectRateLimited(await call(ctx, address, { key }), 2);

    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    const next = await call(ctx, address, { key });
    expect(next.statusCode).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('1');
  });
});

/** The bound on a hang: a request must not wait on a dead Redis for much longer than its timeouts. */
const HANG_BOUND_MS = 1500;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

/** Requests one address up to the limit and past it, each bounded in time; the in-memory fallback must still count. */
async function expectCountedAndBounded(ctx: TestContext, key: string): Promise<void> {
  const address = freshAddress();
  for (let i = 1; i <= MAX; i += 1) {
    const { result, ms } = await timed(() => call(ctx, address, { key }));
    expect(result.statusCode, `request ${i}`).toBe(200);
    expect(result.headers['ratelimit-remaining']).toBe(String(MAX - i));
    expect(ms, `request ${i} waited on Redis`).toBeLessThan(HANG_BOUND_MS);
  }
  const { result, ms } = await timed(() => call(ctx, address, { key }));
  expectRateLimited(result);
  expect(ms).toBeLessThan(HANG_BOUND_MS);
}

describe('rate limit: Redis refuses connections', () => {
  let client: Redis;
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens there, so every connection attempt is refused.
    client = connectRedis('redis://127.0.0.1:1');
    // As in src/main.ts: the limiter logs the outage; ioredis would otherwise print every retry.
    client.on('error', () => undefined);
    ctx = await buildTestApp('sqlite', { env: { QUIRE_RATE_LIMIT_MAX: String(MAX) }, deps: { redis: client } });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(async () => {
    await ctx?.close();
    client?.disconnect();
  });

  it('requests are answered at once, still counted in this instance, and the outage is logged once', async () => {
    await expectCountedAndBounded(ctx, key);
    await expectCountedAndBounded(ctx, key);
    expect(redisWarnings(ctx)).toHaveLength(1);
  });
});

/**
 * A Redis that accepts the connection and completes the handshake, then never answers a command
 * of the limiter: the case no-offline-queue cannot catch, only the command timeout.
 */
async function silentRedis(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // RESP requests are arrays of bulk strings: *N\r\n then N times $len\r\n<bytes>\r\n.
      for (;;) {
        const parsed = parseCommand(buffered);
        if (!parsed) break;
        buffered = buffered.slice(parsed.length);
        const name = parsed.args[0]?.toUpperCase();
        if (name === 'EVAL' || name === 'EVALSHA') continue;
        socket.write(name === 'INFO' ? '$9\r\nloading:0\r\n' : '+OK\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

function parseCommand(input: string): { args: string[]; length: number } | null {
  const header = /^\*(\d+)\r\n/.exec(input);
  if (!header) return null;
  let offset = header[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(header[1]); i += 1) {
    const bulk = /^\$(\d+)\r\n/.exec(input.slice(offset));
    if (!bulk) return null;
    const start = offset + bulk[0].length;
    const end = start + Number(bulk[1]);
    if (input.length < end + 2) return null;
    args.push(input.slice(start, end));
    offset = end + 2;
  }
  return { args, length: offset };
}

describe('rate limit: Redis connected but silent', () => {
  let server: Awaited<ReturnType<typeof silentRedis>>;
  let client: Redis;
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    server = await silentRedis();
    client = connectRedis(server.url);
    client.on('error', () => undefined);
    await ready(client);
    ctx = await buildTestApp('sqlite', { env: { QUIRE_RATE_LIMIT_MAX: String(MAX) }, deps: { redis: client } });
    ({ key } = await ctx.ownerKey());
  });
  afterAll(async () => {
    await ctx?.close();
    client?.disconnect();
    await server?.close();
  });

  it('each request waits at most the command timeout, is counted in this instance, and the outage is logged once', async () => {
    expect(client.status).toBe('ready');
    await expectCountedAndBounded(ctx, key);
    expect(redisWarnings(ctx)).toHaveLength(1);
  });
});
