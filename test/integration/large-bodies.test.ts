import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../src/app.js';
import { DISCARD_LIMIT_BYTES } from '../../src/server/unread-body.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { DASHBOARD } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, multipart } from '../helpers/media.js';
import { chunked, rawUpload, type RawResponse } from '../helpers/raw-upload.js';
import { fetchFromWorker, type WorkerFetchResult } from '../helpers/worker-fetch.js';

/*
 * Over real HTTP: a client that uploads its whole body before it reads the answer, as Node's `fetch`
 * does, must receive the 400 envelope for a body over the limit, not a connection reset under its
 * upload. `inject` cannot show this: it hands the whole body over before the server answers.
 */
const OVER_JSON = JSON_BODY_LIMIT + 1024;
const MAX_UPLOAD = 1024 * 1024;
const TEN_GIB = 10 * 1024 ** 3;

/** A JSON object of exactly `size` bytes: `{"name":"aaaa…"}`. */
function jsonOf(size: number): Buffer {
  const wrapper = '{"name":""}'.length;
  return Buffer.from(`{"name":"${'a'.repeat(size - wrapper)}"}`);
}

/** A PDF, as far as the type sniffing can tell, of `size` bytes. */
function pdfOf(size: number): Buffer {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write('%PDF-1.7\n');
  return bytes;
}

function requestHead(method: string, path: string, headers: Record<string, string | number>): Buffer {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(`${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('')}\r\n`);
}

function expectTooLarge(answer: { status: number; body: string }, details: Record<string, unknown> = {}): void {
  expect(answer.status, answer.body).toBe(400);
  expect(JSON.parse(answer.body)).toEqual({
    code: 'BAD_REQUEST',
    message: expect.any(String),
    details: { reason: 'too_large', ...details },
  });
}

function expectFetchedTooLarge(result: WorkerFetchResult, details: Record<string, unknown> = {}): void {
  // An EPIPE or ECONNRESET shows here as { error, message }.
  expect(result).toEqual({ status: 400, headers: expect.any(Object), body: expect.any(String) });
  const answer = result as Extract<WorkerFetchResult, { status: number }>;
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expectTooLarge(answer, details);
}

const SENDINGS = [
  { sending: 'with Content-Length', streamed: false },
  { sending: 'streamed, without Content-Length', streamed: true },
];

describeEachDialect('bodies over the limit, over real HTTP', (dialect) => {
  let ctx: TestContext;
  let base: string;
  let port: number;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_MAX_UPLOAD_BYTES: String(MAX_UPLOAD) } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => ctx?.close());

  describe.each(SENDINGS)('Node’s fetch, $sending', ({ streamed }) => {
    it('the external API answers JSON of 16 MiB + 1 KiB with the 400 envelope', async () => {
      const { key } = await ctx.ownerKey();
      const headers = { 'content-type': 'application/json', 'x-api-key': key };
      const url = `${base}${EXTERNAL}/api-keys`;
      expectFetchedTooLarge(await fetchFromWorker({ url, method: 'POST', headers, body: jsonOf(OVER_JSON), streamed }));
      const list = await fetch(url, { headers: { 'x-api-key': key } });
      expect(((await list.json()) as { total: number }).total).toBe(1);
    });

    it('a dashboard route answers JSON of 16 MiB + 1 KiB with the 400 envelope', async () => {
      const headers = { 'content-type': 'application/json' };
      const url = `${base}${DASHBOARD}/session`;
      expectFetchedTooLarge(await fetchFromWorker({ url, method: 'POST', headers, body: jsonOf(OVER_JSON), streamed }));
    });

    it('a media upload over QUIRE_MAX_UPLOAD_BYTES is answered with the 400 envelope', async () => {
      const { key } = await ctx.ownerKey();
      const form = multipart([filePart(pdfOf(MAX_UPLOAD + 128 * 1024), 'big.pdf')]);
      const headers = { ...form.headers, 'x-api-key': key };
      const url = `${base}${EXTERNAL}/media`;
      const result = await fetchFromWorker({ url, method: 'POST', headers, body: form.payload, streamed });
      expectFetchedTooLarge(result, { maxBytes: MAX_UPLOAD });
      const list = await fetch(url, { headers: { 'x-api-key': key } });
      expect(((await list.json()) as { total: number }).total).toBe(0);
    });
  });

  describe.each(SENDINGS)('a client that reads only once its upload is over, $sending', ({ streamed }) => {
    it('uploads all of 16 MiB + 1 KiB, gets the 400 envelope, and its connection serves the next request', async () => {
      const { key } = await ctx.ownerKey();
      const body = jsonOf(OVER_JSON);
      const headers = { 'content-type': 'application/json', 'x-api-key': key };
      const exchange = await rawUpload(
        port,
        [
          requestHead('POST', `${EXTERNAL}/api-keys`, {
            ...headers,
            ...(streamed ? { 'transfer-encoding': 'chunked' } : { 'content-length': body.length }),
          }),
          ...(streamed ? chunked(body) : [body]),
          requestHead('GET', '/healthz', {}),
        ],
        2,
      );
      expect(exchange.uploaded).toBe(true);
      expect(exchange.responses.map((response: RawResponse) => response.status)).toEqual([400, 200]);
      expectTooLarge(exchange.responses[0]!);
    });
  });

  describe('a client that would upload 10 GiB', () => {
    /** The head, then zeros until the server closes the connection (or eight times the bound). */
    function* tenGibibytes(head: Buffer): Generator<Buffer> {
      yield head;
      const mebibyte = Buffer.alloc(1024 * 1024);
      for (let sent = 0; sent < 8 * DISCARD_LIMIT_BYTES; sent += mebibyte.length) yield mebibyte;
    }

    // Room for what the two sockets' kernel buffers hold beyond what the server read (Linux lets a
    // receive buffer grow to tens of MiB).
    const BUFFERED = DISCARD_LIMIT_BYTES;

    it('gets the 400 envelope, then the connection is closed once the discard bound is read', async () => {
      const { key } = await ctx.ownerKey();
      const head = requestHead('POST', `${EXTERNAL}/api-keys`, {
        'content-type': 'application/json',
        'x-api-key': key,
        'content-length': TEN_GIB,
      });
      const exchange = await rawUpload(port, tenGibibytes(head));
      expectTooLarge(exchange.responses[0]!);
      expect(exchange.closed).toBe(true);
      expect(exchange.written).toBeGreaterThan(DISCARD_LIMIT_BYTES);
      expect(exchange.written).toBeLessThan(DISCARD_LIMIT_BYTES + BUFFERED);
    });

    it('to the media upload: the same', async () => {
      const { key } = await ctx.ownerKey();
      const { headers } = multipart([]);
      const head = requestHead('POST', `${EXTERNAL}/media`, {
        ...headers,
        'x-api-key': key,
        'content-length': TEN_GIB,
      });
      const exchange = await rawUpload(port, tenGibibytes(head));
      expectTooLarge(exchange.responses[0]!, { maxBytes: MAX_UPLOAD });
      expect(exchange.closed).toBe(true);
      expect(exchange.written).toBeGreaterThan(DISCARD_LIMIT_BYTES);
      expect(exchange.written).toBeLessThan(DISCARD_LIMIT_BYTES + BUFFERED);
    });
  });
});
