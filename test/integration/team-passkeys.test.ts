import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { browserFrom, send, signIn, signInRequest, userWithPassword, type Browser } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { softwareAuthenticator, type Bend, type SoftwareAuthenticator } from '../helpers/software-authenticator.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ORIGIN = 'http://localhost:3000';

describeEachDialect('passkeys', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_PUBLIC_URL: ORIGIN } });
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
  const anonymousPost = (url: string, payload?: unknown, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/dashboard${url}`,
      remoteAddress,
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });

  /** Adds a passkey from Account, as the dashboard does: the password, the options, the authenticator's answer. */
  async function addPasskey(
    browser: Browser,
    password: string,
    authenticator: SoftwareAuthenticator,
    name?: string,
    bend: Bend = {},
  ) {
    const options = await ok(send(ctx, browser, 'POST', '/account/passkeys/registration', { password }));
    const credential = authenticator.create(options, bend);
    return send(ctx, browser, 'POST', '/account/passkeys', { credential, ...(name ? { name } : {}) });
  }

  /** A user with one passkey (their first second factor): their browser, authenticator and recovery codes. */
  async function withPasskey() {
    const user = await userWithPassword(ctx);
    const browser = await signIn(ctx, user);
    const authenticator = softwareAuthenticator(ORIGIN);
    const added = await ok(addPasskey(browser, user.password, authenticator, 'Laptop'), 201);
    return { user, browser, authenticator, added };
  }

  /** The second step with a passkey: a right password's challenge, its options, the authenticator's assertion. */
  async function secondStep(
    authenticator: SoftwareAuthenticator,
    challenge: string,
    bend: Bend = {},
    remoteAddress = '127.0.0.1',
  ) {
    const options = await ok(anonymousPost('/session/second-factor/passkey/options', { challenge }, remoteAddress));
    const credential = authenticator.get(options, bend);
    return anonymousPost('/session/second-factor/passkey', { challenge, credential }, remoteAddress);
  }

  const passwordless = async (authenticator: SoftwareAuthenticator, bend: Bend = {}, remoteAddress = '127.0.0.1') => {
    const options = await ok(anonymousPost('/session/passkey/options', undefined, remoteAddress));
    return anonymousPost('/session/passkey', { credential: authenticator.get(options, bend) }, remoteAddress);
  };

  it('adds a passkey with the password for this host, lists, renames and removes it; the first comes with recovery codes', async () => {
    const user = await userWithPassword(ctx);
    const browser = await signIn(ctx, user);
    const authenticator = softwareAuthenticator(ORIGIN);
    const wrong = await refusal(send(ctx, browser, 'POST', '/account/passkeys/registration', { password: 'nope' }));
    expect([wrong.status, wrong.details.issues[0].path]).toEqual([400, '/password']);

    const options = await ok(send(ctx, browser, 'POST', '/account/passkeys/registration', { password: user.password }));
    expect(options.rp).toEqual({ name: 'Quire', id: 'localhost' });
    expect(options.user.name).toBe(user.email);
    expect(options.attestation).toBe('none');
    const first = await ok(
      send(ctx, browser, 'POST', '/account/passkeys', { credential: authenticator.create(options) }),
      201,
    );
    expect(first.passkey).toMatchObject({ name: 'Passkey', lastUsedAt: null, synced: false });
    expect(first.recoveryCodes).toHaveLength(10);
    const status = await ok(send(ctx, browser, 'GET', '/account/second-factor'));
    expect(status).toEqual({ totp: false, passkeys: 1, recoveryCodesLeft: 10, requiredBy: [], hasPassword: true });

    // A second one: the first is excluded from its options, and no new recovery codes.
    const again = await ok(send(ctx, browser, 'POST', '/account/passkeys/registration', { password: user.password }));
    expect(again.excludeCredentials.map((c: Json) => c.id)).toEqual([authenticator.held[0]!.id.toString('base64url')]);
    const second = await ok(
      send(
        ctx,
        browser,
        'POST',
        '/account/passkeys',
        { credential: authenticator.create(again), name: 'Phone' },
        { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' },
      ),
      201,
    );
    expect(second.recoveryCodes).toBeUndefined();
    const list = await ok(send(ctx, browser, 'GET', '/account/passkeys'));
    expect(list.map((p: Json) => p.name)).toEqual(['Passkey', 'Phone']);
    expect(Object.keys(list[0]).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'synced']);

    const renamed = await ok(send(ctx, browser, 'PATCH', `/account/passkeys/${list[0].id}`, { name: ' Work laptop ' }));
    expect(renamed.name).toBe('Work laptop');
    const badRemove = await refusal(
      send(ctx, browser, 'POST', `/account/passkeys/${list[1].id}/remove`, { password: 'nope' }),
    );
    expect([badRemove.status, badRemove.details.issues[0].path]).toEqual([400, '/password']);
    expect(
      await ok(send(ctx, browser, 'POST', `/account/passkeys/${list[1].id}/remove`, { password: user.password })),
    ).toEqual({ removed: true });
    expect((await send(ctx, browser, 'PATCH', `/account/passkeys/${list[1].id}`, { name: 'x' })).statusCode).toBe(404);
    // Someone else's passkey is not found.
    const stranger = await signIn(ctx, await userWithPassword(ctx));
    expect((await send(ctx, stranger, 'PATCH', `/account/passkeys/${list[0].id}`, { name: 'x' })).statusCode).toBe(404);

    // The last one gone: no second factor, no recovery codes, sign-in is one step again.
    await ok(send(ctx, browser, 'POST', `/account/passkeys/${list[0].id}/remove`, { password: user.password }));
    expect(await ok(send(ctx, browser, 'GET', '/account/second-factor'))).toMatchObject({
      passkeys: 0,
      recoveryCodesLeft: 0,
    });
    expect((await signInRequest(ctx, user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses a registration that answers no challenge of this account, or for another origin or host', async () => {
    const user = await userWithPassword(ctx);
    const browser = await signIn(ctx, user);
    const authenticator = softwareAuthenticator(ORIGIN);
    for (const bend of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { challenge: 'AAAA' }]) {
      const refused = await refusal(addPasskey(browser, user.password, authenticator, undefined, bend));
      expect([refused.status, refused.details.issues[0].path]).toEqual([400, '/credential']);
    }
    // Another account's ceremony cannot be finished here.
    const other = await userWithPassword(ctx);
    const otherBrowser = await signIn(ctx, other);
    const options = await ok(
      send(ctx, otherBrowser, 'POST', '/account/passkeys/registration', { password: other.password }),
    );
    const stolen = await refusal(
      send(ctx, browser, 'POST', '/account/passkeys', { credential: authenticator.create(options) }),
    );
    expect(stolen.status).toBe(400);
    expect((await ok(send(ctx, browser, 'GET', '/account/passkeys'))).length).toBe(0);
  });

  it('signs in with the password and then a passkey; the answer names the factors the account has', async () => {
    const { user, authenticator } = await withPasskey();
    const first = await signInRequest(ctx, user.email, user.password);
    expect(first.statusCode).toBe(202);
    const { challenge, secondFactor, factors } = first.json() as Json;
    expect([secondFactor, factors]).toEqual(['passkey', ['passkey']]);

    const options = await ok(anonymousPost('/session/second-factor/passkey/options', { challenge }));
    expect(options.allowCredentials).toHaveLength(1);
    expect(options.rpId).toBe('localhost');
    const fresh = browserFrom(
      await anonymousPost('/session/second-factor/passkey', { challenge, credential: authenticator.get(options) }),
    );
    expect(fresh.user.id).toBe(user.id);
    expect((await send(ctx, fresh, 'GET', '/session')).statusCode).toBe(200);
    expect((await ok(send(ctx, fresh, 'GET', '/account/passkeys')))[0].lastUsedAt).not.toBeNull();
    // The sign-in's challenge is spent with it.
    expect((await refusal(anonymousPost('/session/second-factor/passkey/options', { challenge }))).details.reason).toBe(
      'challenge_expired',
    );

    // With an authenticator app too, both are offered, the app first (as older clients expect).
    const setup = await ok(send(ctx, fresh, 'POST', '/account/second-factor/totp', { password: user.password }));
    const totp = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const confirmed = await ok(
      send(ctx, fresh, 'POST', '/account/second-factor/totp/confirm', { code: totp.generate() }),
    );
    const both = (await signInRequest(ctx, user.email, user.password)).json() as Json;
    expect([both.secondFactor, both.factors]).toEqual(['totp', ['totp', 'passkey']]);
    browserFrom(await secondStep(authenticator, both.challenge));
    // Renewed with the app: the codes the passkey brought stop.
    expect(confirmed.recoveryCodes).toHaveLength(10);
  });

  it('takes a recovery code in place of a passkey', async () => {
    const { user, added } = await withPasskey();
    const { challenge } = (await signInRequest(ctx, user.email, user.password)).json() as Json;
    const signedIn = browserFrom(
      await anonymousPost('/session/second-factor', { challenge, code: added.recoveryCodes[0] }),
    );
    expect((await ok(send(ctx, signedIn, 'GET', '/account/second-factor'))).recoveryCodesLeft).toBe(9);
  });

  it('refuses every wrong assertion with one answer, counts it against the throttle, and keeps the challenge', async () => {
    const { user, authenticator } = await withPasskey();
    const address = '10.7.0.1';
    const { challenge } = (
      await signInRequest(ctx, user.email, user.password, { remoteAddress: address })
    ).json() as Json;

    const bends: Bend[] = [
      { wrongKey: true },
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { challenge: 'dGhpcyBpcyBub3QgYSBjaGFsbGVuZ2U' },
      { credentialId: Buffer.from('a credential nobody made') },
    ];
    const answers = [];
    for (const bend of bends) answers.push(await refusal(secondStep(authenticator, challenge, bend, address)));
    expect(answers.map((a) => [a.status, a.details.reason, a.message])).toEqual(
      bends.map(() => [401, 'passkey_refused', 'This passkey was not accepted']),
    );
    // Five failures from this address: the next try is refused, even a right one.
    expect((await secondStep(authenticator, challenge, {}, address)).statusCode).toBe(429);
    // From elsewhere, the same challenge still signs in.
    browserFrom(await secondStep(authenticator, challenge, {}, '10.7.0.2'));
  });

  it('takes each ceremony once, and not after it expired', async () => {
    const { user, authenticator } = await withPasskey();
    const challengeOf = async () => ((await signInRequest(ctx, user.email, user.password)).json() as Json).challenge;

    // Replayed: an assertion that signed in once does not sign in again, under a new sign-in either.
    const challenge = await challengeOf();
    const options = await ok(anonymousPost('/session/second-factor/passkey/options', { challenge }));
    const credential = authenticator.get(options);
    browserFrom(await anonymousPost('/session/second-factor/passkey', { challenge, credential }));
    const next = await challengeOf();
    const replay = await refusal(anonymousPost('/session/second-factor/passkey', { challenge: next, credential }));
    expect([replay.status, replay.details.reason]).toEqual([401, 'passkey_refused']);

    // Expired: options older than their five minutes.
    const later = await ok(anonymousPost('/session/second-factor/passkey/options', { challenge: next }));
    await ctx.runtime.database.db
      .updateTable('webauthn_challenges')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const expired = await refusal(
      anonymousPost('/session/second-factor/passkey', { challenge: next, credential: authenticator.get(later) }),
    );
    expect([expired.status, expired.details.reason]).toEqual([401, 'passkey_refused']);

    // Passwordless options are not a second step's, nor the other way round.
    const loose = await ok(anonymousPost('/session/passkey/options'));
    const crossed = await refusal(
      anonymousPost('/session/second-factor/passkey', {
        challenge: next,
        credential: authenticator.get({ ...loose, allowCredentials: [] }),
      }),
    );
    expect(crossed.details.reason).toBe('passkey_refused');
    // A forged sign-in challenge is the code step's answer.
    const forged = await refusal(
      anonymousPost('/session/second-factor/passkey/options', { challenge: 'B'.repeat(43) }),
    );
    expect([forged.status, forged.details.reason]).toEqual([401, 'challenge_expired']);
  });

  it('signs in without a password with a passkey that verified its holder; wrong ones are throttled by address', async () => {
    const { user, authenticator } = await withPasskey();
    const options = await ok(anonymousPost('/session/passkey/options'));
    expect([options.userVerification, options.allowCredentials, options.rpId]).toEqual([
      'required',
      undefined,
      'localhost',
    ]);
    const signedIn = browserFrom(await anonymousPost('/session/passkey', { credential: authenticator.get(options) }));
    expect(signedIn.user).toEqual({ id: user.id, email: user.email });

    // Presence alone is not enough without a password.
    const unverified = await refusal(passwordless(authenticator, { unverified: true }));
    expect([unverified.status, unverified.details.reason]).toEqual([401, 'passkey_refused']);
    // An older counter (a cloned authenticator) is refused.
    const cloned = await refusal(passwordless(authenticator, { counter: 1 }));
    expect(cloned.details.reason).toBe('passkey_refused');

    // A passkey unknown here, from one address: five refusals, then 429.
    const address = '10.7.1.1';
    const statuses = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push(
        (await passwordless(authenticator, { credentialId: Buffer.from(`unknown ${i}`) }, address)).statusCode,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('counts a passkey as a second factor for a workspace that requires one', async () => {
    const { user: owner, browser: ownerBrowser } = await withPasskey();
    const workspace = await ok(send(ctx, ownerBrowser, 'POST', '/workspaces', { name: 'Keyed' }), 201);
    const requirement = `/workspaces/${workspace.id}/second-factor-requirement`;
    const summary = await ok(send(ctx, ownerBrowser, 'PUT', requirement, { required: true }));
    expect([summary.requireSecondFactor, summary.secondFactorMissing]).toEqual([true, false]);

    const member = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspace.id, member.email, ['posts:read'], COMMAND_LINE);
    const memberBrowser = await signIn(ctx, member);
    expect((await send(ctx, memberBrowser, 'GET', `/workspaces/${workspace.id}/posts`)).statusCode).toBe(403);
    const authenticator = softwareAuthenticator(ORIGIN);
    const added = await ok(addPasskey(memberBrowser, member.password, authenticator, 'Key'), 201);
    expect((await send(ctx, memberBrowser, 'GET', `/workspaces/${workspace.id}/posts`)).statusCode).toBe(200);

    // Signed in without a password, the member is let in.
    const passwordlessBrowser = browserFrom(await passwordless(authenticator));
    const session = await ok(send(ctx, passwordlessBrowser, 'GET', '/session'));
    expect(session.workspaces.find((w: Json) => w.id === workspace.id).secondFactorMissing).toBe(false);
    expect((await send(ctx, passwordlessBrowser, 'GET', `/workspaces/${workspace.id}/posts`)).statusCode).toBe(200);

    // Their last second factor stays while the workspace requires one.
    const stay = await refusal(
      send(ctx, memberBrowser, 'POST', `/account/passkeys/${added.passkey.id}/remove`, { password: member.password }),
    );
    expect([stay.status, stay.details.reason, stay.details.workspaces]).toEqual([
      409,
      'second_factor_required',
      ['Keyed'],
    ]);
    // The owner's authenticator app can go while a passkey stays.
    const setup = await ok(
      send(ctx, ownerBrowser, 'POST', '/account/second-factor/totp', { password: owner.password }),
    );
    const totp = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await ok(send(ctx, ownerBrowser, 'POST', '/account/second-factor/totp/confirm', { code: totp.generate() }));
    await ok(send(ctx, ownerBrowser, 'POST', '/account/second-factor/totp/off', { password: owner.password }));
    expect((await ok(send(ctx, ownerBrowser, 'GET', '/account/second-factor'))).recoveryCodesLeft).toBe(10);
  });

  it('records passkeys in the audit log without key material, challenges or credentials', async () => {
    const { user, browser, authenticator, added } = await withPasskey();
    const workspace = await ok(send(ctx, browser, 'POST', '/workspaces', { name: 'Audited' }), 201);
    const second = await ok(addPasskey(browser, user.password, authenticator, 'Spare'), 201);
    // Read while both are kept: the one removed below is searched for too.
    const stored = await ctx.runtime.database.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(2);
    const { challenge } = (await signInRequest(ctx, user.email, user.password)).json() as Json;
    await secondStep(authenticator, challenge, { wrongKey: true }, '10.7.2.1');
    const options = await ok(anonymousPost('/session/second-factor/passkey/options', { challenge }));
    const assertion = authenticator.get(options);
    browserFrom(await anonymousPost('/session/second-factor/passkey', { challenge, credential: assertion }));
    browserFrom(await passwordless(authenticator));
    await ok(send(ctx, browser, 'POST', `/account/passkeys/${second.passkey.id}/remove`, { password: user.password }));

    const log = (await ok(send(ctx, browser, 'GET', `/workspaces/${workspace.id}/audit?limit=200`))).data as Json[];
    const described = log.map((entry) => [
      entry.action,
      entry.details.secondFactor ?? entry.details.via ?? entry.details.name ?? null,
    ]);
    expect(described.slice(0, 5)).toEqual([
      ['passkey.removed', 'Spare'],
      ['session.signed_in', 'passkey'],
      ['session.signed_in', 'passkey'],
      ['session.second_factor_failed', 'passkey'],
      ['passkey.added', 'Spare'],
    ]);
    const rows = JSON.stringify(
      await ctx.runtime.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('workspace_id', '=', workspace.id)
        .execute(),
    );
    const secrets = [
      ...stored.flatMap((row) => [row.credential_id, row.public_key]),
      options.challenge,
      assertion.response.signature,
      assertion.response.clientDataJSON,
      ...added.recoveryCodes,
    ];
    for (const secret of secrets) {
      expect(JSON.stringify(log)).not.toContain(secret);
      expect(rows).not.toContain(secret);
    }
    // Challenges are kept as their hashes only.
    const challenges = JSON.stringify(
      await ctx.runtime.database.db.selectFrom('webauthn_challenges').selectAll().execute(),
    );
    expect(challenges).not.toContain(options.challenge);
  });

  it('takes the sign-in routes from the dashboard’s own pages only, and the account’s with the CSRF token', async () => {
    const { browser } = await withPasskey();
    for (const url of ['/session/passkey/options', '/session/second-factor/passkey/options']) {
      const crossSite = await refusal(
        ctx.app.inject({
          method: 'POST',
          url: `/api/v1/dashboard${url}`,
          headers: { origin: 'https://evil.example' },
          payload: { challenge: 'x' },
        }),
      );
      expect([crossSite.status, crossSite.details.reason], url).toEqual([403, 'origin']);
    }
    const ours = await anonymousPost('/session/passkey/options');
    expect(ours.statusCode).toBe(200);
    const noToken = await refusal(
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/dashboard/account/passkeys/registration',
        headers: { cookie: browser.cookie },
        payload: { password: 'x' },
      }),
    );
    expect([noToken.status, noToken.details.reason]).toEqual([403, 'csrf']);
  });

  it('answers bad input with 400 and the JSON Pointer of the field, never a 500', async () => {
    const { browser, authenticator, added } = await withPasskey();
    const options = await ok(anonymousPost('/session/passkey/options'));
    const good = authenticator.get(options);
    const cases: Array<[string, Json, string]> = [
      ['/session/passkey', { credential: { ...good, id: 'not base64url!' } }, '/credential/id'],
      [
        '/session/passkey',
        { credential: { ...good, response: { ...good.response, signature: undefined } } },
        '/credential/response/signature',
      ],
      ['/session/passkey', { credential: { ...good, type: 'password' } }, '/credential/type'],
      ['/session/passkey', { credential: good, extra: 1 }, '/extra'],
      ['/session/second-factor/passkey', { credential: good }, '/challenge'],
    ];
    for (const [url, payload, path] of cases) {
      const answer = await refusal(anonymousPost(url, JSON.parse(JSON.stringify(payload))));
      expect([answer.status, answer.details.issues.map((i: Json) => i.path)], url).toEqual([400, [path]]);
    }
    // Well-formed but not WebAuthn's data: the one refusal, not a 500.
    const garbage = await refusal(
      anonymousPost('/session/passkey', {
        credential: {
          ...good,
          response: { ...good.response, clientDataJSON: 'bm90IGpzb24', authenticatorData: 'AAAA' },
        },
      }),
    );
    expect([garbage.status, garbage.details.reason]).toEqual([401, 'passkey_refused']);
    const badName = await refusal(
      send(ctx, browser, 'PATCH', `/account/passkeys/${added.passkey.id}`, { name: '   ' }),
    );
    expect([badName.status, badName.details.issues[0].path]).toEqual([400, '/name']);
    const badId = await refusal(send(ctx, browser, 'PATCH', '/account/passkeys/not-a-uuid', { name: 'x' }));
    expect(badId.status).toBe(400);
    const noCredential = await refusal(send(ctx, browser, 'POST', '/account/passkeys', { name: 'x' }));
    expect([noCredential.status, noCredential.details.issues[0].path]).toEqual([400, '/credential']);
  });
});
