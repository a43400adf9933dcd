import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWxr, type WxrSummary } from '../../../../../bench/fixtures/wxr.js';
import { tempFiles, type TempFiles } from '../../../../../test/fixtures/imports/wordpress/wxr-files.js';
import type { ImportItem } from '../../import-source.js';
import { openWordPressSource } from './wordpress-source.js';

describe('a generated 200-post export', () => {
  let files: TempFiles;
  let summary: WxrSummary;
  let path: string;
  beforeAll(async () => {
    files = tempFiles();
    path = `${files.dir}/site.xml`;
    summary = await writeWxr(path, 200, { seed: 7 });
  });
  afterAll(() => files.remove());

  it('reads as the items the generator wrote', async () => {
    const source = await openWordPressSource(path, {});
    const count = new Map<string, number>();
    const items: ImportItem[] = [];
    for await (const item of source.items()) {
      items.push(item);
      count.set(item.type, (count.get(item.type) ?? 0) + 1);
    }
    expect(summary).toMatchObject({
      authors: 5,
      categories: 10,
      tags: 30,
      attachments: 66,
      published: 172,
      drafts: 28,
    });
    expect(summary.files).toHaveLength(66);
    expect(Object.fromEntries(count)).toEqual({ author: 5, category: 10, tag: 30, post: 180, page: 20 });
    expect(await source.entryCount()).toBe(summary.published + summary.drafts);
    const drafts = items.filter((item) => (item.type === 'post' || item.type === 'page') && item.status === 'draft');
    expect(drafts).toHaveLength(summary.drafts);
    const parents = new Set<string>();
    for (const item of items)
      if (item.type === 'category') {
        if (item.parentSourceId) expect(parents.has(item.parentSourceId)).toBe(true);
        parents.add(item.sourceId);
      }
    expect(source.sourceNotes().map((note) => note.message)).toContain(
      '66 attachments not imported as entries: their files are imported where an entry uses them',
    );
  });

  it('converts its bodies: headings, lists, quotes, code, embeds, and the shortcode noted', async () => {
    const source = await openWordPressSource(path, {});
    const types = new Set<string>();
    const notes = new Set<string>();
    for await (const item of source.items()) {
      if (item.type !== 'post' && item.type !== 'page') continue;
      const { blocks, report } = item.body.convert({});
      for (const block of blocks) types.add(block.type);
      for (const note of report.notes) notes.add(`${note.kind} ${note.element}`);
    }
    expect([...types].sort()).toEqual(['code', 'heading', 'list', 'paragraph', 'quote', 'video_embed']);
    expect([...notes].sort()).toEqual(['unsupported [contact-form-7]', 'unsupported [newsletter_signup]']);
  });

  it('writes the same file from the same seed', async () => {
    const { readFileSync } = await import('node:fs');
    const again = `${files.dir}/again.xml`;
    await writeWxr(again, 200, { seed: 7 });
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(path, 'utf8'));
  });
});

describe('memory', () => {
  it('keeps no more than small maps after the first pass over a 2,000-post export', async () => {
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const files = tempFiles();
    try {
      const path = `${files.dir}/big.xml`;
      await writeWxr(path, 2000);
      gc();
      const before = process.memoryUsage().heapUsed;
      const source = await openWordPressSource(path, {});
      gc();
      const retained = process.memoryUsage().heapUsed - before;
      // The file is ~12 MB; its index (667 attachments, 45 terms and authors) a few hundred kB.
      expect(retained).toBeLessThan(4_000_000);
      expect(await source.entryCount()).toBe(2000);
    } finally {
      files.remove();
    }
  });
});
