import { describe, expect, it } from 'vitest';
import { headingIds, tocItems, type BlockWrite } from '../src/index.js';

describe('headingIds and tocItems of a body being written', () => {
  it('derive the ids a save would give headings that have none, around the explicit ones', () => {
    const blocks: BlockWrite[] = [
      { type: 'heading', level: 2, text: 'Setup' },
      { type: 'paragraph', text: 'x' },
      { type: 'heading', level: 3, text: 'Setup' },
      { type: 'heading', level: 3, text: 'Other', id: 'setup-1' },
      { type: 'heading', level: 4, text: '!!!' },
    ];
    expect(headingIds(blocks)).toEqual(['setup', 'setup-2', 'setup-1', 'section']);
    expect(tocItems(blocks)).toEqual([
      { level: 2, text: 'Setup', id: 'setup' },
      { level: 3, text: 'Setup', id: 'setup-2' },
      { level: 3, text: 'Other', id: 'setup-1' },
      { level: 4, text: '!!!', id: 'section' },
    ]);
  });
});
