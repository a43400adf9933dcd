import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startDispatcher, type Dispatcher } from '../../src/modules/webhooks/dispatch/dispatcher.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { ErrorBody, Json, Response } from '../helpers/posts.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

/** A receiver that reads each request and answers none until told to: a hanging endpoint, for as long as wanted. */
async function startHangingReceiver() {
  const held: Array<{ path: string; response: http.ServerResponse }> = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => held.push({ path: request.url ?? '/', response }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    held,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    release() {
      for (const { response } of held.splice(0)) response.writeHead(204).end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describeEachDialect('webhook endpoints per workspace, and a fair share of the dispatcher', (dialect) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let hanging: Awaited<ReturnType<typeof startHangingReceiver>>;
  let dispatcher: Dispatcher | undefined;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, {
      env: { QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true', QUIRE_WEBHOOK_ENDPOINTS_MAX: '3' },
    });
    receiver = await startReceiver();
    hanging = await startHangingReceiver();
  });
  afterEach(async () => {
    hanging.release();
    await dispatcher?.stop();
    dispatcher = undefined;
  });
  afterAll(async () => {
    await hanging?.close();
    await receiver?.close();
    await ctx?.close();
  });

  const call = (key: string, method: 'POST' | 'DELETE', url: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const ok = <T>(response: Response, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as T;
  };
  const until = async (done: () => boolean, what: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('refuses an endpoint past QUIRE_WEBHOOK_ENDPOINTS_MAX with a 409 saying why, even when created at once', async () => {
    const { key } = await ctx.ownerKey();
    const url = receiver.url('/capped');
    const made = await Promise.all(Array.from({ length: 5 }, () => call(key, 'POST', '/webhooks', { url })));
    expect(made.map((response) => response.statusCode).sort()).toEqual([201, 201, 201, 409, 409]);
    const refused = made.find((response) => response.statusCode === 409)!.json() as ErrorBody;
    expect(refused).toMatchObject({ code: 'CONFLICT', details: { reason: 'webhook_endpoints_max', max: 3 } });
    expect(refused.message).toMatch(/has 3 webhook endpoints, the most it may have/);

    // Another workspace has its own three; a deleted endpoint frees its place.
    ok(await call((await ctx.ownerKey()).key, 'POST', '/webhooks', { url }), 201);
    const first = made.find((response) => response.statusCode === 201)!.json() as { id: string };
    ok(await call(key, 'DELETE', `/webhooks/${first.id}`));
    ok(await call(key, 'POST', '/webhooks', { url }), 201);
  });

  it("sends another workspace's event while one workspace's endpoints all hang, holding no more than their share", async () => {
    const a = await ctx.ownerKey();
    const b = await ctx.ownerKey();
    for (let i = 0; i < 3; i += 1)
      ok(await call(a.key, 'POST', '/webhooks', { url: hanging.url(`/a${i}`), eventTypes: ['tag.created'] }), 201);
    const hookB = ok<{ secret: string }>(
      await call(b.key, 'POST', '/webhooks', { url: receiver.url(`/b-${dialect}`), eventTypes: ['tag.created'] }),
      201,
    );
    receiver.secrets.set(`/b-${dialect}`, hookB.secret);
    // A's six deliveries are due before B's first: a queue taken oldest first gives A every slot.
    for (const name of ['A1', 'A2']) ok(await call(a.key, 'POST', '/tags', { name }), 201);
    ok(await call(b.key, 'POST', '/tags', { name: 'B1' }), 201);
    dispatcher = startDispatcher(ctx.runtime.database, ctx.runtime.masterKey, {
      allowPrivate: true,
      pollMs: 25,
      log: silent,
      concurrency: 4,
      perWorkspace: 2,
      perEndpoint: 1,
    });
    const fromB = (count: number) => receiver.waitFor(count, (r) => r.path === `/b-${dialect}`, 5_000);
    await fromB(1);
    await until(() => hanging.held.length >= 2, "two of A's deliveries under way");
    ok(await call(b.key, 'POST', '/tags', { name: 'B2' }), 201);
    const got = await fromB(2);
    expect(got.map((r) => r.event.data.name)).toEqual(['B1', 'B2']);
    // A's sends still hang, and hold its share: two, to two endpoints, whatever else it has due.
    expect(hanging.held).toHaveLength(2);
    expect(new Set(hanging.held.map((h) => h.path)).size).toBe(2);
  });
});
