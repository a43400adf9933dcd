import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedText, plainText, strongLead } from '../src/inline.js';

describe('plainText', () => {
  it.each([
    ['See [the docs](https://example.com/docs) and `npm ci`.', 'See the docs and npm ci.'],
    ['**Tip:** use *fresh* flour, __not__ _old_ flour', 'Tip: use fresh flour, not old flour'],
    ['An image ![a starter jar](/jar.png) here', 'An image a starter jar here'],
    ['Autolinks: <https://example.com>', 'Autolinks: https://example.com'],
    ['Entities &amp; escapes: &copy; \\*not emphasis\\*', 'Entities & escapes: © *not emphasis*'],
    ['A hard break  \nand a soft\none', 'A hard break\nand a soft\none'],
    ['Two paragraphs\n\nstay apart', 'Two paragraphs\n\nstay apart'],
    ['  trimmed at both ends\t', 'trimmed at both ends'],
    ['~~struck~~ and ~single~ tildes', 'struck and ~single~ tildes'],
    ['<b>raw HTML</b> is text', '<b>raw HTML</b> is text'],
  ])('reads %j as %j', (markdown, text) => {
    expect(plainText(markdown)).toBe(text);
  });

  it.each([
    '1. Introduction',
    '# of guests',
    '> 50 tips',
    '- a dash first',
    '---',
    'Title\n===',
    '[a]: https://example.com',
    '2 * 3 * 4',
    'snake_case_names',
    'C:\\Users',
  ])('keeps %j: inline Markdown has no blocks, and these are no inline syntax', (text) => {
    expect(plainText(text)).toBe(text);
  });

  it('answers what the parser reads for any string, also when it skips the parse', () => {
    // Markdown's syntax characters and entities, white space of every kind, and plain letters, in any order.
    const pieces = [
      ...'ab1.-#>=:;()*_[]!`<&~\\ \t\n\r\f\v\u00a0\u2028\uFEFF',
      '&amp;',
      '&#35;',
      '&copy;',
      'https://x.y',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), (parts) => {
        const markdown = parts.join('');
        expect(plainText(markdown)).toBe(parsedText(markdown));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect(plainText(text)).toBe(parsedText(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('strongLead', () => {
  it('is the bold lead of a step, as plain text', () => {
    expect(strongLead('**Mix** the flour and water')).toBe('Mix');
    expect(strongLead('__Fold `gently`__: twice')).toBe('Fold gently');
  });

  it('is undefined without one', () => {
    expect(strongLead('Mix the **flour**')).toBeUndefined();
    expect(strongLead('*Mix* the flour')).toBeUndefined();
    expect(strongLead('Mix the flour')).toBeUndefined();
  });
});
