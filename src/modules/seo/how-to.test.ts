import { describe, expect, it } from 'vitest';
import type { StoredBlock } from '@quire/blocks';
import { expectValidJsonLd } from '../../../test/helpers/json-ld.js';
import { howToNode, howToSteps } from './how-to.js';
import { graph } from './json-ld.js';

const URL = 'https://blog.example.com/blog/bread';

describe('howToSteps', () => {
  it('takes the items of the first ordered list', () => {
    const blocks: StoredBlock[] = [
      { type: 'heading', level: 2, text: 'Ingredients', id: 'ingredients' },
      { type: 'list', style: 'bullet', items: ['Flour'] },
      { type: 'list', style: 'ordered', items: ['Mix', 'Knead'] },
      { type: 'list', style: 'ordered', items: ['Ignored'] },
    ];
    expect(howToSteps(blocks, URL)).toEqual([
      { '@type': 'HowToStep', position: 1, name: 'Mix', text: 'Mix' },
      { '@type': 'HowToStep', position: 2, name: 'Knead', text: 'Knead' },
    ]);
  });

  it('names a list item’s step by its bold lead, else by its text, all as plain text', () => {
    const blocks: StoredBlock[] = [
      {
        type: 'list',
        style: 'ordered',
        items: ['**Mix** the flour and `water`', 'Knead for [ten minutes](https://example.com/knead)'],
      },
    ];
    expect(howToSteps(blocks, URL)).toEqual([
      { '@type': 'HowToStep', position: 1, name: 'Mix', text: 'Mix the flour and water' },
      { '@type': 'HowToStep', position: 2, name: 'Knead for ten minutes', text: 'Knead for ten minutes' },
    ]);
  });

  it('else makes a step of each top-level heading, with what is under it and its anchor as url', () => {
    const blocks: StoredBlock[] = [
      { type: 'paragraph', text: 'Intro, before any step.' },
      { type: 'heading', level: 2, text: 'Mix', id: 'mix' },
      { type: 'paragraph', text: 'Stir flour and water.' },
      { type: 'heading', level: 3, text: 'Tip', id: 'tip' },
      { type: 'list', style: 'bullet', items: ['Use a fork', 'Go slow'] },
      { type: 'heading', level: 2, text: 'Rest', id: 'rest' },
      { type: 'image', mediaId: '00000000-0000-4000-8000-000000000001' },
    ];
    expect(howToSteps(blocks, URL)).toEqual([
      {
        '@type': 'HowToStep',
        position: 1,
        name: 'Mix',
        text: 'Stir flour and water.\nTip\nUse a fork\nGo slow',
        url: `${URL}#mix`,
      },
      { '@type': 'HowToStep', position: 2, name: 'Rest', text: 'Rest', url: `${URL}#rest` },
    ]);
    expect(howToSteps(blocks, null)[0]).not.toHaveProperty('url');
  });

  it('finds none in a body without an ordered list or a heading', () => {
    expect(howToSteps([{ type: 'paragraph', text: 'Just prose.' }], URL)).toEqual([]);
  });
});

describe('howToNode', () => {
  it('is a HowTo with an @id when the URL is known', async () => {
    const node = howToNode(
      {
        name: 'Bake bread',
        description: 'Slowly.',
        imageUrl: null,
        blocks: [{ type: 'list', style: 'ordered', items: ['Bake'] }],
      },
      URL,
    );
    expect(node).toEqual({
      '@type': 'HowTo',
      '@id': `${URL}#howto`,
      name: 'Bake bread',
      description: 'Slowly.',
      step: [{ '@type': 'HowToStep', position: 1, name: 'Bake', text: 'Bake' }],
    });
    await expectValidJsonLd(graph([node]));
  });

  it('is left out rather than emitted without a step, which Google would refuse', () => {
    expect(howToNode({ name: 'Bake bread', description: undefined, imageUrl: null, blocks: [] }, URL)).toBeNull();
  });
});
