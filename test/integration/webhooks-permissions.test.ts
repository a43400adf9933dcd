import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/database.js';
import type { ErrorBody, Json, Response } from '../helpers/posts.js';
import { webhookSuite } from '../helpers/webhook-suite.js';

interface Webhook {
  id: string;
  secret: string;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  lastError: string | null;
  skippedReason: string | null;
  attemptLog: unknown[];
}

const WEBHOOKS_ONLY = ['webhooks:read', 'webhooks:write'] as const;

// A webhook carries content to wherever its user points it: it must carry only what that user may read, then.
describeEachDialect('webhooks send what their user may read', (dialect) => {
  const suite = webhookSuite(dialect);
  const { call, ok } = suite;
  const refusedAt = (response: Response) => {
    expect(response.statusCode, response.body).toBe(400);
    return (response.json() as ErrorBody).details?.issues?.map((issue) => issue.path);
  };
  let paths = 0;
  const endpoint = async (key: string, body: Json) => {
    paths += 1;
    const path = `/perm-${dialect}-${paths}`;
    const created = ok<Webhook>(await call(key, 'POST', '/webhooks', { url: suite.receiver.url(path), ...body }), 201);
    suite.receiver.secrets.set(path, created.secret);
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
  const dispatch = () => suite.dispatch();

  it('refuses an endpoint for event types its creator may not read, naming the field', async () => {
    const { key, workspace } = await suite.ctx.memberKey([...WEBHOOKS_ONLY]);
    const url = suite.receiver.url('/never');
    expect(refusedAt(await call(key, 'POST', '/webhooks', { url, eventTypes: ['post.created'] }))).toEqual([
      '/eventTypes/0',
    ]);
    // No list is every type, posts included.
    expect(refusedAt(await call(key, 'POST', '/webhooks', { url }))).toEqual(['/eventTypes']);
    expect(refusedAt(await call(key, 'POST', '/webhooks', { url, eventTypes: null }))).toEqual(['/eventTypes']);

    const reader = await suite.ctx.memberKey([...WEBHOOKS_ONLY, 'tags:read'], workspace);
    const tags = ok<Webhook>(await call(reader.key, 'POST', '/webhooks', { url, eventTypes: ['tag.created'] }), 201);
    expect(
      refusedAt(
        await call(reader.key, 'PATCH', `/webhooks/${tags.id}`, { eventTypes: ['tag.created', 'page.created'] }),
      ),
    ).toEqual(['/eventTypes/1']);
    // Pointing the owner's endpoint elsewhere would take the owner's reach: refused to a key that lacks it.
    const owners = ok<Webhook>(
      await call((await suite.ctx.createKey(workspace, workspace.owner)).key, 'POST', '/webhooks', {
        url,
        eventTypes: ['post.created'],
      }),
      201,
    );
    expect(refusedAt(await call(key, 'PATCH', `/webhooks/${owners.id}`, { url: suite.receiver.url('/mine') }))).toEqual(
      ['/eventTypes/0'],
    );
    expect(ok<Page>(await call(key, 'GET', '/webhooks')).total).toBe(2);
  });

  it('skips, visibly, the events of a type its creator lost the permission to read, and sends them once it is back', async () => {
    const owner = await suite.ctx.ownerKey();
    const member = await suite.ctx.memberKey([...WEBHOOKS_ONLY, 'posts:read'], owner.workspace);
    const hook = await endpoint(member.key, { eventTypes: ['post.created'] });
    await suite.ctx.setPermissions(owner.workspace, member.user, [...WEBHOOKS_ONLY]);
    ok(await call(owner.key, 'POST', '/posts', { title: 'Secret draft', bodyJson: [] }), 201);
    dispatch();
    const [skipped] = await until(
      () => deliveries(member.key, hook.id),
      (list) => list[0]?.status !== 'pending',
    );
    expect(skipped).toMatchObject({
      eventType: 'post.created',
      status: 'failed',
      attempts: 0,
      attemptLog: [],
      skippedReason: "not sent: the endpoint's user lacks posts:read",
    });
    expect(suite.receiver.received.filter((r) => r.path === hook.path)).toEqual([]);

    await suite.ctx.setPermissions(owner.workspace, member.user, [...WEBHOOKS_ONLY, 'posts:read']);
    ok(await call(owner.key, 'POST', '/posts', { title: 'Readable draft', bodyJson: [] }), 201);
    ok(await call(member.key, 'POST', `/webhooks/${hook.id}/deliveries/${skipped!.id}/redeliver`), 201);
    const got = await suite.receiver.waitFor(2, (r) => r.path === hook.path);
    expect(got.map((r) => r.event.data.title).sort()).toEqual(['Readable draft', 'Secret draft']);
    expect(got.every((r) => r.verifyError === null)).toBe(true);
  });

  it('makes whoever repoints an endpoint its user: it sends on their permissions from then on', async () => {
    const owner = await suite.ctx.ownerKey();
    const member = await suite.ctx.memberKey([...WEBHOOKS_ONLY, 'tags:read'], owner.workspace);
    const hook = await endpoint(owner.key, { eventTypes: ['tag.created'] });
    const path = `${hook.path}-moved`;
    suite.receiver.secrets.set(path, hook.secret);
    ok(await call(member.key, 'PATCH', `/webhooks/${hook.id}`, { url: suite.receiver.url(path) }));
    await suite.ctx.setPermissions(owner.workspace, member.user, [...WEBHOOKS_ONLY]);
    ok(await call(owner.key, 'POST', '/tags', { name: 'Owner only' }), 201);
    dispatch();
    const [skipped] = await until(
      () => deliveries(owner.key, hook.id),
      (list) => list[0]?.status !== 'pending',
    );
    expect(skipped?.skippedReason).toBe("not sent: the endpoint's user lacks tags:read");
    expect(suite.receiver.received.filter((r) => r.path === path)).toEqual([]);
  });

  it('skips the events of an endpoint whose creator left the workspace', async () => {
    const owner = await suite.ctx.ownerKey();
    const member = await suite.ctx.memberKey([...WEBHOOKS_ONLY, 'tags:read'], owner.workspace);
    const hook = await endpoint(member.key, { eventTypes: ['tag.created'] });
    await suite.ctx.runtime.database.db
      .deleteFrom('memberships')
      .where('workspace_id', '=', owner.workspace.id)
      .where('user_id', '=', member.user.id)
      .execute();
    ok(await call(owner.key, 'POST', '/tags', { name: 'Hidden' }), 201);
    dispatch();
    const [skipped] = await until(
      () => deliveries(owner.key, hook.id),
      (list) => list[0]?.status !== 'pending',
    );
    expect(skipped?.skippedReason).toBe("not sent: the endpoint's user is no longer a member of the workspace");
    expect(suite.receiver.received.filter((r) => r.path === hook.path)).toEqual([]);
  });
});

interface Page {
  total: number;
}
