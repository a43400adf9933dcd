import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTERNAL, startServer, tempDir, type ServerProcess } from './helpers.js';

/*
 * bin/quire.js's first line carries the settings that bound the server's memory (docs/decisions.md, "Memory of
 * one request"); `npm start` and `npx quire` run the file, so the process they start must have them.
 */
describe('quire run as a file', () => {
  const dir = tempDir();
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('runs node with the memory settings of its first line, and serves', async () => {
    server = await startServer({ QUIRE_DATA_DIR: dir.dataDir }, { asFile: true });
    const pid = server.child.pid!;
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // Buffers of a megabyte or more are mapped on their own, so the memory of a large list goes back to the
    // system when the list is done instead of staying in glibc's heap.
    expect(environ).toContain('MALLOC_MMAP_THRESHOLD_=1048576');
    expect(cmdline).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--expose-gc']));
    expect((await server.fetch(`${EXTERNAL}/posts`)).status).toBe(401);
  });
});
