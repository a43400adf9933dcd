import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, type ServerProcess } from '../../../test/e2e/helpers.js';
import { seededServer } from './helpers.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = path.resolve(HERE, '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Node in a process of its own, as a site's program runs: no test runner between the code and `require`. */
function node(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: HERE, env: baseEnv(env), timeout: 30_000, encoding: 'utf8' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('@quire/client as built (dist/), required from CommonJS and imported from an ES module', () => {
  let server: ServerProcess;
  let key: string;
  let contentKey: string;
  let remove: () => void;

  beforeAll(async () => {
    const seeded = await seededServer(3);
    ({ server, key } = seeded);
    remove = seeded.dir.remove;
    const created = await fetch(`${server.url}/api/v1/external/content-keys`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'CommonJS site' }),
    });
    contentKey = ((await created.json()) as { key: string }).key;
  }, 90_000);
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    remove?.();
  });

  it('require("@quire/client") loads the CommonJS build, whose two clients list, get and throw QuireError', async () => {
    const run = await node([path.join(HERE, 'require-client.cjs')], {
      QUIRE_URL: server.url,
      QUIRE_API_KEY: key,
      QUIRE_CONTENT_KEY: contentKey,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const seen = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(seen).toMatchObject({
      resolved: path.join(PACKAGE, 'dist', 'cjs', 'index.js'),
      exports: ['Quire', 'QuireContent', 'QuireError'],
      total: 3,
      missing: { code: 'NOT_FOUND', status: 404 },
    });
    // The content client sees the published posts only.
    const { total, published } = seen.content as { total: number; published: number };
    expect(total).toBe(published);
  });

  it('import "@quire/client" still loads the ES module build, with the same exports', async () => {
    const run = await node([
      '--input-type=module',
      '-e',
      "const client = await import('@quire/client'); process.stdout.write(JSON.stringify({ resolved: import.meta.resolve('@quire/client'), exports: Object.keys(client).sort() }));",
    ]);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      resolved: pathToFileURL(path.join(PACKAGE, 'dist', 'index.js')).href,
      exports: ['Quire', 'QuireContent', 'QuireError'],
    });
  });
});
