import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { send, signIn, userWithPassword } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachDialect('a site settings change with a webhook for every event', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  it('is saved, and its event carries the settings as the API reads them, logo included', async () => {
    const user = await userWithPassword(ctx);
    const owner = await signIn(ctx, user);
    const workspace = (await send(ctx, owner, 'POST', '/workspaces', { name: 'Hooked' })).json() as Json;
    const hook = await send(ctx, owner, 'POST', `/workspaces/${workspace.id}/webhooks`, {
      url: 'https://hooks.example.com/all',
    });
    expect(hook.statusCode, hook.body).toBe(201);

    const saved = await send(ctx, owner, 'PATCH', `/workspaces/${workspace.id}/settings`, { siteName: 'Hooked site' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as Json).siteName).toBe('Hooked site');

    const events = await ctx.runtime.database.db
      .selectFrom('webhook_events')
      .select(['event_type', 'payload'])
      .where('workspace_id', '=', workspace.id)
      .execute();
    const settingsEvent = events.find((event) => event.event_type === 'site-settings.updated');
    expect(JSON.parse(settingsEvent!.payload).data).toMatchObject({ siteName: 'Hooked site', logo: null });
  });
});
