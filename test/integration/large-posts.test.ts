import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { Json, Post } from '../helpers/posts.js';

/** A body at the specification's limits, cut to `paragraphs`: each paragraph 10,000 characters. */
const body = (paragraphs: number, seed: string) =>
  Array.from({ length: paragraphs }, (_, i) => ({
    type: 'paragraph',
    text: `${seed} ${i} `.padEnd(10_000, 'lorem ipsum dolor sit amet '),
  }));

/*
 * Posts too large to come with their page are loaded and built a batch at a time (post-reads.ts), and a page
 * too large to assemble is streamed (http/post-list.ts). What a client reads must not tell the difference.
 */
describeEachDialect('posts near the limits', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let base: string;
  const posts: Post[] = [];
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}${EXTERNAL}`;
    // Three posts of about 3.5 MB of body each (renders over the inline size), and small ones between them.
    for (const [index, paragraphs] of [350, 0, 350, 0, 350].entries()) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': key },
        payload: { title: `Post ${index}`, bodyJson: body(paragraphs, `post${index}`) } as Json,
      });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
      posts.push(response.json() as Post);
    }
  }, 120_000);
  afterAll(() => ctx?.close());

  // Identity, so that what is streamed and what is assembled shows in the headers (compression streams either).
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { 'x-api-key': key, 'accept-encoding': 'identity', ...headers } });

  async function singles(): Promise<unknown[]> {
    const read: unknown[] = [];
    for (const post of [...posts].reverse()) read.push(await (await get(`/posts/${post.id}`)).json());
    return read;
  }

  it('a page larger than it may assemble is streamed: the same posts as single reads, built or stored', async () => {
    // First read builds every render, a batch at a time; the second streams the stored ones.
    for (const round of ['built', 'stored']) {
      const response = await get('/posts?pageSize=100');
      expect(response.status, round).toBe(200);
      expect(response.headers.get('etag'), round).toMatch(/^"[\w-]+"$/);
      expect(response.headers.get('transfer-encoding'), round).toBe('chunked');
      const page = (await response.json()) as { data: unknown[]; total: number; pageSize: number };
      expect(page.total).toBe(posts.length);
      expect(page.data, round).toEqual(await singles());
    }
  }, 120_000);

  it('collects its garbage after each large batch and once more when it is sent, where node exposes gc', async () => {
    const global = globalThis as { gc?: () => void };
    global.gc = vi.fn();
    const response = await get('/posts?pageSize=100');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    await response.arrayBuffer();
    // The three large posts are a batch each; the end of the answer follows the last byte a moment later.
    await vi.waitFor(() => expect(global.gc).toHaveBeenCalledTimes(4), { timeout: 5_000 });
  });
  afterEach(() => {
    delete (globalThis as { gc?: () => void }).gc;
  });

  it('its ETag answers a 304 while it holds, and moves with a write to one of its posts', async () => {
    const first = await get('/posts?pageSize=100');
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const again = await get('/posts?pageSize=100', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `${EXTERNAL}/posts/${posts[2]!.id}`,
      headers: { 'x-api-key': key },
      payload: { excerpt: 'Changed' },
    });
    expect(patched.statusCode).toBe(200);
    const after = await get('/posts?pageSize=100', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    const page = (await after.json()) as { data: Post[] };
    expect(page.data.find((post) => post.id === posts[2]!.id)?.excerpt).toBe('Changed');
  }, 120_000);

  it('a small page of the same posts is assembled as before: cached, with the ETag of its bytes', async () => {
    const small = await get('/posts?pageSize=2');
    expect(small.headers.get('transfer-encoding')).toBeNull();
    expect(Number(small.headers.get('content-length'))).toBeGreaterThan(0);
    const page = (await small.json()) as { data: unknown[] };
    expect(page.data).toEqual((await singles()).slice(0, 2));
  }, 120_000);

  it('pages near the limits: a large list of them is streamed, the same pages as single reads', async () => {
    const created: Json[] = [];
    for (const [index, paragraphs] of [350, 0, 350, 350].entries()) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/pages`,
        headers: { 'x-api-key': key },
        payload: { title: `Page ${index}`, bodyJson: body(paragraphs, `page${index}`) } as Json,
      });
      expect(response.statusCode).toBe(201);
      created.push(response.json() as Json);
    }
    const response = await get('/pages?pageSize=100');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const page = (await response.json()) as { data: unknown[]; total: number };
    const singles: unknown[] = [];
    for (const one of [...created].reverse()) singles.push(await (await get(`/pages/${one.id}`)).json());
    expect(page.data).toEqual(singles);
  }, 120_000);
});
