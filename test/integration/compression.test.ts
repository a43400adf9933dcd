import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

/** A dashboard build of one asset, with the .br and .gz the build writes beside it. */
function dashboardBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-dash-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Quire</title>');
  const script = Buffer.from(`console.log(${JSON.stringify('x'.repeat(4000))});`);
  fs.writeFileSync(path.join(dir, 'assets', 'app-1.js'), script);
  fs.writeFileSync(path.join(dir, 'assets', 'app-1.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dir, 'assets', 'app-1.js.gz'), zlib.gzipSync(script));
  return dir;
}

describeEachDialect('compressed answers', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let base: string;
  const dashboardDir = dashboardBuild();
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { deps: { dashboardDir } });
    ({ key } = await ctx.ownerKey());
    for (let i = 0; i < 5; i += 1)
      await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': key },
        payload: { title: `Compressed ${i}`, excerpt: 'An excerpt that repeats. '.repeat(20) },
      });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => ctx?.close());

  /** Node's http client, which hands back the bytes as sent (fetch would decode them). */
  async function raw(url: string, headers: Record<string, string>) {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${base}${url}`, { headers }, resolve).on('error', reject),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
  }
  const decode = (encoding: string | undefined, body: Buffer) =>
    encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;

  it('a list is sent in brotli or gzip as the client accepts, and decodes to the same bytes', async () => {
    const plain = await raw(`${EXTERNAL}/posts?pageSize=5`, { 'x-api-key': key });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
    ] as const) {
      const answer = await raw(`${EXTERNAL}/posts?pageSize=5`, { 'x-api-key': key, 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers.etag).toBe(plain.headers.etag);
      expect(decode(encoding, answer.body).equals(plain.body), accept).toBe(true);
      expect(answer.body.length).toBeLessThan(plain.body.length / 3);
    }
  });

  it('an answer no cache keeps is compressed in one call at the fastest level, with its length', async () => {
    // A write's answer is never cached; this one is larger than a compression stream's first chunk.
    const paragraphs = Array.from({ length: 40 }, (_, i) => ({
      type: 'paragraph',
      text: `Paragraph ${i}. `.repeat(40),
    }));
    for (const [encoding, decodeIt] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const answer = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': key, 'accept-encoding': encoding },
        payload: { title: `Long ${encoding}`, bodyJson: paragraphs },
      });
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.headers['content-encoding']).toBe(encoding);
      const body = answer.rawPayload;
      expect(Number(answer.headers['content-length'])).toBe(body.length);
      const plain = decodeIt(body);
      expect(plain.length).toBeGreaterThan(16 * 1024);
      expect(JSON.parse(plain.toString()).title).toBe(`Long ${encoding}`);
      // gzip's header names the level it was made at: 4 in its XFL byte is the fastest.
      if (encoding === 'gzip') expect(body[8]).toBe(4);
    }
  });

  it('a cached answer is compressed once and then sent as kept, by the fast path too; a 304 has no encoding', async () => {
    const url = `${EXTERNAL}/posts?pageSize=4`;
    const first = await raw(url, { 'x-api-key': key, 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const compressions = vi.spyOn(zlib, 'brotliCompressSync');
    try {
      const hits = [];
      for (let i = 0; i < 3; i += 1) hits.push(await raw(url, { 'x-api-key': key, 'accept-encoding': 'br' }));
      for (const hit of hits) expect(hit.body.equals(hits[0]!.body)).toBe(true);
      expect(compressions).toHaveBeenCalledTimes(1);
    } finally {
      compressions.mockRestore();
    }
    const notModified = await raw(url, {
      'x-api-key': key,
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['content-encoding']).toBeUndefined();
  });

  it('posts read from their stored renders go out in gzip spliced from the deflated forms kept with them', async () => {
    // A page no test read before: its cache entry is made by the first request below.
    const url = `${EXTERNAL}/posts?pageSize=3`;
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/posts?pageSize=1`,
      headers: { 'x-api-key': key },
    });
    const one = listed.json<{ data: Array<{ id: string }> }>().data[0]!;
    const gzips = vi.spyOn(zlib, 'gzipSync');
    try {
      // The list twice (a miss, then its cache entry's first gzip) and a post.
      for (const path of [url, url, `${EXTERNAL}/posts/${one.id}`]) {
        const answer = await raw(path, { 'x-api-key': key, 'accept-encoding': 'gzip, deflate' });
        expect(answer.headers['content-encoding'], path).toBe('gzip');
        expect(answer.headers.vary, path).toMatch(/accept-encoding/i);
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        const identity = await raw(path, { 'x-api-key': key });
        expect(zlib.gunzipSync(answer.body).equals(identity.body), path).toBe(true);
        expect(answer.headers.etag).toBe(identity.headers.etag);
        // A spliced member's header names no level (XFL 0); zlib's fastest names 4.
        expect(answer.body[8], path).toBe(0);
      }
      expect(gzips).not.toHaveBeenCalled();
    } finally {
      gzips.mockRestore();
    }
    // What is stored beside each render inflates to the render itself.
    const stored = await ctx.runtime.database.db
      .selectFrom('post_renders')
      .select(['json', 'json_deflated'])
      .where('post_id', '=', one.id)
      .executeTakeFirstOrThrow();
    // It has no final block (the spliced answer adds one), so it is inflated as far as it goes.
    const inflated = zlib.inflateRawSync(stored.json_deflated!, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    expect(inflated.toString()).toBe(stored.json.toString());
  });

  it('an answer cut to fields, or with the body as HTML, is other bytes and is compressed on the request', async () => {
    for (const url of [
      `${EXTERNAL}/posts?pageSize=5&fields=title,excerpt`,
      `${EXTERNAL}/posts?pageSize=5&formats=html`,
    ]) {
      const answer = await raw(url, { 'x-api-key': key, 'accept-encoding': 'gzip' });
      expect(answer.headers['content-encoding'], url).toBe('gzip');
      expect(answer.body[8], url).toBe(4);
      expect(zlib.gunzipSync(answer.body).equals((await raw(url, { 'x-api-key': key })).body), url).toBe(true);
    }
  });

  it('an answer under 1 KB goes out as it is', async () => {
    const refused = await raw(`${EXTERNAL}/posts`, { 'x-api-key': 'quire_live_nope', 'accept-encoding': 'br' });
    expect(refused.status).toBe(401);
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it("the dashboard's assets are sent from the files the build compressed", async () => {
    const asset = await raw('/dashboard/assets/app-1.js', { 'accept-encoding': 'br, gzip' });
    expect(asset.headers['content-encoding']).toBe('br');
    // The very bytes of the .br file: nothing compressed them again per request.
    expect(asset.body.equals(fs.readFileSync(path.join(dashboardDir, 'assets', 'app-1.js.br')))).toBe(true);
  });
});
