import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../../../test/e2e/helpers.js';
import { Quire } from '../src/index.js';
import { countingFetch, seededServer, sendJson, stubServer } from './helpers.js';

describe('conditional GETs against a real server: ETags kept, If-None-Match sent, 304 answered from memory', () => {
  let server: ServerProcess;
  let key: string;
  let remove: () => void;

  beforeAll(async () => {
    const seeded = await seededServer(5);
    ({ server, key } = seeded);
    remove = seeded.dir.remove;
  }, 90_000);
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    remove?.();
  });

  it('asks again with the ETag, gets a 304 and returns the same post, until the post changes', async () => {
    const counting = countingFetch();
    const quire = new Quire({ apiKey: key, baseUrl: server.url, fetch: counting.fetch });
    const [first] = (await new Quire({ apiKey: key, baseUrl: server.url }).posts.list({ pageSize: 1 })).data;

    const fresh = await quire.posts.get(first!.slug);
    const again = await quire.posts.get(first!.slug);
    expect(counting.statuses).toEqual([200, 304]);
    expect(counting.ifNoneMatch[0]).toBeNull();
    expect(counting.ifNoneMatch[1]).toMatch(/^(W\/)?"/);
    expect(again).toEqual(fresh);
    // Each call gets its own copy: changing one leaves what the cache returns next intact.
    again.title = 'changed by the caller';
    expect((await quire.posts.get(first!.slug)).title).toBe(fresh.title);

    await quire.posts.update(first!.id, { title: 'A new title' });
    const changed = await quire.posts.get(first!.slug);
    expect(changed.title).toBe('A new title');
    expect(counting.statuses).toEqual([200, 304, 304, 200, 200]);
    expect(await quire.posts.get(first!.slug)).toEqual(changed);
    expect(counting.statuses.at(-1)).toBe(304);
  });

  it('revalidates list pages by their full URL: another page or filter is another entry', async () => {
    const counting = countingFetch();
    const quire = new Quire({ apiKey: key, baseUrl: server.url, fetch: counting.fetch });
    const page1 = await quire.posts.list({ pageSize: 2 });
    await quire.posts.list({ pageSize: 2, page: 2 });
    expect(await quire.posts.list({ pageSize: 2 })).toEqual(page1);
    expect(counting.statuses).toEqual([200, 200, 304]);
  });

  it('sends no If-None-Match with cache: false', async () => {
    const counting = countingFetch();
    const quire = new Quire({ apiKey: key, baseUrl: server.url, fetch: counting.fetch, cache: false });
    await quire.tags.list();
    await quire.tags.list();
    expect(counting.statuses).toEqual([200, 200]);
    expect(counting.ifNoneMatch).toEqual([null, null]);
  });
});

describe('what the ETag cache keeps: bounded, and never a no-store answer', () => {
  /** A stub answering `sizeOf(path)` characters with an ETag naming the path; it records each If-None-Match. */
  async function etagStub(sizeOf: (path: string) => number) {
    const seen: Array<{ path: string; ifNoneMatch: string | null }> = [];
    const stub = await stubServer((_n, request, response) => {
      const path = new URL(request.url!, 'http://stub').pathname;
      const ifNoneMatch = request.headers['if-none-match'] ?? null;
      seen.push({ path, ifNoneMatch: typeof ifNoneMatch === 'string' ? ifNoneMatch : null });
      const etag = `"${path}"`;
      if (ifNoneMatch === etag) return void response.writeHead(304, { ETag: etag }).end();
      const body = { id: path, pad: '' };
      body.pad = 'x'.repeat(sizeOf(path) - JSON.stringify(body).length);
      sendJson(response, 200, body, { ETag: etag });
    });
    return { stub, seen };
  }

  it('drops the least recently used answers beyond maxBytes', async () => {
    const { stub, seen } = await etagStub(() => 1_000);
    try {
      // Room for two answers of 1,000 characters, not three.
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, cache: { maxBytes: 2_500 } });
      for (const slug of ['a', 'b', 'a', 'c', 'b', 'a']) await quire.posts.get(slug);
      const conditional = seen.map((request) => `${request.path.split('/').pop()}:${request.ifNoneMatch ? 'if' : '-'}`);
      // c pushes out b (a was used after it); then b comes back and pushes out a.
      expect(conditional).toEqual(['a:-', 'b:-', 'a:if', 'c:-', 'b:-', 'a:-']);
    } finally {
      await stub.close();
    }
  });

  it('keeps no answer marked Cache-Control: no-store, ETag or not', async () => {
    const sent: Array<string | undefined> = [];
    const stub = await stubServer((_n, request, response) => {
      sent.push(request.headers['if-none-match']);
      sendJson(response, 200, { data: [] }, { ETag: '"keys"', 'Cache-Control': 'no-store' });
    });
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url });
      await quire.apiKeys.list();
      await quire.apiKeys.list();
      expect(sent).toEqual([undefined, undefined]);
    } finally {
      await stub.close();
    }
  });

  it('keeps nothing larger than maxBytes, and such an answer pushes nothing out', async () => {
    const { stub, seen } = await etagStub((path) => (path.endsWith('/big') ? 5_000 : 1_000));
    try {
      const quire = new Quire({ apiKey: 'quire_live_x', baseUrl: stub.url, cache: { maxBytes: 4_000 } });
      for (const slug of ['small', 'big', 'big', 'small']) await quire.posts.get(slug);
      const conditional = seen.map((request) => `${request.path.split('/').pop()}:${request.ifNoneMatch ? 'if' : '-'}`);
      expect(conditional).toEqual(['small:-', 'big:-', 'big:-', 'small:if']);
    } finally {
      await stub.close();
    }
  });
});
