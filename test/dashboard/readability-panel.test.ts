import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { blockLead } from '../../dashboard/src/studio/block-lead.js';
import type { Block } from '../../dashboard/src/types.js';
import { readabilityAdvice } from '../../src/modules/seo/readability-advice.js';

// A .tsx module: loaded at run time, as the server's type check has no JSX.
const panelModule = '../../dashboard/src/studio/ReadabilityPanel.tsx';
const { ReadabilityChecklist } = (await import(panelModule)) as {
  ReadabilityChecklist: FunctionComponent<Record<string, unknown>>;
};

const render = (props: Record<string, unknown>) =>
  renderToStaticMarkup(createElement(ReadabilityChecklist, { leads: new Map(), onJump: () => undefined, ...props }));

/** The markup of the checklist item whose label starts with `label`. */
function itemOf(html: string, label: string): string {
  const start = html.lastIndexOf('<li class="check-', html.indexOf(label));
  return html.slice(start, html.indexOf('</li><li class="check-', start + 1));
}

const words = (count: number) => Array.from({ length: count }, () => 'cat').join(' ');

describe('the readability panel', () => {
  it('shows its heading alone until the first advice is in', () => {
    const html = render({ advice: null });
    expect(html).toMatch(
      /^<section class="panel readability" aria-labelledby="([^"]+)"><h2 id="\1">Readability<\/h2><\/section>$/,
    );
  });

  it('shows the reading ease, a labelled checklist, and the fix and buttons of failing checks only', () => {
    const blocks: Block[] = [
      { type: 'paragraph', text: `**Then** ${words(151)}. Then mix. Then bake.` },
      { type: 'heading', level: 2, text: 'Part', id: 'part' },
      { type: 'paragraph', text: 'The cat sat on the mat.' },
    ];
    const advice = readabilityAdvice(blocks);
    const html = render({ advice, leads: new Map([[0, blockLead(blocks[0]!)]]) });
    expect(html).toContain(`<strong>Reading ease ${advice.score}</strong> · ${advice.band}`);
    expect(html).toContain('<ul class="checklist" aria-label="Readability checklist">');

    const passed = itemOf(html, 'Subheadings:');
    expect(passed).toContain('<span aria-hidden="true">✓</span> <span class="visually-hidden">Passed: </span>');
    expect(passed).not.toContain('hint');
    expect(passed).not.toContain('<button');

    const failed = itemOf(html, 'Paragraph length:');
    expect(failed).toContain('<span aria-hidden="true">○</span> <span class="visually-hidden">To do: </span>');
    expect(failed).toContain('<span class="hint"> — Break paragraphs of more than 150 words in two.</span>');
    expect(failed).toContain(
      '<ul class="readability-jumps" aria-label="Blocks: Paragraph length: 1 paragraph over 150 words">',
    );
    expect(failed).toContain(
      '<button type="button" class="button-small">Go to block 1<span class="readability-lead">: “Then cat cat cat cat cat…”</span></button>',
    );
    expect(itemOf(html, 'Sentence beginnings:')).toContain('Go to block 1');
  });

  it('shows five buttons of a check and says how many more blocks it is about', () => {
    const blocks: Block[] = Array.from({ length: 8 }, () => ({ type: 'paragraph', text: words(151) }));
    const html = render({ advice: readabilityAdvice(blocks) });
    const failed = itemOf(html, 'Paragraph length:');
    expect(failed.match(/<button/g)).toHaveLength(5);
    expect(failed).toContain('Go to block 5</button>');
    expect(failed).not.toContain('Go to block 6');
    expect(failed).toContain('<li class="hint">and 3 more</li>');
  });
});

describe('blockLead', () => {
  it('names a block by the first six words a reader sees', () => {
    expect(blockLead({ type: 'paragraph', text: 'See [the docs](https://example.com) and *more* of it here.' })).toBe(
      'See the docs and more of…',
    );
    expect(blockLead({ type: 'list', style: 'bullet', items: ['One', 'Two'] })).toBe('One Two');
    expect(blockLead({ type: 'divider' })).toBe('');
  });
});
