import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGhostExport } from '../../../../../bench/fixtures/ghost-export.js';
import type { ImportEntry, ImportItem } from '../../import-source.js';
import { openGhostSource } from './ghost-source.js';

/* The benchmark's generated export, read by the reader it is made for. */

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-ghost-bench-'));
  file = join(dir, 'export.json');
  await writeGhostExport(file, 200, { seed: 7 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('writeGhostExport', () => {
  it('writes an export of 200 entries that reads through without a failure', async () => {
    const source = await openGhostSource(file, { workDir: dir });
    expect(await source.entryCount()).toBe(200);
    const counts: Record<string, number> = {};
    let words = 0;
    const notes = new Set<string>();
    for await (const item of source.items() as AsyncIterable<ImportItem>) {
      counts[item.type] = (counts[item.type] ?? 0) + 1;
      if (item.type === 'post' || item.type === 'page') {
        const { blocks, report } = (item as ImportEntry).body.convert({ resolveImage: () => 'media' });
        words += blocks
          .map((block) => ('text' in block ? String(block.text) : ''))
          .join(' ')
          .split(/\s+/).length;
        for (const note of report.notes) notes.add(`${note.kind} ${note.element}`);
      }
    }
    expect(counts).toEqual({ author: 5, tag: 19, post: 196, page: 4 });
    expect(words / 200).toBeGreaterThan(500);
    expect([...notes]).toEqual(['approximated bookmark']);
    expect(source.site).toBe('https://bakery.example.com');
    await source.close();
  });

  it('writes the same bytes for the same seed', async () => {
    const again = join(dir, 'again.json');
    await writeGhostExport(again, 200, { seed: 7 });
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(again)).equals(await readFile(file))).toBe(true);
  });
});
