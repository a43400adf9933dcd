import { afterAll, describe, expect, it } from 'vitest';
import { cliJson, freePort, startServer, tempDir, type ServerProcess } from './helpers.js';

/* `quire serve` with QUIRE_METRICS_PORT: the metrics on a loopback port of their own, not on the public one. */
describe('quire serve with QUIRE_METRICS_PORT', () => {
  const dir = tempDir('quire-metrics-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    dir.remove();
  });

  it('serves GET /metrics there, and the public port has no /metrics', async () => {
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    await cliJson(['migrate'], env);
    const port = await freePort();
    server = await startServer({ ...env, QUIRE_METRICS_PORT: String(port) });
    await (await server.fetch('/healthz')).arrayBuffer();
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^quire_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect((await server.fetch('/metrics')).status).toBe(404);
  });
});
