import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import {
  browserFrom,
  DASHBOARD,
  send,
  sessionCookieOf,
  signIn,
  signInRequest,
  userWithPassword,
  type Browser,
} from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { accountsRepository } from '../../src/modules/accounts/accounts.repository.js';
import { createPasswords } from '../../src/security/password.js';
import { accountDelayMs, MAX_ACCOUNT_DELAY_MS } from '../../src/modules/dashboard/sign-in-throttle.js';

const WRONG_PAIR = { code: 'UNAUTHORIZED', message: 'The email or password is not right', details: null };

describeEachDialect('dashboard sessions', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const setupBody = { email: 'First@Example.com', password: 'correct horse battery', workspaceName: 'My site' };

  describe('first-run setup', () => {
    it('is offered while no user exists, refuses bad input and foreign origins, then signs the first user in', async () => {
      expect((await send(ctx, null, 'GET', '/setup')).json()).toEqual({ needed: true });

      const short = await send(ctx, null, 'POST', '/setup', { ...setupBody, password: 'short' });
      expect(short.statusCode).toBe(400);
      expect(short.json().details.issues[0].path).toBe('/password');
      const badEmail = await send(ctx, null, 'POST', '/setup', { ...setupBody, email: 'not-an-email' });
      expect(badEmail.statusCode).toBe(400);
      expect(badEmail.json().details.issues[0].path).toBe('/email');
      const foreign = await send(ctx, null, 'POST', '/setup', setupBody, { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().details).toEqual({ reason: 'origin' });
      expect((await send(ctx, null, 'GET', '/setup')).json()).toEqual({ needed: true });

      // Two racing first runs: exactly one wins, the other finds setup already done.
      const raced = await Promise.all(
        [0, 1].map(() => send(ctx, null, 'POST', '/setup', setupBody, { origin: 'http://localhost:80' })),
      );
      expect(raced.map((response) => response.statusCode).sort()).toEqual([201, 404]);
      const done = raced.find((response) => response.statusCode === 201)!;
      expect(await ctx.runtime.database.db.selectFrom('workspaces').select('id').execute()).toHaveLength(1);
      const session = done.json();
      expect(session.user.email).toBe('first@example.com');
      expect(session.workspaces).toHaveLength(1);
      expect(session.workspaces[0]).toMatchObject({
        name: 'My site',
        slug: 'my-site',
        isOwner: true,
        ownerUserId: session.user.id,
      });
      expect(session.workspaces[0].permissions).toContain('api-keys:write');
      const browser = browserFrom(done);
      expect((await send(ctx, browser, 'GET', '/session')).json()).toEqual(session);
    });

    it('is gone once a user exists: GET says not needed, POST is a 404', async () => {
      expect((await send(ctx, null, 'GET', '/setup')).json()).toEqual({ needed: false });
      const again = await send(ctx, null, 'POST', '/setup', { ...setupBody, email: 'second@example.com' });
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('NOT_FOUND');
      const users = await ctx.runtime.database.db.selectFrom('users').select('email').execute();
      expect(users.map((user) => user.email)).toEqual(['first@example.com']);
    });
  });

  describe('sign in and out', () => {
    it('signs in, reads the session, signs out; the old cookie is then refused', async () => {
      const browser = await signIn(ctx, { email: 'FIRST@example.com ', password: setupBody.password });
      expect(browser.user.email).toBe('first@example.com');
      expect((await send(ctx, browser, 'GET', '/session')).statusCode).toBe(200);

      const out = await send(ctx, browser, 'DELETE', '/session');
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ signedOut: true });
      const cleared = sessionCookieOf(out);
      expect(cleared?.value).toBe('');
      expect(cleared?.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      const after = await send(ctx, browser, 'GET', '/session');
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('UNAUTHORIZED');
    });

    it('answers a wrong password and an unknown email with the identical 401, in comparable time', async () => {
      const user = await userWithPassword(ctx);
      const timed = async (email: string, attempt: number) => {
        const started = performance.now();
        const response = await signInRequest(ctx, email, 'not the password', { remoteAddress: `10.1.0.${attempt}` });
        return { response, ms: performance.now() - started };
      };
      // Three of each, alternated, under the throttle's free failures; the fastest of each is compared, as other
      // work on the machine (another test file) only ever adds time to a sample.
      const wrongs = [];
      const unknowns = [];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        wrongs.push(await timed(user.email, attempt));
        unknowns.push(await timed('nobody@example.com', attempt));
      }
      const [wrong, unknown] = [wrongs[0]!, unknowns[0]!];
      for (const answer of [...wrongs, ...unknowns]) {
        expect(answer.response.statusCode).toBe(401);
        expect(answer.response.body).toBe(wrong.response.body);
      }
      expect(wrong.response.json()).toEqual(WRONG_PAIR);
      // A password hash is checked either way; without one the unknown email would answer in ~1 ms.
      const fastest = (samples: Array<{ ms: number }>) => Math.min(...samples.map((sample) => sample.ms));
      expect(fastest(unknowns)).toBeGreaterThan(fastest(wrongs) * 0.4);
      expect(sessionCookieOf(unknown.response)).toBeUndefined();
    });

    it('does not sign in a user who has no password', async () => {
      const user = await ctx.createUser();
      const response = await signInRequest(ctx, user.email, '', { remoteAddress: '10.1.0.2' });
      expect(response.json()).toEqual(WRONG_PAIR);
    });

    it('hashes a password anew at sign-in when its hash is weaker than the cost set, never weaker', async () => {
      const storedN = async (id: string) => {
        const row = await ctx.runtime.database.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return Number(row.password_hash!.split('$')[1]);
      };
      const rehashed = async (cost: number) => {
        const user = await userWithPassword(ctx);
        const hash = await createPasswords(cost).hash(user.password);
        await accountsRepository.setUserPassword(ctx.runtime.database.db, user.id, hash, new Date().toISOString());
        await signIn(ctx, user, '10.1.0.3');
        const after = await storedN(user.id);
        await signIn(ctx, user, '10.1.0.3');
        return after;
      };
      // The tests' server hashes at 2^10 (TEST_PASSWORD_COST).
      expect(await rehashed(9)).toBe(2 ** 10);
      expect(await rehashed(11)).toBe(2 ** 11);
    });

    it('signing in again from a browser replaces the session it held', async () => {
      const user = await userWithPassword(ctx);
      const first = await signIn(ctx, user);
      const second = await signInRequest(ctx, user.email, user.password, { headers: { cookie: first.cookie } });
      expect(second.statusCode).toBe(200);
      expect((await send(ctx, first, 'GET', '/session')).statusCode).toBe(401);
      expect((await send(ctx, browserFrom(second), 'GET', '/session')).statusCode).toBe(200);
    });
  });

  describe('sign-in throttling', () => {
    it('5 failures for an account from one address refuse that address (429, Retry-After); the owner elsewhere signs in at once', async () => {
      const user = await userWithPassword(ctx);
      for (let i = 0; i < 5; i += 1) {
        expect((await signInRequest(ctx, user.email, 'wrong', { remoteAddress: '10.2.0.1' })).statusCode).toBe(401);
      }
      const refused = await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.2.0.1' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(sessionCookieOf(refused)).toBeUndefined();

      // The attack was from 10.2.0.1: the owner at 10.2.0.2 is not held up by it.
      const owner = await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.2.0.2' });
      expect(owner.statusCode).toBe(200);
      expect(sessionCookieOf(owner)).toBeDefined();
      expect((await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.2.0.1' })).statusCode).toBe(429);

      // Refused attempts do not extend the refusal; fifteen minutes after the failures it lifts.
      await ctx.runtime.database.db
        .updateTable('sign_in_attempts')
        .set({ attempted_at: new Date(Date.now() - 16 * 60_000).toISOString() })
        .execute();
      expect((await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.2.0.1' })).statusCode).toBe(200);
    });

    it('failures at one account from many addresses refuse each of them but never lock its owner out', async () => {
      const user = await userWithPassword(ctx);
      const attackers = Array.from({ length: 6 }, (_, i) => `10.6.0.${i + 1}`);
      const guesses = await Promise.all(
        attackers.map(async (address) => {
          const statuses: number[] = [];
          for (let i = 0; i < 5; i += 1)
            statuses.push((await signInRequest(ctx, user.email, `wrong-${i}`, { remoteAddress: address })).statusCode);
          return statuses;
        }),
      );
      // 30 failures at the account: the owner's right password from an address of theirs still signs in (after a
      // delay of at most MAX_ACCOUNT_DELAY_MS), and a newcomer's wrong one is a 401, not a refusal.
      const owner = await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.6.1.1' });
      expect(owner.statusCode).toBe(200);
      expect(guesses.flat()).toEqual(Array(30).fill(401));
      for (const address of attackers) {
        const again = await signInRequest(ctx, user.email, user.password, { remoteAddress: address });
        expect(again.statusCode).toBe(429);
        expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await signInRequest(ctx, user.email, 'wrong', { remoteAddress: '10.6.1.2' })).statusCode).toBe(401);
      expect(accountDelayMs(Number.MAX_SAFE_INTEGER)).toBe(MAX_ACCOUNT_DELAY_MS);
    }, 60_000);

    it('a success clears the account count, so failures do not pile up across good sign-ins', async () => {
      const user = await userWithPassword(ctx);
      for (let round = 0; round < 2; round += 1) {
        for (let i = 0; i < 4; i += 1) await signInRequest(ctx, user.email, 'wrong', { remoteAddress: '10.3.0.1' });
        expect((await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.3.0.1' })).statusCode).toBe(
          200,
        );
      }
    });

    it('after 20 failures from one address, that address gets 429 for every account; others are unaffected', async () => {
      const address = '10.4.0.1';
      for (let i = 0; i < 20; i += 1) {
        const response = await signInRequest(ctx, `guess${i % 4}@example.com`, `wrong-${i}`, {
          remoteAddress: address,
        });
        expect(response.statusCode).toBe(401);
      }
      const user = await userWithPassword(ctx);
      const locked = await signInRequest(ctx, user.email, user.password, { remoteAddress: address });
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.4.0.2' })).statusCode).toBe(200);
    });

    it('stores neither emails nor addresses in the attempts table', async () => {
      const rows = await ctx.runtime.database.db.selectFrom('sign_in_attempts').select('key').execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('CSRF and origin', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await signIn(ctx, await userWithPassword(ctx));
    });

    it('a state-changing request without or with a wrong X-CSRF-Token is 403 csrf; with it, it runs', async () => {
      for (const token of [undefined, 'wrong', `${browser.csrfToken}x`, '']) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: `${DASHBOARD}/workspaces`,
          headers: { cookie: browser.cookie, ...(token === undefined ? {} : { 'x-csrf-token': token }) },
          payload: { name: 'Forged' },
        });
        expect(response.statusCode, String(token)).toBe(403);
        expect(response.json()).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'csrf' } });
      }
      const forgedOut = await ctx.app.inject({
        method: 'DELETE',
        url: `${DASHBOARD}/session`,
        headers: { cookie: browser.cookie },
      });
      expect(forgedOut.json().details).toEqual({ reason: 'csrf' });
      expect((await send(ctx, browser, 'GET', '/session')).statusCode).toBe(200);
      expect((await send(ctx, browser, 'POST', '/workspaces', { name: 'Real' })).statusCode).toBe(201);
    });

    it('another session’s CSRF token does not do', async () => {
      const other = await signIn(ctx, await userWithPassword(ctx));
      const response = await send(
        ctx,
        browser,
        'POST',
        '/workspaces',
        { name: 'Mixed' },
        { 'x-csrf-token': other.csrfToken },
      );
      expect(response.statusCode).toBe(403);
    });

    it('sign-in refuses a cross-site Origin or Referer, and a form post', async () => {
      const user = await userWithPassword(ctx);
      const foreign: Array<Record<string, string>> = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { referer: 'https://evil.example/page' },
      ];
      for (const headers of foreign) {
        const response = await signInRequest(ctx, user.email, user.password, { headers });
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.json().details).toEqual({ reason: 'origin' });
      }
      for (const origin of ['http://127.0.0.1:3000', 'http://localhost']) {
        expect((await signInRequest(ctx, user.email, user.password, { headers: { origin } })).statusCode, origin).toBe(
          200,
        );
      }
      const form = await ctx.app.inject({
        method: 'POST',
        url: `${DASHBOARD}/session`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`,
      });
      expect(form.statusCode).toBe(400);
      expect(sessionCookieOf(form)).toBeUndefined();
    });
  });

  describe('the session cookie', () => {
    it('is HttpOnly, SameSite=Lax, Path=/ and not Secure over http, even when a client claims https', async () => {
      const user = await userWithPassword(ctx);
      const claims: Array<Record<string, string>> = [{}, { 'x-forwarded-proto': 'https' }];
      for (const headers of claims) {
        const cookie = sessionCookieOf(await signInRequest(ctx, user.email, user.password, { headers }))!;
        expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(cookie.raw).toContain('HttpOnly');
        expect(cookie.raw).toContain('SameSite=Lax');
        expect(cookie.raw).toContain('Path=/');
        expect(cookie.raw).toContain('Max-Age=1209600');
        expect(cookie.raw).not.toContain('Secure');
      }
    });

    it('stores only the sha256 of the token', async () => {
      const user = await userWithPassword(ctx);
      const browser = await signIn(ctx, user);
      const token = browser.cookie.split('=')[1]!;
      const rows = await ctx.runtime.database.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]!.token_hash).not.toContain(token);
    });
  });

  describe('password change', () => {
    it('ends every session of the user and starts a fresh one for the caller', async () => {
      const user = await userWithPassword(ctx);
      const here = await signIn(ctx, user);
      const elsewhere = await signIn(ctx, user);

      const wrong = await send(ctx, here, 'POST', '/password', {
        currentPassword: 'nope',
        newPassword: 'a brand new password',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().details.issues[0].path).toBe('/currentPassword');
      const tooShort = await send(ctx, here, 'POST', '/password', {
        currentPassword: user.password,
        newPassword: 'short',
      });
      expect(tooShort.statusCode).toBe(400);

      const changed = await send(ctx, here, 'POST', '/password', {
        currentPassword: user.password,
        newPassword: 'a brand new password',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const fresh = browserFrom(changed);
      expect(fresh.cookie).not.toBe(here.cookie);
      expect(fresh.csrfToken).not.toBe(here.csrfToken);
      expect((await send(ctx, here, 'GET', '/session')).statusCode).toBe(401);
      expect((await send(ctx, elsewhere, 'GET', '/session')).statusCode).toBe(401);
      expect((await send(ctx, fresh, 'GET', '/session')).statusCode).toBe(200);
      expect((await send(ctx, fresh, 'POST', '/workspaces', { name: 'After change' })).statusCode).toBe(201);

      expect((await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.5.0.1' })).statusCode).toBe(401);
      expect(
        (await signInRequest(ctx, user.email, 'a brand new password', { remoteAddress: '10.5.0.1' })).statusCode,
      ).toBe(200);
    });
  });

  describe('expiry', () => {
    it('an expired session is refused, its row removed and its cookie cleared', async () => {
      const user = await userWithPassword(ctx);
      const browser = await signIn(ctx, user);
      const db = ctx.runtime.database.db;
      await db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', user.id)
        .execute();
      const response = await send(ctx, browser, 'GET', '/session');
      expect(response.statusCode).toBe(401);
      expect(sessionCookieOf(response)?.value).toBe('');
      expect(await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('slides: a request more than a minute after the last pushes the expiry 14 days out and resends the cookie', async () => {
      const user = await userWithPassword(ctx);
      const browser = await signIn(ctx, user);
      const db = ctx.runtime.database.db;
      const quiet = await send(ctx, browser, 'GET', '/session');
      expect(sessionCookieOf(quiet)).toBeUndefined();

      const soon = new Date(Date.now() + 60_000).toISOString();
      await db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(Date.now() - 120_000).toISOString(), expires_at: soon })
        .where('user_id', '=', user.id)
        .execute();
      const slid = await send(ctx, browser, 'GET', '/session');
      expect(slid.statusCode).toBe(200);
      expect(sessionCookieOf(slid)?.raw).toContain('Max-Age=1209600');
      const row = await db
        .selectFrom('sessions')
        .select('expires_at')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Date.parse(row.expires_at)).toBeGreaterThan(Date.now() + 13 * 24 * 3600_000);
    });
  });

  describe('an API key is no way in', () => {
    it('X-API-Key alone gets 401 on every dashboard route', async () => {
      const { workspace, key, keyId } = await ctx.ownerKey();
      const w = `/workspaces/${workspace.id}`;
      const routes: Array<[string, string]> = [
        ['GET', '/session'],
        ['DELETE', '/session'],
        ['POST', '/password'],
        ['GET', '/workspaces'],
        ['POST', '/workspaces'],
        ['PATCH', w],
        ['GET', `${w}/settings`],
        ['PATCH', `${w}/settings`],
        ['GET', `${w}/members`],
        ['POST', `${w}/members`],
        ['PATCH', `${w}/members/${workspace.owner.id}`],
        ['DELETE', `${w}/members/${workspace.owner.id}`],
        ['POST', `${w}/transfer`],
        ['GET', `${w}/api-keys`],
        ['POST', `${w}/api-keys`],
        ['PATCH', `${w}/api-keys/${keyId}`],
        ['POST', `${w}/api-keys/${keyId}/reveal`],
        ['POST', `${w}/api-keys/${keyId}/revoke`],
        ...['posts', 'posts/x', 'pages', 'media', 'authors', 'categories', 'tags', 'redirects', 'link-health'].map(
          (r): [string, string] => ['GET', `${w}/${r}`],
        ),
        ['GET', '/no-such-route'],
      ];
      for (const [method, path] of routes) {
        const response = await ctx.app.inject({
          method: method as 'GET',
          url: `${DASHBOARD}${path}`,
          headers: { 'x-api-key': key },
          payload: {},
        });
        expect(response.statusCode, `${method} ${path}`).toBe(401);
        expect(response.json().message).toBe('Sign in to use the dashboard');
      }
      const row = await ctx.runtime.database.db
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).toBeNull();
    });

    it('dashboard routes do not exist under /api/v1/external', async () => {
      const { key } = await ctx.ownerKey();
      for (const path of ['/dashboard/session', '/dashboard/setup', '/session', '/setup', '/workspaces']) {
        expect((await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}${path}` })).statusCode, path).toBe(401);
        const keyed = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}${path}`, headers: { 'x-api-key': key } });
        expect(keyed.statusCode, path).toBe(404);
        expect(keyed.json().code).toBe('NOT_FOUND');
      }
    });
  });

  it('no password, session token or CSRF token ever reaches a log line', async () => {
    const user = await userWithPassword(ctx, 'a very secret password');
    const browser = await signIn(ctx, user);
    await send(ctx, browser, 'POST', '/password', {
      currentPassword: 'a very secret password',
      newPassword: 'another secret password',
    });
    const logged = JSON.stringify(ctx.logs);
    for (const secret of [
      'a very secret password',
      'another secret password',
      browser.cookie.split('=')[1]!,
      browser.csrfToken,
      setupBody.password,
    ]) {
      expect(logged).not.toContain(secret);
    }
  });
});

describeEachDialect('dashboard sessions behind a trusted proxy', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_TRUST_PROXY: 'true', QUIRE_RATE_LIMIT_MAX: '2' } });
  });
  afterAll(() => ctx?.close());

  it('marks the cookie Secure when the proxy says the request came over https', async () => {
    const user = await userWithPassword(ctx);
    const response = await signInRequest(ctx, user.email, user.password, {
      headers: { 'x-forwarded-proto': 'https', origin: 'https://localhost:80' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(sessionCookieOf(response)!.raw).toMatch(/; Secure/);
  });

  it('is not subject to the external rate limit', async () => {
    const user = await userWithPassword(ctx);
    const browser = await signIn(ctx, user);
    for (let i = 0; i < 5; i += 1) {
      const response = await send(ctx, browser, 'GET', '/session');
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
    expect((await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/api-keys` })).headers['ratelimit-limit']).toBe('2');
  });
});
