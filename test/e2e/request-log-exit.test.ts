import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/*
 * Request lines wait in memory for a batch (src/server/logging.ts). A process that ends, by process.exit (the
 * server's graceful close) or by a crash, still writes them: only a SIGKILL may lose them.
 */

const LOGGING = path.join(ROOT, 'dist', 'server', 'logging.js');

function run(ending: string): Promise<{ code: number | null; lines: string[] }> {
  const script = `
    import { createLogger, logRequest } from ${JSON.stringify(LOGGING)};
    const logger = createLogger('info');
    for (let n = 0; n < 3; n += 1) logRequest(logger, { method: 'GET', url: '/p', ip: '::1' }, 200, 1, 'req-' + n);
    ${ending}
  `;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 10_000 }, (_, out) =>
      resolve({ code: child.exitCode, lines: out.split('\n').filter((line) => line.startsWith('{')) }),
    );
  });
}

describe('request lines held for a batch', () => {
  it('are written when the process exits', async () => {
    const { code, lines } = await run('process.exit(0);');
    expect(code).toBe(0);
    expect(lines.map((line) => JSON.parse(line).reqId)).toEqual(['req-0', 'req-1', 'req-2']);
  });

  it('are written when the process crashes', async () => {
    const { code, lines } = await run("setImmediate(() => { throw new Error('boom'); });");
    expect(code).toBe(1);
    expect(lines.map((line) => JSON.parse(line).reqId)).toEqual(['req-0', 'req-1', 'req-2']);
  });

  it('are written when the process runs out of work', async () => {
    const { code, lines } = await run('');
    expect(code).toBe(0);
    expect(lines.map((line) => JSON.parse(line).reqId)).toEqual(['req-0', 'req-1', 'req-2']);
  });
});
