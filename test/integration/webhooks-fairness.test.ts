import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/database.js';
import type { ErrorBody } from '../helpers/posts.js';
import { webhookSuite } from '../helpers/webhook-suite.js';

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
  const suite = webhookSuite(dialect, { QUIRE_WEBHOOK_ENDPOINTS_MAX: '3' });
  const { call, ok } = suite;
  let hanging: Awaited<ReturnType<typeof startHangingReceiver>>;
  beforeAll(async () => {
    hanging = await startHangingReceiver();
  });
  // Before the suite's own afterEach (hooks run in reverse): a dispatcher stops only once its sends have ended.
  afterEach(() => hanging.release());
  afterAll(() => hanging?.close());
  const until = async (done: () => boolean, what: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('refuses an endpoint past QUIRE_WEBHOOK_ENDPOINTS_MAX with a 409 saying why, even when created at once', async () => {
    const { key } = await suite.ctx.ownerKey();
    const url = suite.receiver.url('/capped');
    const made = await Promise.all(Array.from({ length: 5 }, () => call(key, 'POST', '/webhooks', { url })));
    expect(made.map((response) => response.statusCode).sort()).toEqual([201, 201, 201, 409, 409]);
    const refused = made.find((response) => response.statusCode === 409)!.json() as ErrorBody;
    expect(refused).toMatchObject({ code: 'CONFLICT', details: { reason: 'webhook_endpoints_max', max: 3 } });
    expect(refused.message).toMatch(/has 3 webhook endpoints, the most it may have/);

    // Another workspace has its own three; a deleted endpoint frees its place.
    ok(await call((await suite.ctx.ownerKey()).key, 'POST', '/webhooks', { url }), 201);
    const first = made.find((response) => response.statusCode === 201)!.json() as { id: string };
    ok(await call(key, 'DELETE', `/webhooks/${first.id}`));
    ok(await call(key, 'POST', '/webhooks', { url }), 201);
  });

  it("sends another workspace's event while one workspace's endpoints all hang, holding no more than their share", async () => {
    const a = await suite.ctx.ownerKey();
    const b = await suite.ctx.ownerKey();
    for (let i = 0; i < 3; i += 1)
      ok(await call(a.key, 'POST', '/webhooks', { url: hanging.url(`/a${i}`), eventTypes: ['tag.created'] }), 201);
    const hookB = ok<{ secret: string }>(
      await call(b.key, 'POST', '/webhooks', { url: suite.receiver.url(`/b-${dialect}`), eventTypes: ['tag.created'] }),
      201,
    );
    suite.receiver.secrets.set(`/b-${dialect}`, hookB.secret);
    // A's six deliveries are due before B's first: a queue taken oldest first gives A every slot.
    for (const name of ['A1', 'A2']) ok(await call(a.key, 'POST', '/tags', { name }), 201);
    ok(await call(b.key, 'POST', '/tags', { name: 'B1' }), 201);
    suite.dispatch({
      concurrency: 4,
      perWorkspace: 2,
      perEndpoint: 1,
    });
    const fromB = (count: number) => suite.receiver.waitFor(count, (r) => r.path === `/b-${dialect}`, 5_000);
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
