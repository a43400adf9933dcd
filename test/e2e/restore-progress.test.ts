import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliJson, tempDir } from './helpers.js';

/*
 * What quire restore says while it works, in a pipe (issue 35): the archive's real size and the rate it was
 * read at, not "0/0 MB, 0 MB/s" for a backup smaller than a megabyte.
 */

const UNITS: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 };

describe('quire restore progress [sqlite]', () => {
  const dir = tempDir('quire-restore-progress-');
  afterAll(() => dir.remove());

  it("names the archive's size and a rate above zero in its last progress line", { timeout: 60_000 }, async () => {
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    await cliJson(['migrate'], env);
    const file = path.join(dir.root, 'small.backup.tgz');
    await cliJson(['backup', '--out', file], env);
    const size = fs.statSync(file).size;
    expect(size).toBeLessThan(1e6);

    const restored = await cli(['restore', file], { QUIRE_DATA_DIR: path.join(dir.root, 'restored') });
    expect(restored.code, restored.stderr).toBe(0);
    const line = restored.stdout.split('\n').find((text) => text.startsWith(`restore ${file}: `));
    expect(line, restored.stdout).toBeDefined();
    const shape = /: ([\d.,]+)\/([\d.,]+) (B|kB|MB|GB) \(100%\), ([\d.,]+) (?:B|kB|MB|GB)\/s, in /;
    expect(line, line).toMatch(shape);
    const [, done, total, unit, rate] = shape.exec(line!)!;
    expect(done, line).toBe(total);
    // The count is rounded to the unit shown (one decimal under 10): it reads the file's size to that.
    expect(Math.abs(Number(total!.replace(/,/g, '')) * UNITS[unit!]! - size), line).toBeLessThanOrEqual(
      UNITS[unit!]! / 2,
    );
    expect(Number(rate!.replace(/,/g, '')), line).toBeGreaterThan(0);
  });
});
