import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alignBlocks,
  blockKey,
  fieldChanges,
  foldUnchanged,
  readsAsEdit,
  wordChanges,
} from '../../dashboard/src/studio/body-diff.js';
import type { EditorBlock } from '../../dashboard/src/studio/model.js';
import { arbitraryBody, edited } from './body-arbitraries.js';

const p = (text: string): EditorBlock => ({ type: 'paragraph', text });
const h = (text: string, id = 'x'): EditorBlock => ({ type: 'heading', level: 2, text, id });
const kinds = (rows: ReturnType<typeof alignBlocks>) => rows.map((row) => row.kind);

describe("the body diff's alignment of blocks", () => {
  it('matches equal blocks, pairs an edited one with its old self, and keeps added and removed ones apart', () => {
    const before = [h('Start'), p('One two three four.'), p('Gone for good.'), p('End.')];
    const after = [h('Start', 'derived-again'), p('One two three five.'), p('End.'), p('A new closing line.')];
    const rows = alignBlocks(before, after);
    expect(kinds(rows)).toEqual(['same', 'changed', 'removed', 'same', 'added']);
    expect(rows[1]).toMatchObject({ beforeIndex: 1, afterIndex: 1 });
    expect(rows[2]).toMatchObject({ beforeIndex: 2, before: p('Gone for good.') });
    expect(rows[4]).toMatchObject({ afterIndex: 3, after: p('A new closing line.') });
  });

  it('calls a lone rewrite in place a change, but a rewrite among others a removal and an addition', () => {
    expect(kinds(alignBlocks([p('A'), p('Old words.'), p('B')], [p('A'), p('Entirely new.'), p('B')]))).toEqual([
      'same',
      'changed',
      'same',
    ]);
    expect(kinds(alignBlocks([p('Old words here.'), p('B')], [p('Fresh text.'), p('More fresh.'), p('B')]))).toEqual([
      'removed',
      'added',
      'added',
      'same',
    ]);
    // A paragraph turned into a heading with its words kept is the same block, changed.
    expect(kinds(alignBlocks([p('Turned into a heading')], [h('Turned into a heading')]))).toEqual(['changed']);
    expect(kinds(alignBlocks([p('Words')], [{ type: 'divider' }]))).toEqual(['removed', 'added']);
  });

  it('puts a replaced divider next to its replacement, not on an equal divider elsewhere', () => {
    const d: EditorBlock = { type: 'divider' };
    expect(alignBlocks([d, d], [p('Instead of the first'), d])).toMatchObject([
      { kind: 'removed', beforeIndex: 0 },
      { kind: 'added', afterIndex: 0 },
      { kind: 'same', beforeIndex: 1, afterIndex: 1 },
    ]);
    expect(alignBlocks([d, d], [d, p('Instead of the second')])).toMatchObject([
      { kind: 'same', beforeIndex: 0, afterIndex: 0 },
      { kind: 'removed', beforeIndex: 1 },
      { kind: 'added', afterIndex: 1 },
    ]);
  });

  it('lists the fields of a card that differ, by the labels the editor shows', () => {
    const before: EditorBlock = { type: 'quote', text: 'To be.', attribution: 'Hamlet' };
    const after: EditorBlock = { type: 'quote', text: 'To be.', attribution: 'Ophelia' };
    expect(fieldChanges(before, after)).toEqual([{ label: 'Attribution', before: 'Hamlet', after: 'Ophelia' }]);
    expect(fieldChanges(undefined, { type: 'code', language: 'ts', code: 'x' })).toEqual([
      { label: 'Code', before: '', after: 'x' },
      { label: 'Language', before: '', after: 'ts' },
    ]);
    // What the server derives is not the writer's change.
    expect(blockKey(h('Same', 'a'))).toBe(blockKey(h('Same', 'b')));
    expect(blockKey({ type: 'image', mediaId: 'm', url: '/a.jpg' })).toBe(blockKey({ type: 'image', mediaId: 'm' }));
  });

  it('folds each run of unchanged blocks into one entry', () => {
    const rows = alignBlocks([p('A'), p('B'), p('C'), p('D')], [p('A'), p('B'), p('C!'), p('D')]);
    const folded = foldUnchanged(rows);
    expect(folded.map((row) => row.kind)).toEqual(['unchanged', 'changed', 'unchanged']);
    expect(folded[0]).toMatchObject({ rows: [{ beforeIndex: 0 }, { beforeIndex: 1 }] });
  });

  it('reads a text as an edit of another by the words they share, whatever their case and punctuation', () => {
    expect(readsAsEdit('The cat sat.', 'the CAT sat')).toBe(true);
    expect(readsAsEdit('Three.', 'Three, edited by them.')).toBe(true);
    expect(readsAsEdit('one two', 'three four')).toBe(false);
    expect(readsAsEdit('Three.', 'Three words and then a dozen more of them, all new ones.')).toBe(false);
    expect(readsAsEdit('', '')).toBe(true);
    expect(readsAsEdit('', 'Filled in.')).toBe(false);
  });

  it('holds every block of both bodies once, each side in its order, equal ones matched (property)', () => {
    fc.assert(
      fc.property(
        arbitraryBody.chain((before) => fc.tuple(fc.constant(before), edited(before))),
        ([before, after]) => {
          const rows = alignBlocks(before, after);
          expect(rows.filter((row) => row.before).map((row) => row.before)).toEqual(before);
          expect(rows.filter((row) => row.after).map((row) => row.after)).toEqual(after);
          expect(rows.filter((row) => row.before).map((row) => row.beforeIndex)).toEqual(before.map((_, i) => i));
          expect(rows.filter((row) => row.after).map((row) => row.afterIndex)).toEqual(after.map((_, i) => i));
          for (const row of rows) {
            if (row.kind === 'same') expect(blockKey(row.before!)).toBe(blockKey(row.after!));
            if (row.kind === 'changed') expect(blockKey(row.before!)).not.toBe(blockKey(row.after!));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('diffs a text word by word, a replaced phrase read as one, and gives up on two long unrelated texts', () => {
    expect(wordChanges('Second version.', 'Third version, see https://example.com/a.')).toEqual([
      { value: 'Second', removed: true },
      { value: 'Third', added: true },
      { value: ' version' },
      { value: '.', removed: true },
      { value: ', see https://example.com/a.', added: true },
    ]);
    expect(wordChanges('Same.', 'Same.')).toEqual([{ value: 'Same.' }]);
    const long = (seed: string) => Array.from({ length: 600 }, (_, i) => `${seed}${i}`).join(' ');
    expect(wordChanges(long('a'), long('b'))).toEqual([
      { value: long('a'), removed: true },
      { value: long('b'), added: true },
    ]);
  });

  it('keeps every word in its parts: common and removed give the old text, common and added the new (property)', () => {
    // diffWords ignores whitespace: a common part carries the new text's spacing, so spacing is left out here.
    const words = (text: string) => text.replace(/\s+/g, '');
    const text = fc
      .array(fc.constantFrom('a', 'cat', 'sat', '.', ',', ' ', '\n', 'https://x.y/z', 'é'), {
        maxLength: 12,
      })
      .map((tokens) => tokens.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const parts = wordChanges(before, after);
        const old = parts.filter((part) => !part.added).map((part) => part.value);
        const now = parts.filter((part) => !part.removed).map((part) => part.value);
        expect(words(old.join(''))).toBe(words(before));
        expect(words(now.join(''))).toBe(words(after));
      }),
      { numRuns: 500 },
    );
  });
});
