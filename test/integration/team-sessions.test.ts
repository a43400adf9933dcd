import { afterAll, beforeAll, expect, it } from 'vitest';
import { sessionListQuery } from '../../src/modules/dashboard/sessions.repository.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import {
  browserFrom,
  send,
  signedInOwner,
  signInRequest,
  userWithPassword,
  type Browser,
} from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { queryPlan } from '../helpers/query-plan.js';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';

type Json = Record<string, unknown>;

describeEachDialect('sessions: seen and ended by their user, or by the owner', (dialect) => {
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ owner, workspaceId } = await signedInOwner(ctx));
  });
  afterAll(() => ctx?.close());

  const signInFrom = async (user: { email: string; password: string }, ip: string, userAgent: string) =>
    browserFrom(
      await signInRequest(ctx, user.email, user.password, { remoteAddress: ip, headers: { 'user-agent': userAgent } }),
    );
  const alive = async (browser: Browser) => (await send(ctx, browser, 'GET', '/session')).statusCode === 200;

  it('lists a user’s own sessions, newest seen first, with device and address, the current one marked', async () => {
    const user = await userWithPassword(ctx);
    const laptop = await signInFrom(user, '10.0.0.1', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0');
    const phone = await signInFrom(user, '10.0.0.2', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1');
    const listed = (await send(ctx, phone, 'GET', '/sessions')).json() as Json[];
    expect(listed).toHaveLength(2);
    expect(listed.map((s) => [s.ip, s.current])).toEqual(
      expect.arrayContaining([
        ['10.0.0.1', false],
        ['10.0.0.2', true],
      ]),
    );
    expect(listed.find((s) => s.current)?.userAgent).toMatch(/iPhone/);
    // Nobody else's.
    expect(((await send(ctx, owner, 'GET', '/sessions')).json() as Json[]).every((s) => s.ip !== '10.0.0.1')).toBe(
      true,
    );

    const laptopId = listed.find((s) => !s.current)!.id as string;
    expect((await send(ctx, owner, 'DELETE', `/sessions/${laptopId}`)).statusCode).toBe(404);
    expect(await alive(laptop)).toBe(true);
    expect((await send(ctx, phone, 'DELETE', `/sessions/${laptopId}`)).json()).toEqual({ ended: 1 });
    expect(await alive(laptop)).toBe(false);
    expect(await alive(phone)).toBe(true);

    const ownId = listed.find((s) => s.current)!.id as string;
    const out = await send(ctx, phone, 'DELETE', `/sessions/${ownId}`);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/quire_session=;/);
    expect(await alive(phone)).toBe(false);
  });

  it('leaves out a session that has expired, though it stays in the table until a sign-in sweeps it', async () => {
    const user = await userWithPassword(ctx);
    await signInFrom(user, '10.4.0.1', 'old laptop');
    const here = await signInFrom(user, '10.4.0.2', 'new laptop');
    await ctx.runtime.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .where('ip', '=', '10.4.0.1')
      .execute();
    expect(((await send(ctx, here, 'GET', '/sessions')).json() as Json[]).map((s) => s.ip)).toEqual(['10.4.0.2']);
  });

  it('signs out everywhere else', async () => {
    const user = await userWithPassword(ctx);
    const others = [await signInFrom(user, '10.1.0.1', 'a'), await signInFrom(user, '10.1.0.2', 'b')];
    const here = await signInFrom(user, '10.1.0.3', 'c');
    expect((await send(ctx, here, 'POST', '/sessions/end-others')).json()).toEqual({ ended: 2 });
    for (const other of others) expect(await alive(other)).toBe(false);
    expect(await alive(here)).toBe(true);
  });

  it('the owner ends a member’s sessions; an admin may not; removing a member ends them too', async () => {
    const user = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspaceId, user.email, ['posts:read'], COMMAND_LINE);
    const member = await signInFrom(user, '10.2.0.1', 'x');
    const admin = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspaceId, admin.email, ['members:write'], COMMAND_LINE);
    const adminBrowser = await signInFrom(admin, '10.2.0.2', 'y');

    const path = `/workspaces/${workspaceId}/members/${user.id}/end-sessions`;
    expect((await send(ctx, adminBrowser, 'POST', path)).statusCode).toBe(403);
    expect(await alive(member)).toBe(true);
    expect((await send(ctx, owner, 'POST', path)).json()).toEqual({ ended: 1 });
    expect(await alive(member)).toBe(false);
    const stranger = await userWithPassword(ctx);
    expect(
      (await send(ctx, owner, 'POST', `/workspaces/${workspaceId}/members/${stranger.id}/end-sessions`)).statusCode,
    ).toBe(404);

    const again = await signInFrom(user, '10.2.0.1', 'x');
    expect(await alive(again)).toBe(true);
    expect((await send(ctx, adminBrowser, 'DELETE', `/workspaces/${workspaceId}/members/${user.id}`)).statusCode).toBe(
      200,
    );
    expect(await alive(again)).toBe(false);
  });

  it('lists from the user’s index in the list’s order, in as many queries however many sessions (query plan)', async () => {
    const db = ctx.runtime.database.db;
    const plan = await queryPlan(db, dialect, sessionListQuery(db, owner.user.id, new Date().toISOString()));
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/SEARCH sessions USING INDEX sessions_user_seen_idx \(user_id=\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } else {
      expect(plan).toMatch(/Index Scan Backward using sessions_user_seen_idx/);
      expect(plan).not.toMatch(/Sort\b/);
    }
    const user = await userWithPassword(ctx);
    const here = await signInFrom(user, '10.3.0.1', 'z');
    const stats = ctx.runtime.database.stats;
    const cost = async () => {
      const before = stats.queries;
      await send(ctx, here, 'GET', '/sessions');
      return stats.queries - before;
    };
    const one = await cost();
    for (const n of [1, 2, 3]) await signInFrom(user, `10.3.0.${n + 1}`, 'z');
    expect(await cost()).toBe(one);
  });
});
