import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockWrite } from '../src/index.js';
import { htmlToBlocks, parseInlineForTest, renderBlocks } from './convert-helpers.js';

const JAR = 'https://cms.example/media/w/m/jar.png';
const resolveImage = (src: string) => (src === JAR ? 'media-jar' : null);

/** One body of every block type, as a writer would write it (headings without ids, images without urls). */
const BODY: BlockWrite[] = [
  { type: 'heading', level: 2, text: 'Feeding *the* starter' },
  {
    type: 'paragraph',
    text: 'Mix **flour**, [water](https://example.com/w "Water") and `salt`, ~~yeast~~; 5 \\* 2 \\_ \\[x\\]\\\nthen wait.',
  },
  { type: 'heading', level: 3, text: 'Steps' },
  { type: 'list', style: 'ordered', items: ['Mix', 'Wait *a day*'] },
  { type: 'heading', level: 4, text: 'Kit' },
  { type: 'list', style: 'bullet', items: ['Jar', '[Scale](/scale)'] },
  { type: 'image', mediaId: 'media-jar', alt: 'A starter jar', caption: 'Day *three*' },
  { type: 'code', language: 'ts', code: 'const ratio = 1 / 2;\n  if (a < b && c > d) return "<p>";' },
  { type: 'quote', text: 'Bread is *life*.', attribution: 'A **baker**' },
  { type: 'quote', text: 'Unsigned.' },
  { type: 'divider' },
  { type: 'callout', variant: 'warning', title: 'Hot', body: 'The **oven** is at 250 °C.' },
  { type: 'callout', variant: 'success', body: 'Done.' },
  { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Shaping *a loaf*' },
  { type: 'video_embed', url: 'https://vimeo.com/76979871' },
  { type: 'tweet_embed', url: 'https://x.com/jack/status/20' },
  {
    type: 'faq',
    items: [
      { question: 'Why *rye*?', answer: 'It ferments [faster](/rye).' },
      { question: 'How long?', answer: 'A week.' },
    ],
  },
  {
    type: 'cta',
    title: 'Bake with us',
    body: 'Classes every *Saturday*.',
    linkUrl: 'https://example.com/classes',
    linkLabel: 'Book a place',
    variant: 'outlined',
  },
  { type: 'key_takeaways', items: ['Feed daily', 'Keep it **warm**'] },
];

/** What the renderer is given: the image as a read has it, with its url. */
const withUrls = (blocks: BlockWrite[]): BlockWrite[] =>
  blocks.map((block) => (block.type === 'image' ? { ...block, url: JAR } : block));

describe('htmlToBlocks(renderBlocks(body)) gives the body back', () => {
  it('for a body of every block type (heading ids left to the save, images resolved by the callback)', () => {
    const types = new Set(BODY.map((block) => block.type));
    expect(types.size).toBe(13);
    const result = htmlToBlocks(renderBlocks(withUrls(BODY)), { resolveImage });
    expect(result.blocks).toEqual(BODY);
    expect(result.report).toEqual({
      notes: [],
      images: [{ type: 'image', src: JAR, alt: 'A starter jar', caption: 'Day *three*', mediaId: 'media-jar' }],
    });
  });

  it('documented differences: heading ids are dropped, an unresolved image is reported, an empty alt is left out', () => {
    const result = htmlToBlocks(
      renderBlocks([
        { type: 'heading', level: 2, text: 'Intro', id: 'custom-id' },
        { type: 'image', mediaId: 'x', alt: '', url: 'https://cms.example/other.png' },
        { type: 'image', mediaId: 'media-jar', alt: '', url: JAR },
      ]),
      { resolveImage },
    );
    expect(result.blocks).toEqual([
      { type: 'heading', level: 2, text: 'Intro' },
      { type: 'image', mediaId: 'media-jar' },
    ]);
    expect(result.report.notes).toEqual([expect.objectContaining({ kind: 'unresolved-image', element: 'img' })]);
  });
});

/*
 * Arbitrary text, as a browser would show it: runs of HTML white space are one space and the ends are trimmed
 * (the renderer's HTML does not keep them either). NUL, which the renderer writes as U+FFFD, is left out.
 */
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      // What Markdown and HTML read specially, which arbitrary graphemes seldom hold.
      fc.constantFrom(
        '*',
        '**',
        '_',
        '`',
        '[',
        ']',
        '(',
        ')',
        '<',
        '>',
        '&',
        '&amp;',
        '&#42;',
        '~~',
        '\\',
        '!',
        '#',
        '\n',
        ' ',
      ),
    ),
    { minLength: 1, maxLength: 10 },
  )
  .map((parts) => parts.join(''))
  .map((value) =>
    value
      .replace(/\0/g, '')
      .replace(/[ \t\n\r\f]+/g, ' ')
      .trim(),
  )
  .filter((value) => value !== '');

/** Text as inline Markdown that shows it as it is: the converter's own escaping, checked below by the parser. */
const escape = (value: string) => value.replace(/[\\`*_[\]<~]|&(?=#?[A-Za-z0-9]+;)/g, (char) => `\\${char}`);

const phrase = fc
  .array(
    fc.oneof(
      text.map(escape),
      text.map((value) => `**${escape(value)}**`),
      text.map((value) => `*${escape(value)}*`),
      text.map((value) => `~~${escape(value)}~~`),
      fc
        .tuple(text, fc.constantFrom('https://example.com/a', '/local?q=1', '#top', 'mailto:a@example.com'))
        .map(([label, url]) => `[${escape(label)}](${url})`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(' '));

const code = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
  .map((value) => value.replace(/[\0\r]/g, '').replace(/\n+$/, ''))
  .filter((value) => value.trim() !== '');

const block: fc.Arbitrary<BlockWrite> = fc.oneof(
  phrase.map((value) => ({ type: 'paragraph' as const, text: value })),
  fc
    .tuple(fc.constantFrom(2 as const, 3 as const, 4 as const), phrase)
    .map(([level, value]) => ({ type: 'heading' as const, level, text: value })),
  fc
    .tuple(fc.constantFrom('bullet' as const, 'ordered' as const), fc.array(phrase, { minLength: 1, maxLength: 4 }))
    .map(([style, items]) => ({ type: 'list' as const, style, items })),
  fc.tuple(phrase, fc.option(phrase, { nil: undefined })).map(([value, attribution]) => ({
    type: 'quote' as const,
    text: value,
    ...(attribution === undefined ? {} : { attribution }),
  })),
  fc
    .tuple(fc.constantFrom('', 'ts', 'python', 'c++'), code)
    .map(([language, value]) => ({ type: 'code' as const, language, code: value })),
);

describe('round trip on generated bodies', () => {
  it('paragraphs, headings, lists, quotes and code of arbitrary text come back as they were', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (body) => {
        expect(htmlToBlocks(renderBlocks(body)).blocks).toEqual(body);
      }),
      { numRuns: 400 },
    );
  });

  it('the escaping of text reads back, through the renderer’s parser, as the text itself', () => {
    fc.assert(
      fc.property(text, (value) => {
        const [paragraph] = htmlToBlocks(`<p>${value.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).blocks;
        expect(paragraph?.type === 'paragraph' && parseInlineForTest(paragraph.text)).toBe(value);
      }),
      { numRuns: 1000 },
    );
  });
});
