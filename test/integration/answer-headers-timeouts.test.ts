import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { DASHBOARD } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';

const REQUEST_TIMEOUT_MS = 500;

/** Writes `head`, then one byte of body every `everyMs`; resolves with all the server sent once it closes. */
function trickle(port: number, head: string, everyMs: number): Promise<{ answer: string; bytesSent: number }> {
  return new Promise((resolve, reject) => {
    let answer = '';
    let bytesSent = 0;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.writable) socket.write('a', () => (bytesSent += 1));
      }, everyMs);
    });
    let timer: NodeJS.Timeout | undefined;
    // The bound of the test itself: far past the timeout, far short of the test's own.
    const guard = setTimeout(() => socket.destroy(new Error('the server kept the connection open')), 10_000);
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      if (answer === '') reject(new Error('closed without an answer'));
      else resolve({ answer, bytesSent });
    });
  });
}

describeEachDialect('headers on every answer, and a bounded time to send a request', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let port: number;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    ({ key } = await ctx.ownerKey());
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => ctx?.close());

  const base = () => `http://127.0.0.1:${port}`;

  it('X-Content-Type-Options: nosniff on API JSON, errors, cached answers, the dashboard API, health and docs', async () => {
    const withKey = { headers: { 'x-api-key': key } };
    const answers = {
      'a list': await fetch(`${base()}${EXTERNAL}/tags`, withKey),
      'the same list from the response cache': await fetch(`${base()}${EXTERNAL}/tags`, withKey),
      'a 401': await fetch(`${base()}${EXTERNAL}/tags`),
      'a 404': await fetch(`${base()}${EXTERNAL}/tags/absent`, withKey),
      'a 405': await fetch(`${base()}${EXTERNAL}/tags`, { method: 'PUT', ...withKey }),
      'a 400': await fetch(`${base()}${EXTERNAL}/tags?page=0`, withKey),
      'a bad URL': await fetch(`${base()}${EXTERNAL}/tags/%E0%A4%A`, withKey),
      'a write': await fetch(`${base()}${EXTERNAL}/tags`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Sniffless' }),
      }),
      'the dashboard API': await fetch(`${base()}${DASHBOARD}/setup`),
      'a dashboard 401': await fetch(`${base()}${DASHBOARD}/session`),
      healthz: await fetch(`${base()}/healthz`),
      readyz: await fetch(`${base()}/readyz`),
      'the OpenAPI document': await fetch(`${base()}/docs/openapi.json`),
      'an unknown path': await fetch(`${base()}/nothing-here`),
    };
    for (const [what, response] of Object.entries(answers)) {
      expect(response.headers.get('x-content-type-options'), `${what} (${response.status})`).toBe('nosniff');
      await response.arrayBuffer();
    }
    expect(answers['the same list from the response cache'].headers.get('etag')).toBe(
      answers['a list'].headers.get('etag'),
    );
    // A request Node's parser refuses is answered outside Fastify, with the same header.
    const malformed = await trickle(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 1_000);
    expect(malformed.answer).toMatch(/^HTTP\/1\.1 400/);
    expect(malformed.answer.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('a body trickled past QUIRE_REQUEST_TIMEOUT_MS gets a 400 request_timeout and the connection is closed', async () => {
    const head = [
      `POST ${EXTERNAL}/tags HTTP/1.1`,
      'Host: 127.0.0.1',
      `X-API-Key: ${key}`,
      'Content-Type: application/json',
      'Content-Length: 1000000',
      '',
      '',
    ].join('\r\n');
    const { answer, bytesSent } = await trickle(port, head, 50);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; details: unknown };
    expect(body).toMatchObject({ code: 'BAD_REQUEST', details: { reason: 'request_timeout' } });
    // Cut off long before the body was complete: the server did not wait for it.
    expect(bytesSent).toBeLessThan(1_000);
    // The server still answers everyone else.
    expect((await fetch(`${base()}/healthz`)).status).toBe(200);
  });
});
