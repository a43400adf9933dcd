import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('each request is one log line at LOG_LEVEL=info', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // The default level, and a listening server: the cached answers go through the fast path, as in production.
    ctx = await buildTestApp(dialect, { env: { LOG_LEVEL: 'info' } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => ctx?.close());

  it('carries the request id, method and URL (a key in it redacted), status and time; nothing more a request', async () => {
    const { key } = await ctx.ownerKey();
    const { port } = ctx.app.server.address() as { port: number };
    const get = (path: string, apiKey?: string) =>
      fetch(`http://127.0.0.1:${port}${EXTERNAL}${path}`, { headers: apiKey ? { 'x-api-key': apiKey } : {} });
    const requests: Array<{ path: string; key?: string; status: number }> = [
      { path: '/posts', key, status: 200 },
      // The same again: answered from the response cache by the fast path.
      { path: '/posts', key, status: 200 },
      { path: `/posts?apiKey=${key}`, key, status: 400 },
      { path: '/posts/no-such-post', key, status: 404 },
      { path: '/posts', status: 401 },
    ];
    const before = ctx.logs.length;
    const ids: string[] = [];
    for (const request of requests) {
      const response = await get(request.path, request.key);
      expect(response.status, request.path).toBe(request.status);
      await response.arrayBuffer();
      ids.push(response.headers.get('x-request-id')!);
    }
    // The line is written once the answer is sent; give the last one its turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = ctx.logs.slice(before);
    requests.forEach((request, index) => {
      const own = lines.filter((line) => line.reqId === ids[index]);
      expect(own, request.path).toHaveLength(1);
      expect(own[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', url: `${EXTERNAL}${request.path.replace(key, 'quire_live_[REDACTED]')}` },
        res: { statusCode: request.status },
        responseTime: expect.any(Number),
      });
    });
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(key.slice('quire_live_'.length));
  });

  it('is not written at LOG_LEVEL=warn', async () => {
    const quiet = await buildTestApp(dialect, { env: { LOG_LEVEL: 'warn' } });
    try {
      const { key } = await quiet.ownerKey();
      for (let n = 0; n < 2; n += 1)
        await quiet.app.inject({ method: 'GET', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': key } });
      expect(quiet.logs.filter((line) => line.msg === 'request completed')).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
