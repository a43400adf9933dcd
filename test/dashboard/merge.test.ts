import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merge, resolve, unresolved } from '../../dashboard/src/studio/merge.js';
import type { EditorBlock } from '../../dashboard/src/studio/model.js';
import { fieldsOf, type EditableFields } from '../../dashboard/src/studio/post-fields.js';
import { arbitraryBody, edited } from './body-arbitraries.js';

const p = (text: string): EditorBlock => ({ type: 'paragraph', text });
const texts = (fields: EditableFields) => fields.bodyJson.map((block) => ('text' in block ? block.text : block.type));

const base: EditableFields = {
  ...fieldsOf('post', null),
  title: 'A walk',
  slug: 'a-walk',
  slugEdited: true,
  excerpt: 'Short.',
  tagIds: ['t1', 't2'],
  bodyJson: [p('One.'), p('Two.'), p('Three.'), p('Four.')],
};
const withBody = (fields: EditableFields, ...body: string[]): EditableFields => ({ ...fields, bodyJson: body.map(p) });

describe('the three-way merge of a stale save', () => {
  it('takes what each side changed where the other did not, fields and blocks alike', () => {
    const mine = {
      ...withBody(base, 'One, edited by me.', 'Two.', 'Three.', 'Four.', 'Five, mine.'),
      title: 'A long walk',
    };
    const theirs = { ...withBody(base, 'One.', 'Two.', 'Three, edited by them.'), excerpt: 'Their excerpt.' };
    const merged = merge(base, mine, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.taken).toEqual({ mine: 3, theirs: 3 });
    const result = resolve(merged, {});
    expect(result.title).toBe('A long walk');
    expect(result.excerpt).toBe('Their excerpt.');
    expect(texts(result)).toEqual(['One, edited by me.', 'Two.', 'Three, edited by them.', 'Five, mine.']);
  });

  it('makes a conflict of a block both changed differently, or one changed and the other deleted', () => {
    const mine = withBody(base, 'One.', 'Two, as I wrote it.', 'Three, mine.', 'Four.');
    const theirs = withBody(base, 'One.', 'Two, as they wrote it.', 'Four.');
    const merged = merge(base, mine, theirs);
    expect(merged.conflicts).toEqual([
      {
        id: 'block:1',
        kind: 'blocks',
        at: 1,
        added: false,
        base: [p('Two.')],
        mine: [p('Two, as I wrote it.')],
        theirs: [p('Two, as they wrote it.')],
      },
      {
        id: 'block:2',
        kind: 'blocks',
        at: 2,
        added: false,
        base: [p('Three.')],
        mine: [p('Three, mine.')],
        theirs: [],
      },
    ]);
    expect(unresolved(merged, { 'block:1': 'theirs' }).map((c) => c.id)).toEqual(['block:2']);
    expect(texts(resolve(merged, { 'block:1': 'theirs', 'block:2': 'theirs' }))).toEqual([
      'One.',
      'Two, as they wrote it.',
      'Four.',
    ]);
    expect(texts(resolve(merged, { 'block:1': 'mine', 'block:2': 'mine' }))).toEqual(texts(mine));
  });

  it('takes a block both sides changed alike once, and a block both deleted stays deleted', () => {
    const both = withBody(base, 'One!', 'Two.', 'Four.');
    const merged = merge(base, both, structuredClone(both));
    expect(merged.conflicts).toEqual([]);
    expect(texts(resolve(merged, {}))).toEqual(['One!', 'Two.', 'Four.']);
  });

  it('offers mine, theirs or both for blocks both sides added at the same place', () => {
    const mine = withBody(base, 'One.', 'Two.', 'Mine, new.', 'Three.', 'Four.');
    const theirs = withBody(base, 'One.', 'Two.', 'Theirs, new.', 'Three.', 'Four.');
    const merged = merge(base, mine, theirs);
    expect(merged.conflicts).toMatchObject([{ id: 'added:2', added: true, at: 2, base: [] }]);
    expect(texts(resolve(merged, { 'added:2': 'both' })).slice(2, 4)).toEqual(['Mine, new.', 'Theirs, new.']);
    expect(texts(resolve(merged, { 'added:2': 'theirs' }))).toEqual(texts(theirs));
  });

  it('makes a conflict of a field both changed differently, and merges tags as a set', () => {
    const mine = { ...base, title: 'My title', tagIds: ['t1', 't2', 'mine'] };
    const theirs = { ...base, title: 'Their title', tagIds: ['t2', 'theirs'] };
    const merged = merge(base, mine, theirs);
    expect(merged.conflicts).toEqual([
      { id: 'field:title', kind: 'field', name: 'title', base: 'A walk', mine: 'My title', theirs: 'Their title' },
    ]);
    expect(merged.fields.tagIds).toEqual(['t2', 'theirs', 'mine']);
    expect(resolve(merged, { 'field:title': 'theirs' }).title).toBe('Their title');
    expect(resolve(merged, { 'field:title': 'mine' }).title).toBe('My title');
  });

  it("keeps the server's derived parts of a block neither writer changed, and mine where I changed them", () => {
    const image = (extra: object): EditorBlock => ({ type: 'image', mediaId: 'm1', alt: 'A hill', ...extra });
    const start = { ...base, bodyJson: [image({ url: '/old.jpg' }), p('Two.')] };
    const theirs = { ...base, bodyJson: [image({ url: '/new.jpg', width: 800 }), p('Two, theirs.')] };
    expect(resolve(merge(start, structuredClone(start), theirs), {}).bodyJson[0]).toEqual(
      image({ url: '/new.jpg', width: 800 }),
    );
    // Mine moved a key of the block about without changing it: still the server's copy.
    const reordered = {
      ...start,
      bodyJson: [{ alt: 'A hill', url: '/old.jpg', mediaId: 'm1', type: 'image' } as EditorBlock, p('Two.')],
    };
    expect(resolve(merge(start, reordered, theirs), {}).bodyJson[0]).toEqual(image({ url: '/new.jpg', width: 800 }));
  });

  it('compares objects by value, whatever their key order', () => {
    const mine = { ...base, seo: { title: 'S', description: 'D' } };
    const theirs = { ...base, seo: { description: 'D', title: 'S' } };
    expect(merge(base, mine, theirs).conflicts).toEqual([]);
  });

  const arbitraryFields = arbitraryBody.map((bodyJson): EditableFields => ({ ...base, bodyJson }));
  const sides = arbitraryFields.chain((start) =>
    fc.tuple(
      fc.constant(start),
      edited(start.bodyJson).chain((bodyJson) =>
        fc
          .record({
            title: fc.constantFrom('A walk', 'A run', 'A swim'),
            excerpt: fc.constantFrom('Short.', 'Longer.'),
            tagIds: fc.subarray(['t1', 't2', 't3']),
            seo: fc.constantFrom(null, { title: 'S' }),
          })
          .map((changes): EditableFields => ({ ...start, ...changes, bodyJson })),
      ),
    ),
  );

  it('gives the other side exactly when one side changed nothing (property)', () => {
    fc.assert(
      fc.property(sides, ([start, changed]) => {
        const theirsOnly = merge(start, structuredClone(start), changed);
        expect(theirsOnly.conflicts).toEqual([]);
        expect(resolve(theirsOnly, {})).toEqual(changed);
        const mineOnly = merge(start, changed, structuredClone(start));
        expect(mineOnly.conflicts).toEqual([]);
        expect(resolve(mineOnly, {})).toEqual(changed);
      }),
      { numRuns: 300 },
    );
  });

  it('gives x for merge(base, x, x) (property)', () => {
    fc.assert(
      fc.property(sides, ([start, changed]) => {
        const merged = merge(start, changed, structuredClone(changed));
        expect(merged.conflicts).toEqual([]);
        expect(resolve(merged, {})).toEqual(changed);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every change of a side when the other changed different blocks (property)', () => {
    // Mine edits only the first half of the body, theirs only the second: nothing can conflict.
    fc.assert(
      fc.property(arbitraryFields, fc.nat(), fc.nat(), (start, a, b) => {
        const body = start.bodyJson;
        if (body.length < 2) return;
        const half = Math.ceil(body.length / 2);
        const mine = { ...start, bodyJson: body.map((block, i) => (i === a % half ? p(`mine ${i}`) : block)) };
        const at = half + (b % (body.length - half));
        const theirs = { ...start, bodyJson: body.map((block, i) => (i === at ? p(`theirs ${i}`) : block)) };
        const merged = merge(start, mine, theirs);
        expect(merged.conflicts).toEqual([]);
        const result = resolve(merged, {}).bodyJson;
        expect(result).toContainEqual(p(`mine ${a % half}`));
        expect(result).toContainEqual(p(`theirs ${at}`));
        expect(result).toHaveLength(body.length);
      }),
      { numRuns: 300 },
    );
  });
});
