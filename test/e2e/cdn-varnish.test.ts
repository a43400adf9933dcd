import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVarnish, type Varnish } from '../../bench/varnish.js';
import { EXTERNAL, freePort, installWithKey, startServer, tempDir, type ServerProcess } from './helpers.js';

/*
 * The content API behind a real Varnish with xkey: answers are cached under their surrogate keys, and every
 * content write purges exactly the keys it made stale, from the server's purger (QUIRE_CDN_PURGE_URL).
 */
describe('the content API behind Varnish', () => {
  const dir = tempDir('quire-cdn-');
  let server: ServerProcess;
  let varnish: Varnish;
  let adminKey: string;
  let contentKey: string;

  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await server.fetch(`${EXTERNAL}${path}`, {
      method,
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  };
  const throughCdn = async (path: string) => {
    const response = await fetch(
      `${varnish.url}/api/v1/content${path}${path.includes('?') ? '&' : '?'}key=${contentKey}`,
      {
        signal: AbortSignal.timeout(5_000),
      },
    );
    return {
      status: response.status,
      cache: response.headers.get('x-cache'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  /** Reads through the CDN until `check` holds: the purge arrives a moment after the write's answer. */
  const until = async (path: string, check: (body: Record<string, unknown>) => boolean) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const answer = await throughCdn(path);
      if (check(answer.body)) return answer;
      if (Date.now() > deadline) throw new Error(`the CDN still serves ${JSON.stringify(answer.body).slice(0, 200)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** Waits until the server's purger has sent the purges of every write so far (its cursor is level). */
  const drained = async () => {
    const db = new BetterSqlite3(path.join(dir.dataDir, 'quire.sqlite'), { readonly: true });
    try {
      const behind = db.prepare(`select count(*) as n from workspaces w left join cdn_purge_cursors c
        on c.workspace_id = w.id where c.content_version is null or c.content_version < w.content_version`);
      const deadline = Date.now() + 10_000;
      while ((behind.get() as { n: number }).n > 0) {
        if (Date.now() > deadline) throw new Error('the purger did not catch up');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    ({ key: adminKey } = await installWithKey(env, 'Cdn'));
    // The server learns where to purge before Varnish, which needs the server's port, starts there.
    const varnishPort = await freePort();
    server = await startServer({ ...env, QUIRE_CDN_PURGE_URL: `http://127.0.0.1:${varnishPort}` });
    varnish = await startVarnish(server.port, varnishPort);
    contentKey = (await admin('POST', '/content-keys', { name: 'Site' })).key as string;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await varnish?.stop();
    dir.remove();
  });

  it('serves repeat reads from the cache, and an edit reaches the next read once purged', async () => {
    const a = await admin('POST', '/posts', { title: 'First title', status: 'published' });
    const b = await admin('POST', '/posts', { title: 'Untouched', status: 'published' });
    await drained();
    const path = `/posts/${a.id as string}`;
    expect((await throughCdn(path)).cache).toBe('MISS');
    expect((await throughCdn(path)).cache).toBe('HIT');
    await throughCdn(`/posts/${b.id as string}`);
    expect((await throughCdn(`/posts/${b.id as string}`)).cache).toBe('HIT');
    await until('/posts', (body) => (body.data as unknown[]).length === 2);
    expect((await throughCdn('/posts')).cache).toBe('HIT');

    await admin('PATCH', path, { title: 'Second title' });
    const fresh = await until(path, (body) => body.title === 'Second title');
    expect(fresh.cache).toBe('MISS');
    // The list that holds it was purged with it; the other post's answer was not.
    await until('/posts', (body) =>
      (body.data as Array<{ title: string }>).some((post) => post.title === 'Second title'),
    );
    expect((await throughCdn(`/posts/${b.id as string}`)).cache).toBe('HIT');
  });

  it('drops an unpublished post from the cache, which then answers 404', async () => {
    const post = await admin('POST', '/posts', { title: 'Going away', status: 'published' });
    await drained();
    const path = `/posts/${post.id as string}`;
    await throughCdn(path);
    expect((await throughCdn(path)).cache).toBe('HIT');
    await admin('PATCH', path, { status: 'draft' });
    const gone = await until(path, (body) => body.code === 'NOT_FOUND');
    expect(gone.status).toBe(404);
    // The 404 is not kept: published again, the post is the next read's answer.
    expect((await throughCdn(path)).cache).toBe('MISS');
    await admin('PATCH', path, { status: 'published' });
    await drained();
    expect((await throughCdn(path)).body.title).toBe('Going away');
  });
});
