import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cliJson, startServer, tempDir } from '../../../test/e2e/helpers.js';

/** A real `quire serve` on a fresh SQLite data dir, with a workspace seeded by `quire seed` and the owner's key. */
export async function seededServer(posts: number, extraEnv: Record<string, string> = {}) {
  const dir = tempDir('quire-client-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  await cliJson(['user', 'create', '--email', 'owner@example.com', '--password', 'correct horse battery staple'], env);
  const workspace = await cliJson<{ slug: string }>(
    ['workspace', 'create', '--name', 'Client Site', '--owner', 'owner@example.com'],
    env,
  );
  const { key } = await cliJson<{ key: string }>(
    ['key', 'create', '--workspace', workspace.slug, '--email', 'owner@example.com', '--name', 'client tests'],
    env,
  );
  await cliJson(['seed', '--workspace', workspace.slug, '--posts', String(posts)], env);
  const server = await startServer({ ...env, ...extraEnv });
  return { dir, key, server };
}

/** A fetch that records the status of every answer it got (or 0 when none came) and the If-None-Match it sent. */
export function countingFetch() {
  const statuses: number[] = [];
  const ifNoneMatch: Array<string | null> = [];
  const counted: typeof fetch = async (input, init) => {
    ifNoneMatch.push(new Headers(init?.headers).get('if-none-match'));
    try {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    } catch (error) {
      statuses.push(0);
      throw error;
    }
  };
  return { fetch: counted, statuses, ifNoneMatch };
}

/**
 * A loopback HTTP server whose nth request (1-based) `handle` answers; for failures a real server will not produce
 * on demand.
 */
export async function stubServer(
  handle: (n: number, request: http.IncomingMessage, response: http.ServerResponse) => void,
) {
  let count = 0;
  const server = http.createServer((request, response) => {
    count += 1;
    request.resume();
    handle(count, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Request-Id': `stub-${status}`,
    ...headers,
  });
  response.end(JSON.stringify(body));
}
