import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { browserFrom, send, signIn, signInRequest, userWithPassword } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An authenticator app: RFC 6238 codes of the secret the server gave, at now or a step later. */
const app = (secret: string) => {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return (stepsAhead = 0) => totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
};

describeEachDialect('a second factor at sign-in', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const ok = async (answer: Promise<{ statusCode: number; body: string; json: () => unknown }>, status = 200) => {
    const done = await answer;
    expect(done.statusCode, done.body).toBe(status);
    return done.json() as Json;
  };
  const refusal = async (answer: Promise<{ statusCode: number; json: () => unknown }>) => {
    const done = await answer;
    return { status: done.statusCode, ...(done.json() as Json) } as Json;
  };
  const secondStep = (challenge: string, code: string, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/dashboard/session/second-factor',
      remoteAddress,
      payload: { challenge, code },
    });

  /** A user with an authenticator app set up: their browser, the app, and their recovery codes. */
  async function withApp() {
    const user = await userWithPassword(ctx);
    const browser = await signIn(ctx, user);
    const setup = await ok(send(ctx, browser, 'POST', '/account/second-factor/totp', { password: user.password }));
    const codeOf = app(setup.secret as string);
    const { recoveryCodes } = await ok(
      send(ctx, browser, 'POST', '/account/second-factor/totp/confirm', { code: codeOf() }),
    );
    return { user, browser, codeOf, recoveryCodes: recoveryCodes as string[], secret: setup.secret as string };
  }

  it('sets up an authenticator app with the password and a first right code, and keeps its secret encrypted', async () => {
    const user = await userWithPassword(ctx);
    const browser = await signIn(ctx, user);
    const wrong = await refusal(send(ctx, browser, 'POST', '/account/second-factor/totp', { password: 'nope' }));
    expect([wrong.status, wrong.details.issues[0].path]).toEqual([400, '/password']);

    const setup = await ok(send(ctx, browser, 'POST', '/account/second-factor/totp', { password: user.password }));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toBe(
      `otpauth://totp/Quire:${encodeURIComponent(user.email)}?issuer=Quire&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    // Not on until a code proves the app has it: sign-in stays one step.
    expect((await signInRequest(ctx, user.email, user.password)).statusCode).toBe(200);

    const codeOf = app(setup.secret);
    const bad = await refusal(send(ctx, browser, 'POST', '/account/second-factor/totp/confirm', { code: '000000' }));
    expect([bad.status, bad.details.issues[0].path]).toEqual([400, '/code']);
    const confirmed = await ok(send(ctx, browser, 'POST', '/account/second-factor/totp/confirm', { code: codeOf() }));
    expect(confirmed.recoveryCodes).toHaveLength(10);
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await ok(send(ctx, browser, 'GET', '/account/second-factor'))).toEqual({
      totp: true,
      passkeys: 0,
      recoveryCodesLeft: 10,
      requiredBy: [],
      hasPassword: true,
    });
    const again = await refusal(send(ctx, browser, 'POST', '/account/second-factor/totp', { password: user.password }));
    expect([again.status, again.details.reason]).toEqual([409, 'second_factor_on']);

    const db = ctx.runtime.database.db;
    const stored = JSON.stringify([
      await db.selectFrom('totp_factors').selectAll().where('user_id', '=', user.id).execute(),
      await db.selectFrom('recovery_codes').selectAll().where('user_id', '=', user.id).execute(),
    ]);
    for (const secret of [
      setup.secret,
      ...confirmed.recoveryCodes,
      ...confirmed.recoveryCodes.map((c: string) => c.replace('-', '')),
    ])
      expect(stored).not.toContain(secret);
  });

  it('asks for a code after a right password; a code works once; wrong codes are throttled', async () => {
    const { user, codeOf } = await withApp();
    const first = await signInRequest(ctx, user.email, user.password);
    expect(first.statusCode).toBe(202);
    expect(first.headers['set-cookie']).toBeUndefined();
    const { challenge, secondFactor } = first.json() as Json;
    expect(secondFactor).toBe('totp');

    // The code the setup used is spent; the next step's works, once.
    const replay = await refusal(secondStep(challenge, codeOf(0)));
    expect([replay.status, replay.details.issues[0].path]).toEqual([400, '/code']);
    const fresh = browserFrom(await secondStep(challenge, codeOf(1)));
    expect(fresh.user.id).toBe(user.id);
    expect((await send(ctx, fresh, 'GET', '/session')).statusCode).toBe(200);
    // The challenge is spent with it.
    expect((await refusal(secondStep(challenge, codeOf(1)))).status).toBe(401);
    const next = (await signInRequest(ctx, user.email, user.password)).json() as Json;
    expect((await refusal(secondStep(next.challenge, codeOf(1)))).status).toBe(400);

    // Five wrong codes from one address, then refused for a while, the right code too.
    const other = (await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.6.0.1' })).json() as Json;
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push((await secondStep(other.challenge, '123456', '10.6.0.1')).statusCode);
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('refuses an expired or forged challenge with one answer', async () => {
    const { user, codeOf } = await withApp();
    const { challenge } = (await signInRequest(ctx, user.email, user.password)).json() as Json;
    await ctx.runtime.database.db
      .updateTable('sign_in_challenges')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const answers = await Promise.all(
      [challenge, 'B'.repeat(43), 'nope'].map((c) => refusal(secondStep(c, codeOf(1)))),
    );
    expect(answers.map((a) => [a.status, a.details?.reason])).toEqual([
      [401, 'challenge_expired'],
      [401, 'challenge_expired'],
      [401, 'challenge_expired'],
    ]);
  });

  it('takes each recovery code once, however it is typed, and renews them with the password', async () => {
    const { user, browser, recoveryCodes } = await withApp();
    const challengeOf = async () => ((await signInRequest(ctx, user.email, user.password)).json() as Json).challenge;
    const typed = ` ${recoveryCodes[0]!.toUpperCase().replace('-', ' ')} `;
    browserFrom(await secondStep(await challengeOf(), typed));
    expect((await secondStep(await challengeOf(), recoveryCodes[0]!)).statusCode).toBe(400);
    expect((await ok(send(ctx, browser, 'GET', '/account/second-factor'))).recoveryCodesLeft).toBe(9);

    const renewed = await ok(
      send(ctx, browser, 'POST', '/account/second-factor/recovery-codes', { password: user.password }),
    );
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect((await secondStep(await challengeOf(), recoveryCodes[1]!)).statusCode).toBe(400);
    browserFrom(await secondStep(await challengeOf(), renewed.recoveryCodes[0]));
  });

  it('lets an owner require a second factor: members without one get 403 until they set one up', async () => {
    const { browser: owner } = await withApp();
    const created = await ok(send(ctx, owner, 'POST', '/workspaces', { name: 'Strict' }), 201);
    const workspaceId = created.id as string;
    const member = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspaceId, member.email, ['posts:read'], COMMAND_LINE);
    const memberBrowser = await signIn(ctx, member);
    const requirement = `/workspaces/${workspaceId}/second-factor-requirement`;
    expect((await send(ctx, memberBrowser, 'PUT', requirement, { required: true })).statusCode).toBe(403);

    // An owner without a second factor cannot require one.
    const bare = await userWithPassword(ctx);
    const bareBrowser = await signIn(ctx, bare);
    const bareWorkspace = await ok(send(ctx, bareBrowser, 'POST', '/workspaces', { name: 'Lax' }), 201);
    const refused = await refusal(
      send(ctx, bareBrowser, 'PUT', `/workspaces/${bareWorkspace.id}/second-factor-requirement`, { required: true }),
    );
    expect([refused.status, refused.details.reason]).toEqual([409, 'owner_without_second_factor']);

    const summary = await ok(send(ctx, owner, 'PUT', requirement, { required: true }));
    expect([summary.requireSecondFactor, summary.secondFactorMissing]).toEqual([true, false]);
    const blocked = await refusal(send(ctx, memberBrowser, 'GET', `/workspaces/${workspaceId}/posts`));
    expect([blocked.status, blocked.details.reason]).toEqual([403, 'second_factor_required']);
    const session = await ok(send(ctx, memberBrowser, 'GET', '/session'));
    expect(session.workspaces.find((w: Json) => w.id === workspaceId)).toMatchObject({ secondFactorMissing: true });
    expect((await ok(send(ctx, memberBrowser, 'GET', '/account/second-factor'))).requiredBy).toEqual(['Strict']);

    const setup = await ok(
      send(ctx, memberBrowser, 'POST', '/account/second-factor/totp', { password: member.password }),
    );
    await ok(send(ctx, memberBrowser, 'POST', '/account/second-factor/totp/confirm', { code: app(setup.secret)() }));
    expect((await send(ctx, memberBrowser, 'GET', `/workspaces/${workspaceId}/posts`)).statusCode).toBe(200);

    // While it is required, the member cannot turn theirs off; once it is not, they can.
    const stay = await refusal(
      send(ctx, memberBrowser, 'POST', '/account/second-factor/totp/off', { password: member.password }),
    );
    expect([stay.status, stay.details.reason, stay.details.workspaces]).toEqual([
      409,
      'second_factor_required',
      ['Strict'],
    ]);
    await ok(send(ctx, owner, 'PUT', requirement, { required: false }));
    expect(
      await ok(send(ctx, memberBrowser, 'POST', '/account/second-factor/totp/off', { password: member.password })),
    ).toEqual({
      totp: false,
    });
    expect((await signInRequest(ctx, member.email, member.password)).statusCode).toBe(200);

    // The audit log has each change, and no secret of any of it.
    const log = (await ok(send(ctx, owner, 'GET', `/workspaces/${workspaceId}/audit?limit=200`))).data as Json[];
    const actions = log.map((entry) => entry.action);
    for (const action of [
      'workspace.second_factor_required',
      'second_factor.enabled',
      'second_factor.disabled',
      'session.signed_in',
    ])
      expect(actions).toContain(action);
    expect(log.find((entry) => entry.action === 'second_factor.enabled')).toMatchObject({
      actor: { userId: member.id },
    });
    expect(JSON.stringify(log)).not.toContain(setup.secret);
  });

  it('records a failed second step in the person’s workspaces, and which factor a sign-in took', async () => {
    const { user, browser, codeOf, recoveryCodes } = await withApp();
    const workspace = await ok(send(ctx, browser, 'POST', '/workspaces', { name: 'Logged' }), 201);
    const challengeOf = async () => ((await signInRequest(ctx, user.email, user.password)).json() as Json).challenge;
    await secondStep(await challengeOf(), '999999', '10.6.1.1');
    browserFrom(await secondStep(await challengeOf(), codeOf(1)));
    browserFrom(await secondStep(await challengeOf(), recoveryCodes[0]!));
    const log = (await ok(send(ctx, browser, 'GET', `/workspaces/${workspace.id}/audit?category=session`)))
      .data as Json[];
    expect(log.map((entry) => [entry.action, entry.details.secondFactor ?? null])).toEqual([
      ['session.signed_in', 'recovery_code'],
      ['session.signed_in', 'totp'],
      ['session.second_factor_failed', null],
    ]);
    expect(log[2]).toMatchObject({ actor: { kind: 'anonymous' }, address: '10.6.1.1' });
    expect(JSON.stringify(log)).not.toContain(recoveryCodes[0]);
  });
});
