import { describe, expect, it } from 'vitest';
import { ACTIONS, primaryAction, secondaryActions } from '../../dashboard/src/studio/studio-actions.js';
import { fieldsOf, type EditableFields } from '../../dashboard/src/studio/post-fields.js';
import type { Block } from '../../dashboard/src/types.js';

// Its imports are the bundler's (no file extensions): loaded at run time, outside the server's type check.
const scoringModule = '../../dashboard/src/studio/scoring.ts';
const { scoresOf } = (await import(scoringModule)) as {
  scoresOf(fields: EditableFields, blocks: readonly Block[]): { words: number; readingMin: number };
};

describe("the studio bar's main button and the Publish panel's others", () => {
  it('publishes a draft, updates a published copy, restores an archived one', () => {
    expect(primaryAction('post', 'draft')).toEqual({ to: 'published', label: 'Publish' });
    expect(primaryAction('post', 'published')).toEqual({ label: 'Update' });
    expect(primaryAction('post', 'archived')).toEqual({ to: 'draft', label: 'Restore to draft' });
    expect(primaryAction('post', 'scheduled')).toBeNull();
    expect(primaryAction('page', 'draft')).toEqual({ to: 'published', label: 'Publish' });
    expect(primaryAction('page', 'published')).toEqual({ label: 'Update' });
  });

  it('leaves every other move of the contract to the Publish panel, and offers each move once', () => {
    expect(secondaryActions('post', 'draft').map((a) => a.label)).toEqual(['Archive']);
    expect(secondaryActions('post', 'published').map((a) => a.label)).toEqual(['Unpublish to draft', 'Archive']);
    expect(secondaryActions('post', 'archived')).toEqual([]);
    expect(secondaryActions('page', 'published').map((a) => a.label)).toEqual(['Unpublish to draft']);
    for (const kind of ['post', 'page'] as const)
      for (const [status, moves] of Object.entries(ACTIONS[kind])) {
        const primary = primaryAction(kind, status);
        const offered = [...(primary?.to ? [primary.to] : []), ...secondaryActions(kind, status).map((a) => a.to)];
        expect(offered.sort(), `${kind} ${status}`).toEqual(moves.map((m) => m.to).sort());
      }
  });
});

describe("the studio bar's counts", () => {
  it('counts the words and the reading time of the body as the server does (230 words a minute)', () => {
    const fields = fieldsOf('post', null);
    const paragraph = (words: number): Block => ({ type: 'paragraph', text: Array(words).fill('word').join(' ') });
    expect(scoresOf(fields, [])).toMatchObject({ words: 0, readingMin: 1 });
    expect(scoresOf(fields, [paragraph(230)])).toMatchObject({ words: 230, readingMin: 1 });
    expect(
      scoresOf(fields, [
        paragraph(200),
        { type: 'heading', level: 2, text: 'Two more', id: 'two-more' },
        paragraph(29),
      ]),
    ).toMatchObject({ words: 231, readingMin: 2 });
  });
});
