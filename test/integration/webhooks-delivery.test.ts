import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { deliveriesRepository } from '../../src/modules/webhooks/dispatch/deliveries.repository.js';
import {
  startDispatcher,
  type Dispatcher,
  type DispatcherOptions,
} from '../../src/modules/webhooks/dispatch/dispatcher.js';
import { pruneDeliveries } from '../../src/writes/event-retention.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, png, uploadMedia } from '../helpers/media.js';
import type { Json, Response } from '../helpers/posts.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

interface Webhook {
  id: string;
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
}
interface Attempt {
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  createdAt: string;
}
interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  attemptLog: Attempt[];
}

const FAST_RETRY = { baseMs: 40, factor: 2, maxDelayMs: 400, maxAttempts: 4 };
// Delays long enough that their growth shows through a loaded machine's scheduling: 200, 600, 1800 ms.
const GROWING_RETRY = { baseMs: 200, factor: 3, maxDelayMs: 10_000, maxAttempts: 4 };
const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

// QUIRE_WEBHOOK_ALLOW_PRIVATE lets the endpoints name the loopback receiver; the dispatchers say for themselves.
describeEachDialect('webhook deliveries to a real receiver', (dialect) => {
  let ctx: TestContext;
  let receiver: Receiver;
  const dispatchers: Dispatcher[] = [];
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    receiver.answer = () => ({ status: 204 });
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  const dispatch = (options: Partial<DispatcherOptions> = {}) => {
    const dispatcher = startDispatcher(ctx.runtime.database, ctx.runtime.masterKey, {
      allowPrivate: true,
      retry: FAST_RETRY,
      pollMs: 25,
      log: silent,
      ...options,
    });
    dispatchers.push(dispatcher);
    return dispatcher;
  };
  const call = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
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
  let paths = 0;
  /** An endpoint at a path of its own on the receiver, which verifies its requests with its secret. */
  const endpoint = async (key: string, body: Json = {}, url?: string) => {
    paths += 1;
    const path = `/hook-${dialect}-${paths}`;
    const created = ok<Webhook>(await call(key, 'POST', '/webhooks', { url: url ?? receiver.url(path), ...body }), 201);
    receiver.secrets.set(path, created.secret);
    return { ...created, path };
  };
  const deliveries = async (key: string, id: string) =>
    ok<{ data: Delivery[] }>(await call(key, 'GET', `/webhooks/${id}/deliveries?pageSize=100`)).data;
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it('delivers every event type of every resource, signed so that standardwebhooks verifies it, deletions with the snapshot', async () => {
    const { key } = await ctx.ownerKey();
    const hook = await endpoint(key);
    dispatch();
    const expected: Array<{ type: string; data: Json }> = [];
    const expect200 = async (type: string, response: Response, status = 200) =>
      void expected.push({ type, data: ok<Json>(response, status) });

    const author = ok<Json>(await call(key, 'POST', '/authors', { displayName: 'Ada' }), 201);
    expected.push({ type: 'author.created', data: author });
    await expect200('author.updated', await call(key, 'PATCH', `/authors/${author.id as string}`, { bio: 'Hi' }));
    const category = ok<Json>(await call(key, 'POST', '/categories', { name: 'News' }), 201);
    expected.push({ type: 'category.created', data: category });
    await expect200(
      'category.updated',
      await call(key, 'PATCH', `/categories/${category.id as string}`, { name: 'All news' }),
    );
    const tag = ok<Json>(await call(key, 'POST', '/tags', { name: 'Go' }), 201);
    expected.push({ type: 'tag.created', data: tag });
    await expect200('tag.updated', await call(key, 'PATCH', `/tags/${tag.id as string}`, { name: 'Golang' }));
    const media = ok<Json>(await uploadMedia(ctx, key, [filePart(png(2, 2), 'a.png', 'image/png')]), 201);
    expected.push({ type: 'media.created', data: media });

    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Hello', bodyJson: [] }), 201);
    expected.push({ type: 'post.created', data: post });
    const id = post.id as string;
    await expect200('post.updated', await call(key, 'PATCH', `/posts/${id}`, { title: 'Hello again' }));
    await expect200('post.published', await call(key, 'PATCH', `/posts/${id}`, { status: 'published' }));
    await expect200('post.unpublished', await call(key, 'PATCH', `/posts/${id}`, { status: 'draft' }));
    await expect200('post.updated', await call(key, 'POST', `/posts/${id}/tags`, { tagIds: [tag.id] }));
    await expect200('post.deleted', await call(key, 'DELETE', `/posts/${id}`));

    const page = ok<Json>(await call(key, 'POST', '/pages', { title: 'About', bodyJson: [] }), 201);
    expected.push({ type: 'page.created', data: page });
    await expect200('page.updated', await call(key, 'PATCH', `/pages/${page.id as string}`, { title: 'About us' }));
    await expect200('page.published', await call(key, 'PATCH', `/pages/${page.id as string}`, { status: 'published' }));
    await expect200('page.unpublished', await call(key, 'PATCH', `/pages/${page.id as string}`, { status: 'draft' }));
    await expect200('page.deleted', await call(key, 'DELETE', `/pages/${page.id as string}`));

    const redirect = ok<Json>(await call(key, 'POST', '/redirects', { fromPath: '/a', toPath: '/b' }), 201);
    expected.push({ type: 'redirect.created', data: redirect });
    await expect200(
      'redirect.updated',
      await call(key, 'PATCH', `/redirects/${redirect.id as string}`, { toPath: '/c' }),
    );
    await expect200('redirect.deleted', await call(key, 'DELETE', `/redirects/${redirect.id as string}`));
    await expect200('tag.deleted', await call(key, 'DELETE', `/tags/${tag.id as string}`));
    await expect200('category.deleted', await call(key, 'DELETE', `/categories/${category.id as string}`));
    await expect200('author.deleted', await call(key, 'DELETE', `/authors/${author.id as string}`));
    await expect200('media.deleted', await call(key, 'DELETE', `/media/${media.id as string}`));

    const got = await receiver.waitFor(expected.length, (r) => r.path === hook.path);
    expect(got.map((r) => r.verifyError)).toEqual(expected.map(() => null));
    // One event at a time may overtake another when several are sent at once; each type and body arrives.
    const byBody = (entries: Array<{ type: string; data: unknown }>) =>
      entries.map((entry) => JSON.stringify([entry.type, entry.data])).sort();
    expect(byBody(got.map((r) => r.event))).toEqual(byBody(expected));
    for (const r of got) {
      expect(r.event.id).toBe(r.id);
      expect(r.event.timestamp).toMatch(/Z$/);
    }
    const deletedPost = got.find((r) => r.event.type === 'post.deleted')!;
    expect(deletedPost.event.data).toMatchObject({ id, title: 'Hello again', deletedAt: expect.any(String) });
    const done = await until(
      () => deliveries(key, hook.id),
      (list) => list.length === expected.length && list.every((d) => d.status === 'succeeded'),
    );
    expect(done[0]!.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 204, error: null, durationMs: expect.any(Number) }),
    ]);
  });

  it('retries with growing delays, records each attempt with the answer’s first 2 KB, then fails the delivery', async () => {
    const { key } = await ctx.ownerKey();
    const hook = await endpoint(key, { eventTypes: ['tag.created'] });
    receiver.answer = () => ({ status: 503, body: 'x'.repeat(5000) });
    dispatch({ retry: GROWING_RETRY });
    ok(await call(key, 'POST', '/tags', { name: 'Flaky' }), 201);
    const [failed] = await until(
      () => deliveries(key, hook.id),
      (list) => list[0]?.status === 'failed',
      20_000,
    );
    expect(failed!.attempts).toBe(GROWING_RETRY.maxAttempts);
    expect(failed!.attemptLog.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
      [4, 503],
    ]);
    expect(failed!.attemptLog.every((a) => a.responseExcerpt === 'x'.repeat(2048))).toBe(true);
    const arrivals = receiver.received.filter((r) => r.path === hook.path).map((r) => r.at);
    expect(arrivals).toHaveLength(4);
    const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]!);
    // 200, 600, 1800 ms with ±25 % jitter: each gap at least the smallest its attempt allows.
    gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(0.75 * 200 * 3 ** index - 5));
    expect(ok<Webhook>(await call(key, 'GET', `/webhooks/${hook.id}`))).toMatchObject({
      enabled: true,
      failingSince: expect.any(String),
    });
    receiver.answer = () => ({ status: 200 });
    ok(await call(key, 'POST', `/webhooks/${hook.id}/test`), 201);
    await until(
      async () => ok<Webhook>(await call(key, 'GET', `/webhooks/${hook.id}`)),
      (webhook) => webhook.failingSince === null,
    );
  });

  it('disables an endpoint that answers 410, and one failing for longer than allowed, saying why', async () => {
    const { key } = await ctx.ownerKey();
    const gone = await endpoint(key, { eventTypes: ['tag.created'] });
    const failing = await endpoint(key, { eventTypes: ['tag.created'] });
    receiver.answer = (path) => ({ status: path === gone.path ? 410 : 500 });
    dispatch({ disableAfterMs: 250, retry: { baseMs: 100, factor: 1, maxDelayMs: 100, maxAttempts: 50 } });
    ok(await call(key, 'POST', '/tags', { name: 'Gone' }), 201);
    const goneNow = await until(
      async () => ok<Webhook>(await call(key, 'GET', `/webhooks/${gone.id}`)),
      (webhook) => !webhook.enabled,
    );
    expect(goneNow.disabledReason).toMatch(/410/);
    const failingNow = await until(
      async () => ok<Webhook>(await call(key, 'GET', `/webhooks/${failing.id}`)),
      (webhook) => !webhook.enabled,
    );
    expect(failingNow.disabledReason).toMatch(/every attempt has failed since/);
    // A disabled endpoint is sent nothing more, and queues nothing for later writes.
    const before = receiver.received.filter((r) => r.path === gone.path).length;
    ok(await call(key, 'POST', '/tags', { name: 'After' }), 201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((r) => r.path === gone.path)).toHaveLength(before);
    // The 410's delivery is failed, not retried; the failing endpoint's stays pending, to resume if re-enabled.
    expect((await deliveries(key, gone.id)).map((d) => d.status)).toEqual(['failed']);
    expect((await deliveries(key, failing.id)).map((d) => d.status)).toEqual(['pending']);
  });

  it('does not follow a redirect, and gives up on a receiver that does not answer in time', async () => {
    const { key } = await ctx.ownerKey();
    const moved = await endpoint(key, { eventTypes: ['tag.created'] });
    const slow = await endpoint(key, { eventTypes: ['tag.created'] });
    receiver.answer = (path) =>
      path === moved.path
        ? { status: 307, headers: { location: receiver.url('/elsewhere') } }
        : path === slow.path
          ? { status: 200, delayMs: 1_000 }
          : { status: 200 };
    dispatch({ timeoutMs: 200, retry: { ...FAST_RETRY, maxAttempts: 1 } });
    ok(await call(key, 'POST', '/tags', { name: 'Moved' }), 201);
    const [redirected] = await until(
      () => deliveries(key, moved.id),
      (list) => list[0]?.status === 'failed',
    );
    expect(redirected!.attemptLog[0]).toMatchObject({ statusCode: 307, error: null });
    const [timedOut] = await until(
      () => deliveries(key, slow.id),
      (list) => list[0]?.status === 'failed',
    );
    expect(timedOut!.attemptLog[0]).toMatchObject({ statusCode: null, error: 'no complete answer within 200 ms' });
    expect(timedOut!.attemptLog[0]!.durationMs).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received.some((r) => r.path === '/elsewhere')).toBe(false);
  });

  it('refuses loopback at delivery without the flag, on the address connected to after DNS', async () => {
    const { key } = await ctx.ownerKey();
    const port = new URL(receiver.url('/')).port;
    const named = await endpoint(key, { eventTypes: ['tag.created'] }, `http://localhost:${port}/by-name`);
    const literal = await endpoint(key, { eventTypes: ['tag.created'] }, `http://127.0.0.1:${port}/by-address`);
    const mapped = await endpoint(key, { eventTypes: ['tag.created'] }, `http://[::ffff:7f00:1]:${port}/mapped`);
    dispatch({ allowPrivate: false, retry: { ...FAST_RETRY, maxAttempts: 1 } });
    ok(await call(key, 'POST', '/tags', { name: 'Private' }), 201);
    for (const hook of [named, literal, mapped]) {
      const [refused] = await until(
        () => deliveries(key, hook.id),
        (list) => list[0]?.status === 'failed',
      );
      expect(refused!.attemptLog[0]).toMatchObject({
        statusCode: null,
        error: expect.stringMatching(/refused to connect to/),
      });
    }
    expect(receiver.received.filter((r) => ['/by-name', '/by-address', '/mapped'].includes(r.path))).toEqual([]);
  });

  it('sends a delivery claimed by a process that died once its lease has run out, and not before', async () => {
    const { key } = await ctx.ownerKey();
    const hook = await endpoint(key, { eventTypes: ['tag.created'] });
    ok(await call(key, 'POST', '/tags', { name: 'Orphan' }), 201);
    // A dispatcher claims it with a 1.5 s lease and dies before sending: nothing records an attempt.
    const { database } = ctx.runtime;
    const claimedAt = Date.now();
    const [claimed] = await deliveriesRepository.claim(
      database.db,
      database.dialect,
      new Date(claimedAt).toISOString(),
      new Date(claimedAt + 1_500).toISOString(),
      10,
    );
    expect(claimed?.endpoint_id).toBe(hook.id);
    dispatch();
    const [arrived] = await receiver.waitFor(1, (r) => r.path === hook.path);
    expect(arrived!.at - claimedAt).toBeGreaterThanOrEqual(1_400);
    expect(arrived!.verifyError).toBeNull();
    const [delivery] = await until(
      () => deliveries(key, hook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    // The dead process's claim counted attempt 1; the attempt that was made is number 2.
    expect(delivery!.attemptLog.map((a) => a.attempt)).toEqual([2]);
  });

  it('sends nothing of a deleted endpoint’s pending deliveries', async () => {
    const { key } = await ctx.ownerKey();
    const hook = await endpoint(key, { eventTypes: ['tag.created'] });
    for (const name of ['One', 'Two', 'Three']) ok(await call(key, 'POST', '/tags', { name }), 201);
    ok(await call(key, 'DELETE', `/webhooks/${hook.id}`));
    const control = await endpoint(key, { eventTypes: ['tag.created'] });
    ok(await call(key, 'POST', '/tags', { name: 'Four' }), 201);
    dispatch();
    await receiver.waitFor(1, (r) => r.path === control.path);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.filter((r) => r.path === hook.path)).toEqual([]);
  });

  it('delivers a test event and a redelivery with the same event id and body', async () => {
    const { key } = await ctx.ownerKey();
    const hook = await endpoint(key, { eventTypes: ['tag.created'] });
    dispatch();
    ok(await call(key, 'POST', '/tags', { name: 'Again' }), 201);
    const [first] = await receiver.waitFor(1, (r) => r.path === hook.path);
    const [original] = await until(
      () => deliveries(key, hook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    ok(await call(key, 'POST', `/webhooks/${hook.id}/deliveries/${original!.id}/redeliver`), 201);
    ok(await call(key, 'POST', `/webhooks/${hook.id}/test`), 201);
    const got = await receiver.waitFor(3, (r) => r.path === hook.path);
    const again = got.find((r) => r !== first && r.event.type === 'tag.created')!;
    expect([again.id, again.body]).toEqual([first!.id, first!.body]);
    const test = got.find((r) => r.event.type === 'webhook.test')!;
    expect(test.verifyError).toBeNull();
    expect(test.event.data).toMatchObject({ webhookId: hook.id });
  });

  it('keeps the delivery history for the retention period: ended deliveries and unused bodies go, pending stay', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const hook = await endpoint(key, { eventTypes: ['tag.created'] });
    dispatch();
    ok(await call(key, 'POST', '/tags', { name: 'Kept a while' }), 201);
    await until(
      () => deliveries(key, hook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    ok(await call(key, 'POST', '/tags', { name: 'Still owed' }), 201);
    const bodies = () =>
      ctx.runtime.database.db
        .selectFrom('webhook_events')
        .select('event_type')
        .where('workspace_id', '=', workspace.id)
        .execute();
    expect(await bodies()).toHaveLength(2);

    // Within the retention period nothing goes.
    expect(await pruneDeliveries(ctx.runtime.database, 30)).toEqual({ deliveries: 0, bodies: 0 });
    // Past it, the delivery that ended and its body go; the pending one and its body are still owed.
    const later = Date.now() + 31 * 86_400_000;
    // (Other tests' workspaces share the database: their ended deliveries go too.)
    const pruned = await pruneDeliveries(ctx.runtime.database, 30, later);
    expect(pruned.deliveries).toBeGreaterThanOrEqual(1);
    expect(pruned.bodies).toBeGreaterThanOrEqual(1);
    expect((await deliveries(key, hook.id)).map((d) => d.status)).toEqual(['pending']);
    expect(await bodies()).toHaveLength(1);
    const attempts = await ctx.runtime.database.db
      .selectFrom('webhook_attempts')
      .select('delivery_id')
      .where('workspace_id', '=', workspace.id)
      .execute();
    expect(attempts).toEqual([]);

    // The one still owed is sent, with its body, when a dispatcher runs again.
    dispatch();
    const [owed] = await receiver.waitFor(1, (r) => r.path === hook.path && r.event.data.name === 'Still owed');
    expect(owed!.verifyError).toBeNull();
  });

  // SQLite has one process writing; the sharing of a queue is PostgreSQL's case alone.
  if (dialect === 'postgres')
    it('shares the queue between two dispatchers on one PostgreSQL: every event delivered, duplicates counted', async () => {
      const { key } = await ctx.ownerKey();
      const hook = await endpoint(key, { eventTypes: ['tag.created'] });
      const second = createDatabase({ databaseUrl: ctx.config.databaseUrl, dataDir: ctx.config.dataDir });
      try {
        dispatch({ concurrency: 4 });
        dispatchers.push(
          startDispatcher(second, ctx.runtime.masterKey, {
            allowPrivate: true,
            retry: FAST_RETRY,
            pollMs: 10,
            concurrency: 4,
            log: silent,
          }),
        );
        const count = 60;
        await Promise.all(
          Array.from({ length: count }, (_, index) => call(key, 'POST', '/tags', { name: `Shared ${index}` })),
        );
        const got = await receiver.waitFor(count, (r) => r.path === hook.path, 60_000);
        const ids = new Set(got.map((r) => r.id));
        expect(ids.size).toBe(count);
        await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
        const all = receiver.received.filter((r) => r.path === hook.path);
        // At least once; with leases longer than any send, no event should arrive twice.
        expect(all.length - ids.size).toBe(0);
        const served = await ctx.runtime.database.db
          .selectFrom('webhook_deliveries')
          .select(({ fn }) => fn.countAll<number>().as('n'))
          .where('endpoint_id', '=', hook.id)
          .where('status', '=', 'succeeded')
          .executeTakeFirstOrThrow();
        expect(Number(served.n)).toBe(count);
      } finally {
        await second.close();
      }
    }, 90_000);
});
