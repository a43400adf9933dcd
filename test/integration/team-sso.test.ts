import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/security/roles.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { send, sessionCookieOf, signIn, userWithPassword, type Browser } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  signOnAt,
  startForgingProvider,
  startOpenIdProvider,
  type RunningProvider,
  type TokenFault,
} from '../helpers/oidc.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PUBLIC_URL = 'https://cms.example.com';
const REDIRECT_URI = `${PUBLIC_URL}/api/v1/dashboard/oidc/callback`;

const sso = (issuer: string, domains = '') => ({
  QUIRE_PUBLIC_URL: PUBLIC_URL,
  QUIRE_OIDC_ISSUER: issuer,
  QUIRE_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
  QUIRE_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
  QUIRE_OIDC_NAME: 'Corp ID',
  QUIRE_OIDC_DOMAINS: domains,
});

/** The browser a sign-on's callback answer makes: its cookie, and the CSRF token its session reads. */
async function browserOf(ctx: TestContext, callback: { headers: Record<string, unknown> }): Promise<Browser | null> {
  const cookie = sessionCookieOf(callback as never);
  if (!cookie) return null;
  const session = await ctx.app.inject({
    method: 'GET',
    url: '/api/v1/dashboard/session',
    headers: { cookie: `quire_session=${cookie.value}` },
  });
  const body = session.json() as Json;
  return { cookie: `quire_session=${cookie.value}`, csrfToken: body.csrfToken, user: body.user };
}

describeEachDialect('single sign-on through a real OpenID provider', (dialect) => {
  let provider: RunningProvider;
  let ctx: TestContext;
  beforeAll(async () => {
    provider = await startOpenIdProvider(REDIRECT_URI);
    ctx = await buildTestApp(dialect, { env: sso(provider.issuer, 'corp.example=newsroom:editor') });
  });
  afterAll(async () => {
    await ctx?.close();
    await provider?.close();
  });

  const start = async () => {
    const started = await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard/oidc/start' });
    expect(started.statusCode, started.body).toBe(302);
    return started.headers.location as string;
  };
  const callback = (url: URL) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/dashboard/oidc/callback${url.search}`, remoteAddress: '10.5.0.5' });

  it('offers the button, signs a new person on, and joins them to their domain’s workspace as its role', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard/capabilities' })).json()).toMatchObject({
      sso: { name: 'Corp ID' },
    });
    const owner = await userWithPassword(ctx);
    const ownerBrowser = await signIn(ctx, owner);
    const workspace = (await send(ctx, ownerBrowser, 'POST', '/workspaces', { name: 'Newsroom' })).json() as Json;
    expect(workspace.slug).toBe('newsroom');

    const location = await start();
    const authorization = new URL(location);
    expect(authorization.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: OIDC_CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      code_challenge_method: 'S256',
    });
    const returned = await signOnAt(location, REDIRECT_URI, 'ada@corp.example');
    const answer = await callback(returned);
    expect(answer.statusCode, answer.body).toBe(302);
    // The request line is logged without the login in flight.
    const logged = JSON.stringify(ctx.logs);
    expect(logged).toContain('/api/v1/dashboard/oidc/callback?');
    for (const name of ['code', 'state']) expect(logged).not.toContain(returned.searchParams.get(name)!);
    expect(answer.headers.location).toBe('/dashboard/');
    const ada = await browserOf(ctx, answer);
    expect(ada?.user.email).toBe('ada@corp.example');

    const members = (await send(ctx, ownerBrowser, 'GET', `/workspaces/${workspace.id}/members`)).json() as Json[];
    expect(new Set(members.find((member) => member.email === 'ada@corp.example')?.permissions)).toEqual(
      new Set(ROLES.editor),
    );
    // Made without a password: no password signs in as them.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/dashboard/session',
          payload: { email: 'ada@corp.example', password: '' },
        })
      ).statusCode,
    ).toBe(401);

    // A second sign-on is the same account, and joins nothing twice.
    const again = await callback(await signOnAt(await start(), REDIRECT_URI, 'ada@corp.example'));
    expect((await browserOf(ctx, again))?.user.id).toBe(ada!.user.id);
    const log = (
      await send(ctx, ownerBrowser, 'GET', `/workspaces/${workspace.id}/audit?actor=${ada!.user.id}`)
    ).json() as Json;
    expect(log.data.map((entry: Json) => [entry.action, entry.details.via ?? null, entry.address])).toEqual([
      ['session.signed_in', 'single sign-on', '10.5.0.5'],
      ['session.signed_in', 'single sign-on', '10.5.0.5'],
      ['member.added', 'single sign-on', '10.5.0.5'],
    ]);
  });

  it('lets an account made by sign-on change its second factor within ten minutes of signing on', async () => {
    const browser = (await browserOf(
      ctx,
      await callback(await signOnAt(await start(), REDIRECT_URI, 'lin@corp.example')),
    ))!;
    expect((await send(ctx, browser, 'GET', '/account/second-factor')).json()).toMatchObject({ hasPassword: false });
    const setup = await send(ctx, browser, 'POST', '/account/second-factor/totp', { password: '' });
    expect(setup.statusCode, setup.body).toBe(200);
    await ctx.runtime.database.db
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where('user_id', '=', browser.user.id)
      .execute();
    const late = await send(ctx, browser, 'POST', '/account/second-factor/totp', { password: '' });
    expect([late.statusCode, late.json().details.reason]).toEqual([403, 'recent_sign_in_required']);
  });

  it('signs an existing account on by its email, and joins no workspace for another domain', async () => {
    const existing = await userWithPassword(ctx);
    const answer = await callback(await signOnAt(await start(), REDIRECT_URI, existing.email));
    const browser = await browserOf(ctx, answer);
    expect(browser?.user.id).toBe(existing.id);
    expect(((await send(ctx, browser!, 'GET', '/session')).json() as Json).workspaces).toEqual([]);
  });

  it('refuses an unverified email, a replayed answer, an unknown state and a tampered nonce, making no session', async () => {
    const unverified = await callback(await signOnAt(await start(), REDIRECT_URI, 'unverified@corp.example'));
    expect(unverified.headers.location).toBe('/dashboard/#sso-error=email_unverified');
    expect(sessionCookieOf(unverified)).toBeUndefined();

    const url = await signOnAt(await start(), REDIRECT_URI, 'grace@corp.example');
    const first = await callback(url);
    expect(first.headers.location).toBe('/dashboard/');
    const replay = await callback(url);
    expect([replay.headers.location, sessionCookieOf(replay)]).toEqual(['/dashboard/#sso-error=expired', undefined]);

    const forged = new URL(url);
    forged.searchParams.set('state', 'a-state-quire-never-made');
    expect((await callback(forged)).headers.location).toBe('/dashboard/#sso-error=expired');

    const tampered = await signOnAt(await start(), REDIRECT_URI, 'hopper@corp.example');
    await ctx.runtime.database.db.updateTable('oidc_logins').set({ nonce: 'not the nonce that was sent' }).execute();
    const refused = await callback(tampered);
    expect([refused.headers.location, sessionCookieOf(refused)]).toEqual(['/dashboard/#sso-error=refused', undefined]);
    expect(
      await ctx.runtime.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'hopper@corp.example')
        .execute(),
    ).toEqual([]);

    const denied = await callback(new URL(`${REDIRECT_URI}?error=access_denied&state=x`));
    expect(denied.headers.location).toBe('/dashboard/#sso-error=denied');
  });
});

describeEachDialect('single sign-on refuses a provider’s bad ID token', (dialect) => {
  let forger: Awaited<ReturnType<typeof startForgingProvider>>;
  let ctx: TestContext;
  beforeAll(async () => {
    forger = await startForgingProvider();
    ctx = await buildTestApp(dialect, { env: sso(forger.issuer) });
  });
  afterAll(async () => {
    await ctx?.close();
    await forger?.close();
  });

  const attempt = async (fault: TokenFault, email: string) => {
    forger.fault = fault;
    forger.email = email;
    const started = await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard/oidc/start' });
    const back = await fetch(started.headers.location as string, { redirect: 'manual' });
    const url = new URL(back.headers.get('location')!);
    return ctx.app.inject({ method: 'GET', url: `/api/v1/dashboard/oidc/callback${url.search}` });
  };

  it('accepts its honest token, so each refusal below is the one fault', async () => {
    const answer = await attempt('none', 'honest@corp.example');
    expect(answer.headers.location).toBe('/dashboard/');
    expect(sessionCookieOf(answer)).toBeDefined();
  });

  describe.each(['issuer', 'audience', 'nonce', 'signature', 'expired'] as const)(
    'a token with the wrong %s',
    (fault) => {
      it('is refused, and no account is made', async () => {
        const email = `${fault}@corp.example`;
        const answer = await attempt(fault, email);
        expect([answer.headers.location, sessionCookieOf(answer)]).toEqual([
          '/dashboard/#sso-error=refused',
          undefined,
        ]);
        expect(
          await ctx.runtime.database.db.selectFrom('users').select('id').where('email', '=', email).execute(),
        ).toEqual([]);
        expect(ctx.logs.some((line) => line.msg === 'single sign-on refused')).toBe(true);
      });
    },
  );
});

describe('single sign-on when the provider is away or not configured', () => {
  it('says so on the sign-in page, and the routes of an unconfigured server are 404', async () => {
    const away = await buildTestApp('sqlite', { env: sso('http://127.0.0.1:9') });
    try {
      const started = await away.app.inject({ method: 'GET', url: '/api/v1/dashboard/oidc/start' });
      expect(started.headers.location).toBe('/dashboard/#sso-error=unavailable');
    } finally {
      await away.close();
    }
    const plain = await buildTestApp('sqlite');
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/api/v1/dashboard/capabilities' })).json()).toMatchObject({
        sso: null,
      });
      expect((await plain.app.inject({ method: 'GET', url: '/api/v1/dashboard/oidc/start' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
