import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export const OIDC_CLIENT_ID = 'quire';
export const OIDC_CLIENT_SECRET = 'sso-client-secret-for-tests';

export interface RunningProvider {
  issuer: string;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closer = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * A real OpenID provider (panva's oidc-provider) on loopback, with its development login form: any login signs in
 * as the account of that name, whose email is the login, verified unless it starts with "unverified".
 */
export async function startOpenIdProvider(redirectUri: string | (() => string)): Promise<RunningProvider> {
  const server = http.createServer();
  const issuer = await listen(server);
  // Made at the first request: a Quire started after the provider (its port unknown before) names its callback then.
  let handler: http.RequestListener | undefined;
  server.on('request', (request, response) => {
    handler ??= makeProvider(issuer, typeof redirectUri === 'string' ? redirectUri : redirectUri()).callback();
    return handler!(request, response);
  });
  return { issuer, close: closer(server) };
}

function makeProvider(issuer: string, redirectUri: string) {
  return new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified') }),
    }),
    features: { devInteractions: { enabled: true } },
    // A first-party client: no consent screen, as an organisation's provider is set up for its own tools.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the provider's context, untyped
    loadExistingGrant: async (ctx: any) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
}

/**
 * Walks a browser through the provider from Quire's authorization URL: its login form filled with `login`, each
 * redirect followed with the provider's cookies, until the provider sends the browser back to `redirectUri`.
 * Answers that callback URL.
 */
export async function signOnAt(authorizationUrl: string, redirectUri: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop += 1) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: cookieHeader() },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
    init = {};
    const location = response.headers.get('location');
    if (location !== null) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined)
      throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${html.slice(0, 200)}`);
    url = new URL(action, url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
    };
  }
  throw new Error('the provider never sent the browser back');
}

export type TokenFault = 'none' | 'issuer' | 'audience' | 'nonce' | 'signature' | 'expired';

/**
 * A provider that answers whatever ID token a test asks for, each with one thing wrong (`fault`): the refusals are
 * Quire's own checks, as no honest provider would send such a token. Its authorization endpoint redirects straight
 * back with a code, as if the person had signed in.
 */
export async function startForgingProvider(): Promise<RunningProvider & { fault: TokenFault; email: string }> {
  const server = http.createServer();
  const issuer = await listen(server);
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const nonces = new Map<string, string>();
  const state = { fault: 'none' as TokenFault, email: 'forged@corp.example' };
  server.on('request', async (request, response) => {
    const url = new URL(request.url!, issuer);
    const json = (body: unknown) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration')
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    if (url.pathname === '/jwks') return json({ keys: [jwk] });
    if (url.pathname === '/auth') {
      const code = `code-${nonces.size}`;
      nonces.set(code, url.searchParams.get('nonce')!);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      response.writeHead(302, { location: back.href });
      return response.end();
    }
    if (url.pathname === '/token') {
      let body = '';
      for await (const chunk of request) body += chunk;
      const code = new URLSearchParams(body).get('code')!;
      const now = Math.floor(Date.now() / 1000);
      const fault = state.fault;
      const token = await new SignJWT({
        email: state.email,
        email_verified: true,
        nonce: fault === 'nonce' ? 'another nonce' : nonces.get(code),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(fault === 'issuer' ? 'https://elsewhere.example' : issuer)
        .setAudience(fault === 'audience' ? 'another-client' : OIDC_CLIENT_ID)
        .setSubject(state.email)
        .setIssuedAt(fault === 'expired' ? now - 7200 : now)
        .setExpirationTime(fault === 'expired' ? now - 3600 : now + 300)
        .sign(fault === 'signature' ? stranger.privateKey : privateKey);
      return json({ access_token: 'access', token_type: 'Bearer', expires_in: 300, id_token: token });
    }
    response.writeHead(404).end();
  });
  const close = closer(server);
  return Object.assign(state, { issuer, close });
}
