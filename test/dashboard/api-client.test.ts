import { afterEach, describe, expect, it, vi } from 'vitest';

// The client builds requests on the page's origin; outside a page, `/api/…` needs one to resolve against.
const PageRequest = globalThis.Request;
globalThis.Request = class extends PageRequest {
  constructor(input: string | URL | Request, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
  }
};
const { ApiError, call, client, describeError, setCsrfToken, setUnauthorizedHandler } =
  await import('../../dashboard/src/api.js');
type ApiError = InstanceType<typeof ApiError>;

const WORKSPACE = '0b7c6a1e-8f1d-4c3e-9a55-5b1f3f7f2a10';

function answer(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(null);
  setUnauthorizedHandler(null);
});

describe("the dashboard's typed client", () => {
  it('sends the CSRF token on writes only, and the query without its empty values', async () => {
    const seen: Request[] = [];
    vi.stubGlobal('fetch', async (request: Request) => {
      seen.push(request);
      return answer(200, { id: 't1', name: 'News' });
    });
    setCsrfToken('token-1');
    await call(
      client.GET('/workspaces/{workspaceId}/tags', {
        params: { path: { workspaceId: WORKSPACE }, query: { q: '', pageSize: 100 } },
      }),
    );
    const tag = await call(
      client.POST('/workspaces/{workspaceId}/tags', {
        params: { path: { workspaceId: WORKSPACE } },
        body: { name: 'News' },
      }),
    );
    expect(tag).toEqual({ id: 't1', name: 'News' });
    expect(seen[0]!.url).toBe(`http://localhost/api/v1/dashboard/workspaces/${WORKSPACE}/tags?pageSize=100`);
    expect(seen[0]!.headers.get('X-CSRF-Token')).toBeNull();
    expect(seen[1]!.headers.get('X-CSRF-Token')).toBe('token-1');
    expect(seen[1]!.headers.get('Content-Type')).toBe('application/json');
  });

  it('turns the error envelope into an ApiError whose issues are in words, and tells the app of a 401', async () => {
    vi.stubGlobal('fetch', async () =>
      answer(400, {
        code: 'VALIDATION_FAILED',
        message: 'body/siteUrl must match format "uri"',
        details: { issues: [{ path: '/siteUrl', message: 'must match format "uri"' }] },
      }),
    );
    const refused = await call(client.GET('/session')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(400);
    expect((refused as ApiError).code).toBe('VALIDATION_FAILED');
    expect((refused as ApiError).issues).toHaveLength(1);
    expect((refused as ApiError).issues[0]).toMatch(/^siteUrl: /);
    expect((refused as ApiError).issues[0]).not.toContain('must match');

    let signedOut = 0;
    setUnauthorizedHandler(() => (signedOut += 1));
    vi.stubGlobal('fetch', async () => answer(401, { code: 'UNAUTHORIZED', message: 'Sign in', details: null }));
    await expect(call(client.GET('/session'), { quiet401: true })).rejects.toMatchObject({ status: 401 });
    expect(signedOut).toBe(0);
    await expect(call(client.GET('/session'))).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(signedOut).toBe(1);
  });

  it('reads a body that is no envelope as HTTP_<status>, and an unreachable server as status 0', async () => {
    vi.stubGlobal('fetch', async () => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    await expect(call(client.GET('/session'))).rejects.toMatchObject({ status: 502, code: 'HTTP_502' });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const unreachable = await call(client.GET('/session')).catch((error: unknown) => error);
    expect(unreachable).toMatchObject({ status: 0, code: 'NETWORK' });
    expect(describeError(unreachable)).toMatch(/could not be reached/);
  });
});
