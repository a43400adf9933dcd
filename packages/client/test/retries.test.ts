import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL, type ServerProcess } from '../../../test/e2e/helpers.js';
import { retryAfterSeconds } from '../src/errors.js';
import { Quire, QuireError } from '../src/index.js';
import { countingFetch, seededServer, sendJson, stubServer } from './helpers.js';

const ENVELOPE_500 = { code: 'INTERNAL', message: 'Internal server error; retry with backoff', details: null };

describe('retries on 429, against a real server with a tiny rate limit', () => {
  let server: ServerProcess;
  let key: string;
  let remove: () => void;

  beforeAll(async () => {
    // Three requests per 1.5 s window: a client that did not wait for Retry-After would be refused again.
    const seeded = await seededServer(3, { QUIRE_RATE_LIMIT_MAX: '3', QUIRE_RATE_LIMIT_WINDOW_MS: '1500' });
    ({ server, key } = seeded);
    remove = seeded.dir.remove;
  }, 90_000);
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    remove?.();
  });

  /** Sends requests until one is refused: the current window is spent. */
  async function spendWindow(): Promise<number> {
    for (let sent = 0; sent < 20; sent += 1) {
      const response = await server.fetch(`${EXTERNAL}/tags`, { headers: { 'X-API-Key': key } });
      if (response.status === 429) return Number(response.headers.get('retry-after'));
    }
    throw new Error('the rate limit never refused a request');
  }

  it('waits Retry-After and then succeeds: one refused attempt, one answered', async () => {
    const counting = countingFetch();
    const quire = new Quire({ apiKey: key, baseUrl: server.url, fetch: counting.fetch, maxRetries: 5 });
    expect(await spendWindow()).toBeGreaterThanOrEqual(1);
    const page = await quire.posts.list();
    expect(page.total).toBe(3);
    // Had the client retried before the window ended, it would have been refused again (refusals count too).
    expect(counting.statuses).toEqual([429, 200]);
  });

  it('retries a POST on 429 too: the server refused it before doing anything', async () => {
    const counting = countingFetch();
    const quire = new Quire({ apiKey: key, baseUrl: server.url, fetch: counting.fetch, maxRetries: 5 });
    await spendWindow();
    const report = await quire.linkHealth.report({ path: '/counted-once' });
    expect(counting.statuses).toEqual([429, 200]);
    expect(report.hitCount).toBe(1);
  });

  it('gives up with RATE_LIMITED when retries are off', async () => {
    const quire = new Quire({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    await spendWindow();
    const error = (await quire.tags.list().catch((caught: unknown) => caught)) as QuireError;
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
  });
});

describe('retries against a stub that fails on purpose', () => {
  it('retries a GET after 500 twice, then returns the 200', async () => {
    const stub = await stubServer((n, _request, response) =>
      n <= 2 ? sendJson(response, 500, ENVELOPE_500) : sendJson(response, 200, { id: 'p1' }),
    );
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, maxRetries: 3 });
      expect(await quire.posts.get('p1')).toEqual({ id: 'p1' });
      expect(stub.requests()).toBe(3);
    } finally {
      await stub.close();
    }
  });

  it('does not retry a POST after a 500 (it may have happened) and reports the envelope', async () => {
    const stub = await stubServer((_n, _request, response) => sendJson(response, 500, ENVELOPE_500));
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, maxRetries: 3 });
      const error = (await quire.posts.create({ title: 'Once' }).catch((caught: unknown) => caught)) as QuireError;
      expect(error).toBeInstanceOf(QuireError);
      expect(error).toMatchObject({ code: 'INTERNAL', status: 500, requestId: 'stub-500' });
      expect(stub.requests()).toBe(1);
    } finally {
      await stub.close();
    }
  });

  it('retries a GET after a dropped connection, and after a 503 without an envelope', async () => {
    const stub = await stubServer((n, request, response) => {
      if (n === 1) request.socket.destroy();
      else if (n === 2) response.writeHead(503, { 'Content-Type': 'text/html' }).end('<h1>Service Unavailable</h1>');
      else sendJson(response, 200, { data: [], page: 1, pageSize: 10, order: 'desc', total: 0, totalPages: 1 });
    });
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, maxRetries: 3 });
      expect((await quire.tags.list()).total).toBe(0);
      expect(stub.requests()).toBe(3);
    } finally {
      await stub.close();
    }
  });

  it('waits at least Retry-After before retrying a GET that got 503 UNAVAILABLE', async () => {
    const envelope = {
      code: 'UNAVAILABLE',
      message: 'The database is not answering; retry after the time in Retry-After',
      details: { dependency: 'database', reason: 'shutting_down', retryAfterSeconds: 1 },
    };
    const arrivals: number[] = [];
    const stub = await stubServer((n, _request, response) => {
      arrivals.push(Date.now());
      if (n === 1) sendJson(response, 503, envelope, { 'Retry-After': '1' });
      else sendJson(response, 200, { id: 'p1' });
    });
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, maxRetries: 3 });
      expect(await quire.posts.get('p1')).toEqual({ id: 'p1' });
      expect(arrivals).toHaveLength(2);
      // The backoff alone would have retried within 250 ms.
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
    } finally {
      await stub.close();
    }
  });

  it('times out an attempt that gets no answer, retrying idempotent calls within maxRetries', async () => {
    const stub = await stubServer(() => undefined);
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, timeoutMs: 150, maxRetries: 1 });
      const started = Date.now();
      const error = (await quire.posts.list().catch((caught: unknown) => caught)) as QuireError;
      expect(error).toMatchObject({ code: 'TIMEOUT', status: 0 });
      expect(stub.requests()).toBe(2);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await stub.close();
    }
  });

  it('does not retry a 429 that asks for longer than maxRetryDelayMs', async () => {
    const envelope = { code: 'RATE_LIMITED', message: 'Too many requests', details: { retryAfterSeconds: 120 } };
    const stub = await stubServer((_n, _request, response) =>
      sendJson(response, 429, envelope, { 'Retry-After': '120' }),
    );
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, maxRetries: 3, maxRetryDelayMs: 5_000 });
      await expect(quire.posts.list()).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfter: 120 });
      expect(stub.requests()).toBe(1);
    } finally {
      await stub.close();
    }
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    const stub = await stubServer(() => undefined);
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, maxRetries: 3 });
      const controller = new AbortController();
      const call = quire.posts.list(undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('changed my mind')), 50);
      await expect(call).rejects.toThrow('changed my mind');
      expect(stub.requests()).toBe(1);
    } finally {
      await stub.close();
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30);
    expect(retryAfterSeconds('soon')).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });
});
