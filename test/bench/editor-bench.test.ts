import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { percentile } from '../../bench/editor-browser.js';
import { BODY_BLOCKS, editorBody, TYPING_BLOCK, typedText } from '../../bench/editor-post.js';
import { dashboardSizes } from '../../bench/editor-sizes.js';
import { BodyWrite } from '../../src/blocks/blocks.schemas.js';
import { validatorCompiler } from '../../src/http/validation.js';

const MEDIA = '00000000-0000-4000-8000-000000000001';

describe("bench:editor's post", () => {
  const body = editorBody(MEDIA);

  it('is 1,000 blocks the API accepts, of all 13 types, with a paragraph of 40 to 80 words at block 500', () => {
    const validate = validatorCompiler({
      schema: Type.Object({ bodyJson: BodyWrite }, { additionalProperties: false }),
      httpPart: 'body',
    });
    expect(validate({ bodyJson: body }), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toHaveLength(BODY_BLOCKS);
    expect(new Set(body.map((block) => block.type)).size).toBe(13);
    const typedInto = body[TYPING_BLOCK]!;
    expect(typedInto.type).toBe('paragraph');
    const words = (typedInto as { text: string }).text.split(' ').length;
    expect(words).toBeGreaterThanOrEqual(40);
    expect(words).toBeLessThanOrEqual(80);
  });

  it('is the same text on every call, and its paragraphs carry marks and links', () => {
    expect(editorBody(MEDIA)).toEqual(body);
    const text = body.flatMap((block) => (block.type === 'paragraph' ? [block.text] : [])).join('\n');
    for (const mark of [/\*\*\w+\*\*/, /(^|[^*])\*\w+\*/, /`\w+`/, /\[\w+\]\(https:\/\/example\.com\/\w+\)/])
      expect(text).toMatch(mark);
  });

  it('types plain words: nothing an input rule or the "/" menu acts on', () => {
    const typed = typedText(200);
    expect(typed).toHaveLength(200);
    expect(typed).toMatch(/^[a-z ]+$/);
    expect(typed).not.toMatch(/ {2}/);
  });
});

describe("bench:editor's percentiles", () => {
  it('are nearest-rank: p95 of 1..200 is 190, p50 of 1..7 is 4', () => {
    const hundreds = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(percentile(hundreds, 0.95)).toBe(190);
    expect(percentile(hundreds, 1)).toBe(200);
    expect(percentile([7, 1, 6, 2, 5, 3, 4], 0.5)).toBe(4);
  });
});

describe("bench:editor's sizes", () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-editor-sizes-'));
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), text);
  };

  it('splits the build into the first load, what the studio adds, and what the studio loads later', () => {
    write(
      'index.html',
      '<script type="module" crossorigin src="/dashboard/assets/index-a.js"></script>' +
        '<link rel="modulepreload" href="/dashboard/assets/vendor-b.js">',
    );
    write(
      'assets/index-a.js',
      'import{x as y}from"./vendor-b.js";const s=()=>import("./Studio-c.js"),o=()=>import("./Other-d.js");',
    );
    write('assets/vendor-b.js', 'export const x=1;');
    write(
      'assets/Studio-c.js',
      'import{x}from"./vendor-b.js";import"./editor-e.js";const l=()=>import("./lazy-f.js");',
    );
    write('assets/editor-e.js', 'export*from"./shared-g.js";const c="ProseMirror-hideselection";');
    write('assets/shared-g.js', 'export const g=2;');
    write('assets/Other-d.js', 'import"./shared-g.js";');
    write('assets/lazy-f.js', 'import"./vendor-b.js";import"./lazy-h.js";');
    write('assets/lazy-h.js', `export const h="${'h'.repeat(5000)}";`);

    const sizes = dashboardSizes(dist);
    const files = (chunks: Array<{ file: string }>) => chunks.map((c) => c.file).sort();
    expect(files(sizes.firstLoad)).toEqual(['assets/index-a.js', 'assets/vendor-b.js']);
    expect(files(sizes.studio)).toEqual(['assets/Studio-c.js', 'assets/editor-e.js', 'assets/shared-g.js']);
    expect(files(sizes.studioLazy)).toEqual(['assets/lazy-f.js', 'assets/lazy-h.js']);
    expect(sizes.studio.filter((c) => c.prosemirror).map((c) => c.file)).toEqual(['assets/editor-e.js']);
    const h = sizes.studioLazy.find((c) => c.file === 'assets/lazy-h.js')!;
    expect(h.bytes).toBe(fs.statSync(path.join(dist, 'assets/lazy-h.js')).size);
    expect(h.gzip).toBeGreaterThan(0);
    expect(h.gzip).toBeLessThan(100);
  });
});
