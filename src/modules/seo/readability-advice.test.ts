import { bodyText, type Block } from '@quire/blocks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readabilityScore } from './readability.js';
import { READABILITY_RULES, readabilityAdvice, type AdviceId, type AdviceItem } from './readability-advice.js';

const paragraph = (text: string): Block => ({ type: 'paragraph', text });
const heading = (text: string): Block => ({ type: 'heading', level: 2, text, id: text.toLowerCase() });
const image: Block = { type: 'image', mediaId: 'm', url: null, caption: 'A caption' };
/** `count` words of one syllable, no sentence end. */
const words = (count: number, word = 'cat') => Array.from({ length: count }, () => word).join(' ');

function item(blocks: readonly Block[], id: AdviceId): AdviceItem {
  return readabilityAdvice(blocks).items.find((candidate) => candidate.id === id)!;
}

describe('readabilityAdvice', () => {
  it('passes every check of an empty body, and of one without words', () => {
    const bare: Block = { type: 'image', mediaId: 'm', url: null, alt: 'Alt texts are not read' };
    for (const blocks of [[], [bare, { type: 'divider' }, heading('')] as Block[]]) {
      const advice = readabilityAdvice(blocks);
      expect(advice.score).toBe(0);
      expect(advice.band).toBe('no text yet');
      expect(advice.items.map((i) => [i.id, i.passed, i.where])).toEqual([
        ['reading-ease', true, []],
        ['sentence-length', true, []],
        ['paragraph-length', true, []],
        ['subheading-distribution', true, []],
        ['sentence-beginnings', true, []],
      ]);
    }
  });

  describe('reading ease', () => {
    it('is the stored figure with its band, and names the blocks that score under the threshold', () => {
      const blocks = [
        heading('Start'),
        paragraph('The cat sat on the mat.'),
        paragraph('Readability is measured with formulas.'),
      ];
      const advice = readabilityAdvice(blocks);
      expect(advice.score).toBe(readabilityScore(bodyText(blocks)));
      const ease = item(blocks, 'reading-ease');
      expect(ease).toMatchObject({ passed: advice.score >= READABILITY_RULES.readingEase, where: [2] });
      expect(ease.label).toBe(`Reading ease ${advice.score}: ${advice.band}`);
    });

    it('passes plain English and fails hard going', () => {
      const easy = readabilityAdvice([paragraph('The cat sat on the mat.')]);
      expect(easy).toMatchObject({ score: 100, band: 'very easy' });
      expect(easy.items[0]).toMatchObject({ id: 'reading-ease', passed: true, where: [] });
      const hard = readabilityAdvice([paragraph('The cat sat.'), paragraph('Readability is measured with formulas.')]);
      expect(hard.score).toBeLessThan(READABILITY_RULES.readingEase);
      expect(hard.items[0]).toMatchObject({ passed: false, label: `Reading ease ${hard.score}: ${hard.band}` });
      expect(readabilityAdvice([paragraph('Readability is measured with formulas.')]).band).toBe('very difficult');
      expect(hard.items[0]!.where).toEqual([1]);
    });

    it('equals readabilityScore(bodyText(blocks)) for any body', () => {
      const text = fc.string({ unit: 'grapheme', maxLength: 80 });
      const block: fc.Arbitrary<Block> = fc.oneof(
        text.map((t) => paragraph(t)),
        text.map((t) => heading(t)),
        fc
          .array(text, { minLength: 1, maxLength: 3 })
          .map((items): Block => ({ type: 'list', style: 'bullet', items })),
        fc.tuple(text, text).map(([t, a]): Block => ({ type: 'quote', text: t, attribution: a })),
        fc.tuple(text, text).map(([title, body]): Block => ({ type: 'callout', variant: 'info', title, body })),
        fc
          .array(fc.record({ question: text, answer: text }), { minLength: 1, maxLength: 3 })
          .map((items): Block => ({ type: 'faq', items })),
        text.map((caption): Block => ({ ...image, caption })),
      );
      fc.assert(
        fc.property(fc.array(block, { maxLength: 8 }), (blocks) => {
          const advice = readabilityAdvice(blocks);
          expect(advice.score).toBe(readabilityScore(bodyText(blocks)));
          for (const { where } of advice.items)
            expect(
              where.every((index, i) => index >= 0 && index < blocks.length && (i === 0 || index > where[i - 1]!)),
            ).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('sentence length', () => {
    const long = `${words(READABILITY_RULES.longSentenceWords + 1)}.`;
    const limit = `${words(READABILITY_RULES.longSentenceWords)}.`;

    it('passes when at most 25 % of the sentences run over 20 words, and names their blocks', () => {
      const blocks = [paragraph(`Short one. ${limit}`), image, paragraph(`${long} Short two.`)];
      expect(item(blocks, 'sentence-length')).toMatchObject({
        passed: true,
        label: 'Sentence length: 25 % of sentences over 20 words',
        where: [2],
      });
    });

    it('fails when more do, counting list items and FAQ answers as sentences', () => {
      const blocks: Block[] = [
        paragraph(`${long} Short.`),
        { type: 'list', style: 'bullet', items: ['One', long] },
        { type: 'faq', items: [{ question: 'Why?', answer: 'Because.' }] },
        { type: 'cta', title: long, body: long, linkUrl: 'https://x.example', linkLabel: 'Go', variant: 'default' },
      ];
      const check = item(blocks, 'sentence-length');
      expect(check).toMatchObject({ passed: false, where: [0, 1] });
      expect(check.label).toBe('Sentence length: 40 % of sentences over 20 words');
      expect(check.fix).toMatch(/25 %.*20 words/);
    });
  });

  describe('paragraph length', () => {
    it('fails for paragraph blocks over 150 words and names them', () => {
      const blocks: Block[] = [
        paragraph(words(150)),
        paragraph(words(151)),
        { type: 'list', style: 'bullet', items: [words(200)] },
        { type: 'quote', text: words(200) },
        paragraph(`${words(100)}. **${words(51)}**`),
      ];
      expect(item(blocks, 'paragraph-length')).toMatchObject({
        passed: false,
        label: 'Paragraph length: 2 paragraphs over 150 words',
        where: [1, 4],
      });
      expect(item(blocks.slice(0, 1), 'paragraph-length')).toMatchObject({ passed: true, where: [] });
    });
  });

  describe('subheading distribution', () => {
    it('passes 300 words without a heading and fails 301, naming where each stretch starts', () => {
      expect(item([paragraph(words(200)), image, paragraph(words(100))], 'subheading-distribution')).toMatchObject({
        passed: true,
        where: [],
      });
      const blocks: Block[] = [
        paragraph(words(200)),
        { type: 'list', style: 'ordered', items: [words(101)] },
        heading('Short part'),
        paragraph(words(300)),
        heading('Long part'),
        image,
        paragraph(words(150)),
        paragraph(words(151)),
      ];
      expect(item(blocks, 'subheading-distribution')).toMatchObject({
        passed: false,
        label: 'Subheadings: 2 stretches of more than 300 words without one',
        where: [0, 6],
      });
    });

    it('takes each FAQ question as a subheading', () => {
      const faq: Block = {
        type: 'faq',
        items: [
          { question: 'One?', answer: words(200) },
          { question: 'Two?', answer: words(200) },
        ],
      };
      expect(item([faq], 'subheading-distribution').passed).toBe(true);
      expect(item([paragraph(words(200)), paragraph(words(200))], 'subheading-distribution').passed).toBe(false);
      // The stretch from the second question on runs into the paragraph after the FAQ block.
      expect(item([faq, paragraph(words(101))], 'subheading-distribution')).toMatchObject({
        passed: false,
        where: [0],
      });
    });
  });

  describe('sentence beginnings', () => {
    it('fails for three sentences in a row that begin alike, across blocks, and names them', () => {
      const blocks = [paragraph('Start here. Then mix it.'), image, paragraph('Then bake it. Then eat it. Done.')];
      const check = item(blocks, 'sentence-beginnings');
      expect(check).toMatchObject({
        passed: false,
        label: 'Sentence beginnings: 1 run of 3 or more alike',
        where: [0, 2],
      });
      expect(check.fix).toBe('Vary the first word: 3 sentences in a row begin with “then”.');
    });

    it('passes two in a row, runs broken by a heading or a list, parallel list items and different nouns', () => {
      const pass = (blocks: Block[]) => expect(item(blocks, 'sentence-beginnings')).toMatchObject({ passed: true });
      pass([paragraph('Then mix. Then bake. Now eat.')]);
      pass([paragraph('Then mix. Then bake.'), heading('Then'), paragraph('Then eat.')]);
      pass([
        paragraph('Then mix. Then bake.'),
        { type: 'list', style: 'bullet', items: ['Go'] },
        paragraph('Then eat.'),
      ]);
      pass([{ type: 'key_takeaways', items: ['Use salt.', 'Use flour.', 'Use water.'] }]);
      pass([paragraph('The cat sat. The dog ran. The bird sang.')]);
    });

    it('compares the words a reader sees, whatever their case, marks or Markdown', () => {
      const blocks = [
        paragraph('**Then** mix. “then” bake! [Then](/eat) eat?'),
        paragraph('The cat. The cat. The cat.'),
      ];
      expect(item(blocks, 'sentence-beginnings')).toMatchObject({
        passed: false,
        label: 'Sentence beginnings: 2 runs of 3 or more alike',
        where: [0, 1],
      });
    });
  });

  it('reads the plain text of inline Markdown: link targets are no words, emphasis ends no sentence early', () => {
    const sentence = `[${words(10)}](https://example.com/a/b/c/d/e/f/g/h/i/j/k "${words(11)}") ${words(10)}.`;
    expect(item([paragraph(sentence)], 'sentence-length')).toMatchObject({ passed: true, where: [] });
    expect(item([paragraph(`**${words(10)}.** ${words(11)}.`)], 'sentence-length').passed).toBe(true);
  });

  it('does not throw on text in any script, and finds alike beginnings in it', () => {
    const blocks = [
      paragraph('Это первое. Это второе. Это третье.'),
      paragraph('这是一个很长的句子，没有空格。日本語の文章です。'),
      paragraph('مرحبا بالعالم. هذه جملة.'),
      paragraph('🎉 🎉 🎉. Ünïcödé façade naïve.'),
    ];
    const advice = readabilityAdvice(blocks);
    expect(advice.score).toBe(readabilityScore(bodyText(blocks)));
    expect(advice.items.find((i) => i.id === 'sentence-beginnings')).toMatchObject({ passed: false, where: [0] });
  });

  it('answers the same again, and a changed text anew', () => {
    const blocks = [paragraph('Then mix. Then bake. Then eat.')];
    const first = readabilityAdvice(blocks);
    expect(readabilityAdvice(blocks)).toEqual(first);
    // As long as the first text: a change a cache keyed on anything less than the text would miss.
    expect(item([paragraph('Then mix. Thus bake. Then eat.')], 'sentence-beginnings').passed).toBe(true);
  });
});
