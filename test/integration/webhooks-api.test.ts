import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandLine } from '../../src/writes/changes.js';
import { contentWrite } from '../../src/writes/content-write.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { NO_SUCH_ID, type ErrorBody, type Json, type Response } from '../helpers/posts.js';
import { queriesOf } from '../helpers/resources.js';
import { FORBIDDEN_FORMS, hostOf, OWN_ADDRESSES, PUBLIC_FORMS, PUBLIC_INTERFACE } from '../helpers/webhook-hosts.js';

interface Webhook {
  id: string;
  url: string;
  description: string;
  eventTypes: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  secret?: string;
}
interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
}
interface Page<T> {
  data: T[];
  total: number;
}

// Built without QUIRE_WEBHOOK_ALLOW_PRIVATE: the production default.
describeEachDialect('the webhooks API and the outbox', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
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
  const refused = (response: Response, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json() as ErrorBody;
    expect(body.details?.issues?.map((issue) => issue.path)).toContain(path);
    return body;
  };
  const create = async (key: string, body: Json) => ok<Webhook>(await call(key, 'POST', '/webhooks', body), 201);
  /** The workspace's deliveries, each with its event's body. */
  const deliveries = (workspaceId: string) =>
    db()
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.event_id', 'webhook_deliveries.event_id')
      .selectAll('webhook_deliveries')
      .select('webhook_events.payload')
      .where('webhook_deliveries.workspace_id', '=', workspaceId)
      .orderBy('webhook_deliveries.created_at')
      .execute();
  const bodiesKept = async (workspaceId: string) =>
    Number(
      (
        await db()
          .selectFrom('webhook_events')
          .select(({ fn }) => fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates an endpoint whose secret is shown at creation, on reveal and on rotation only, stored encrypted', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const created = await create(key, {
      url: 'https://hooks.example.com/quire',
      description: ' Build the site ',
      eventTypes: ['post.published', 'post.deleted'],
    });
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/quire',
      description: 'Build the site',
      eventTypes: ['post.published', 'post.deleted'],
      enabled: true,
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret!.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const row = await db()
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(created.secret!.slice('whsec_'.length, 20));
    expect(row.workspace_id).toBe(workspace.id);

    const read = ok<Webhook>(await call(key, 'GET', `/webhooks/${created.id}`));
    expect(read).not.toHaveProperty('secret');
    expect(ok<Page<Webhook>>(await call(key, 'GET', '/webhooks')).data.map((w) => w.id)).toEqual([created.id]);
    expect(ok<Page<Webhook>>(await call(key, 'GET', '/webhooks')).data[0]).not.toHaveProperty('secret');

    expect(ok<Webhook>(await call(key, 'POST', `/webhooks/${created.id}/reveal-secret`)).secret).toBe(created.secret);
    const rotated = ok<Webhook>(await call(key, 'POST', `/webhooks/${created.id}/rotate-secret`));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(ok<Webhook>(await call(key, 'POST', `/webhooks/${created.id}/reveal-secret`)).secret).toBe(rotated.secret);
    expect(JSON.stringify(ctx.logs)).not.toContain(rotated.secret!.slice('whsec_'.length));

    const patched = ok<Webhook>(
      await call(key, 'PATCH', `/webhooks/${created.id}`, { eventTypes: null, enabled: false }),
    );
    expect(patched).toMatchObject({ eventTypes: null, enabled: false, disabledReason: 'disabled by a user' });
    const enabled = ok<Webhook>(await call(key, 'PATCH', `/webhooks/${created.id}`, { enabled: true }));
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });

    expect(ok<Webhook>(await call(key, 'DELETE', `/webhooks/${created.id}`)).id).toBe(created.id);
    expect((await call(key, 'GET', `/webhooks/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses bad URLs and unknown event types at their paths, and writes nothing', async () => {
    const { key, workspace } = await ctx.ownerKey();
    for (const url of [
      'not a url',
      '/relative',
      'ftp://example.com/hook',
      'javascript:alert(1)',
      'https://user:pass@example.com/hook',
      'https://user@example.com/hook',
      'http://127.0.0.1:8080/hook',
      'http://10.0.0.7/hook',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://224.0.0.1/',
      'http://0.0.0.0/',
      'http://localhost:3000/hook',
      'http://0x7f000001/hook',
    ])
      refused(await call(key, 'POST', '/webhooks', { url }), '/url');
    const unknown = refused(
      await call(key, 'POST', '/webhooks', {
        url: 'https://example.com/',
        eventTypes: ['post.created', 'post.exploded'],
      }),
      '/eventTypes/1',
    );
    expect(unknown.code).toBe('BAD_REQUEST');
    refused(await call(key, 'POST', '/webhooks', { url: 'https://example.com/', eventTypes: [] }), '/eventTypes');
    refused(await call(key, 'POST', '/webhooks', { url: 'https://example.com/', secret: 'whsec_x' }), '/secret');
    expect(
      await db().selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspace.id).execute(),
    ).toEqual([]);
    const endpoint = await create(key, { url: 'https://example.com/' });
    refused(await call(key, 'PATCH', `/webhooks/${endpoint.id}`, { url: 'http://127.0.0.1/' }), '/url');
    expect(ok<Webhook>(await call(key, 'GET', `/webhooks/${endpoint.id}`)).url).toBe('https://example.com/');
  });

  it('refuses every IPv6 form of a private IPv4 address, site-local, and the server’s own addresses at /url', async () => {
    const { key, workspace } = await ctx.ownerKey();
    for (const [address, form] of FORBIDDEN_FORMS) {
      const body = refused(await call(key, 'POST', '/webhooks', { url: `http://${hostOf(address)}/hook` }), '/url');
      expect(body.details, form).toMatchObject({ issues: [{ path: '/url', message: expect.stringMatching(/own/) }] });
    }
    const interfaces = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
    for (const { address } of interfaces)
      refused(await call(key, 'POST', '/webhooks', { url: `https://${hostOf(address)}/hook` }), '/url');
    const spy = vi.spyOn(os, 'networkInterfaces').mockReturnValue(PUBLIC_INTERFACE);
    try {
      for (const address of OWN_ADDRESSES)
        refused(await call(key, 'POST', '/webhooks', { url: `https://${hostOf(address)}/hook` }), '/url');
    } finally {
      spy.mockRestore();
    }
    expect(
      await db().selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspace.id).execute(),
    ).toEqual([]);
    // Read when the URL is checked: once the address is no longer the server's, it is a site like another.
    for (const address of [...PUBLIC_FORMS, ...OWN_ADDRESSES])
      await create(key, { url: `https://${hostOf(address)}/hook` });
  });

  it('needs webhooks:read to read and webhooks:write to change; another workspace’s endpoint is a 404', async () => {
    const { key: ownerKey, workspace } = await ctx.ownerKey();
    const endpoint = await create(ownerKey, { url: 'https://example.com/a' });
    const reader = await ctx.memberKey(['webhooks:read'], workspace);
    const writer = await ctx.memberKey(['webhooks:write'], workspace);
    const neither = await ctx.memberKey(['posts:read', 'posts:write', 'api-keys:write'], workspace);
    expect((await call(reader.key, 'GET', `/webhooks/${endpoint.id}`)).statusCode).toBe(200);
    expect((await call(reader.key, 'GET', `/webhooks/${endpoint.id}/deliveries`)).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/webhooks'],
      ['PATCH', `/webhooks/${endpoint.id}`],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['POST', `/webhooks/${endpoint.id}/reveal-secret`],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
      ['POST', `/webhooks/${endpoint.id}/test`],
    ] as const)
      expect((await call(reader.key, method, url, method === 'DELETE' ? undefined : {})).statusCode, url).toBe(403);
    expect((await call(writer.key, 'GET', '/webhooks')).statusCode).toBe(403);
    expect((await call(neither.key, 'GET', '/webhooks')).statusCode).toBe(403);
    expect(ok<Webhook>(await call(writer.key, 'POST', `/webhooks/${endpoint.id}/reveal-secret`)).secret).toMatch(
      /^whsec_/,
    );

    const other = await ctx.ownerKey();
    for (const [method, url] of [
      ['GET', `/webhooks/${endpoint.id}`],
      ['PATCH', `/webhooks/${endpoint.id}`],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['POST', `/webhooks/${endpoint.id}/reveal-secret`],
      ['POST', `/webhooks/${endpoint.id}/test`],
      ['GET', `/webhooks/${endpoint.id}/deliveries`],
      ['GET', `/webhooks/${NO_SUCH_ID}`],
      ['POST', `/webhooks/${endpoint.id}/deliveries/${NO_SUCH_ID}/redeliver`],
    ] as const) {
      const response = await call(other.key, method, url, method === 'PATCH' ? { description: 'x' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(ok<Webhook>(await call(ownerKey, 'GET', `/webhooks/${endpoint.id}`)).description).toBe('');
  });

  it('queues one delivery per event and subscribed enabled endpoint, in the write’s transaction, carrying the answer', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const all = await create(key, { url: 'https://a.example.com/' });
    const posts = await create(key, { url: 'https://b.example.com/', eventTypes: ['post.created', 'post.deleted'] });
    const pages = await create(key, { url: 'https://c.example.com/', eventTypes: ['page.created'] });
    const off = await create(key, { url: 'https://d.example.com/', enabled: false });

    const post = ok<Json>(await call(key, 'POST', '/posts', { title: 'Hello', bodyJson: [] }), 201);
    const queued = await deliveries(workspace.id);
    expect(queued.map((d) => d.endpoint_id).sort()).toEqual([all.id, posts.id].sort());
    expect(new Set(queued.map((d) => d.event_id)).size).toBe(1);
    const event = JSON.parse(queued[0]!.payload) as { id: string; type: string; timestamp: string; data: Json };
    expect(event).toEqual({ id: queued[0]!.event_id, type: 'post.created', timestamp: expect.any(String), data: post });
    expect(queued.every((d) => d.status === 'pending' && d.payload === queued[0]!.payload)).toBe(true);
    // The body is kept once, whatever the number of endpoints it goes to.
    expect(await bodiesKept(workspace.id)).toBe(1);

    const snapshot = ok<Json>(await call(key, 'DELETE', `/posts/${post.id as string}`));
    const deleted = (await deliveries(workspace.id)).filter((d) => d.event_type === 'post.deleted');
    expect(deleted.map((d) => d.endpoint_id).sort()).toEqual([all.id, posts.id].sort());
    expect((JSON.parse(deleted[0]!.payload) as { data: Json }).data).toEqual(snapshot);
    expect(snapshot.deletedAt).toEqual(expect.any(String));
    expect((await deliveries(workspace.id)).some((d) => d.endpoint_id === pages.id || d.endpoint_id === off.id)).toBe(
      false,
    );
  });

  it('queues nothing for a write that fails, and nothing for a workspace without endpoints', async () => {
    const { key, workspace } = await ctx.ownerKey();
    await create(key, { url: 'https://a.example.com/' });
    const before = (await deliveries(workspace.id)).length;
    const failed = await call(key, 'POST', '/posts', { title: 'x', authorId: NO_SUCH_ID });
    expect(failed.statusCode).toBe(400);
    // The seal runs after the outbox rows are written: its failure rolls them back with the write.
    const sealFails = {
      ...commandLine(workspace.id),
      seal: () => {
        throw new Error('the answer could not be serialized');
      },
    };
    await expect(
      contentWrite(ctx.runtime.database, sealFails, async ({ changed }) => {
        changed({ type: 'tag', id: NO_SUCH_ID, slug: 'x', action: 'created' });
      }),
    ).rejects.toThrow(/could not be serialized/);
    expect((await deliveries(workspace.id)).length).toBe(before);

    const bare = await ctx.ownerKey();
    ok(await call(bare.key, 'POST', '/tags', { name: 'Quiet' }), 201);
    expect(await deliveries(bare.workspace.id)).toEqual([]);
  });

  it('costs a post write a fixed number of statements whatever the number of endpoints', async () => {
    const { key } = await ctx.ownerKey();
    const write = (n: number) => () => call(key, 'POST', '/posts', { title: `Budget ${n}`, bodyJson: [] });
    const costs: number[] = [];
    const counts = [0, 1, 3, 10];
    for (const [index, target] of counts.entries()) {
      const have = index === 0 ? 0 : counts[index - 1]!;
      for (let n = have; n < target; n += 1) await create(key, { url: `https://e${n}.example.com/` });
      await queriesOf(ctx, write(-1)); // warm
      costs.push(await queriesOf(ctx, write(target)));
    }
    // The endpoints are read once per write; the bodies are one insert and the deliveries another, for one
    // endpoint or ten.
    expect(costs[1]).toBe(costs[0]! + 2);
    expect(costs[2]).toBe(costs[1]);
    expect(costs[3]).toBe(costs[1]);
  });

  it('queues a test event and a redelivery, lists deliveries newest first, and drops pending ones with the endpoint', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const endpoint = await create(key, { url: 'https://a.example.com/', eventTypes: ['tag.created'] });
    ok(await call(key, 'POST', '/tags', { name: 'One' }), 201);
    const test = ok<Delivery>(await call(key, 'POST', `/webhooks/${endpoint.id}/test`), 201);
    expect(test).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 });
    const listed = ok<Page<Delivery>>(await call(key, 'GET', `/webhooks/${endpoint.id}/deliveries`));
    expect(listed.total).toBe(2);
    expect(listed.data.map((d) => d.eventType)).toEqual(['webhook.test', 'tag.created']);
    const [, original] = listed.data;
    const again = ok<Delivery>(
      await call(key, 'POST', `/webhooks/${endpoint.id}/deliveries/${original!.id}/redeliver`),
      201,
    );
    expect(again.id).not.toBe(original!.id);
    expect(again).toMatchObject({ eventId: original!.eventId, eventType: 'tag.created', status: 'pending' });
    const rows = await deliveries(workspace.id);
    expect(rows.find((d) => d.id === again.id)?.payload).toBe(rows.find((d) => d.id === original!.id)?.payload);
    // One body for the tag's event (shared by its redelivery) and one for the test event.
    expect(await bodiesKept(workspace.id)).toBe(2);
    const paged = ok<Page<Delivery>>(await call(key, 'GET', `/webhooks/${endpoint.id}/deliveries?pageSize=1&page=2`));
    expect(paged).toMatchObject({ total: 3, data: [{ id: test.id }] });

    ok(await call(key, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: false }));
    expect((await call(key, 'POST', `/webhooks/${endpoint.id}/test`)).statusCode).toBe(400);
    ok(await call(key, 'DELETE', `/webhooks/${endpoint.id}`));
    expect(await deliveries(workspace.id)).toEqual([]);
  });
});

describe('the webhook URL check', () => {
  it('takes a public https URL as written', async () => {
    const { checkWebhookUrl } = await import('../../src/modules/webhooks/webhook-url.js');
    expect(checkWebhookUrl('https://hooks.example.com/a?b=c', false)).toBe('https://hooks.example.com/a?b=c');
    expect(checkWebhookUrl('http://127.0.0.1:9/a', true)).toBe('http://127.0.0.1:9/a');
  });
});
