import fc from 'fast-check';
import { Fragment, type Mark, type Node as PmNode } from 'prosemirror-model';
import type { EditorBlock } from '../../dashboard/src/studio/model.js';
import { schema } from '../../dashboard/src/studio/document/schema.js';

/*
 * Generators for the document converters' tests: inline Markdown as writers and importers write it (and as they
 * should not), inline content as the surface can hold it, and bodies of all 13 block types.
 */

const WORDS = ['word', 'Quire', 'a', 'x1', 'café', '日本語', '😀', 'naïve', 'U.S.', '42', 'e.g.', 'don’t'];
const PUNCTUATION = ['.', ',', '!', '?', '(', ')', '"', "'", ':', '-', '#', '>', '1.', '+', '|', '%', '$', '/', ';'];
const MARKDOWN = [
  '**',
  '*',
  '_',
  '__',
  '`',
  '``',
  '~~',
  '~',
  '[',
  ']',
  '](',
  '](/x)',
  '\\',
  '\\*',
  '\\\\',
  '<b>',
  '</b>',
  '<x@y.z>',
  '<https://q.example>',
  '&amp;',
  '&',
  '&copy;',
  '&#35;',
  '&#xFEFF;',
  '![a](b.png)',
  '[l](https://q.example/a "t")',
  '[l](<a b>)',
  '[r][1]',
  '\n',
  '\n\n',
  '\n\n\n',
  '  \n',
  '\\\n',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u200b',
  '\r\n',
  '\0',
  '\uFEFF',
  '- ',
  '# ',
  '> ',
  '    ',
  '---',
  '===',
  '<!-- c -->',
  '[^1]',
  'www.q.example',
  '$x$',
  ':)',
];

const token = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 3, arbitrary: fc.constant(' ') },
  { weight: 2, arbitrary: fc.constantFrom(...PUNCTUATION) },
  { weight: 5, arbitrary: fc.constantFrom(...MARKDOWN) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: 'grapheme' }) },
);

/** An inline Markdown string: words, punctuation and Markdown's own characters, well-formed or not. */
export const inlineMarkdown: fc.Arbitrary<string> = fc.array(token, { maxLength: 24 }).map((tokens) => tokens.join(''));

/** Text as a writer types it: words, spaces and any character Markdown reads. */
const typed = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...WORDS) },
      { weight: 3, arbitrary: fc.constantFrom(' ', '  ', '\t', '\u00a0') },
      { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '*',
          '_',
          '`',
          '~',
          '[',
          ']',
          '\\',
          '<',
          '&',
          '&amp;',
          '![',
          '**',
          '\n',
          '\0',
          '\uFEFF',
        ),
      },
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((parts) => parts.join(''));

const LINKS = [
  { href: 'https://q.example/a', title: null },
  { href: 'https://q.example/b', title: 'A "title"' },
  { href: '/x (y)', title: null },
  { href: 'mailto:a@q.example', title: 'back\\slash' },
  { href: '', title: null },
];

const inlineNode: fc.Arbitrary<PmNode> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        text: typed,
        em: fc.boolean(),
        strong: fc.boolean(),
        strike: fc.boolean(),
        link: fc.option(fc.constantFrom(...LINKS), { freq: 3 }),
      })
      .map(({ text, em, strong, strike, link }) => {
        const marks: Mark[] = [];
        if (link) marks.push(schema.marks.link!.create(link));
        if (em) marks.push(schema.marks.em!.create());
        if (strong) marks.push(schema.marks.strong!.create());
        if (strike) marks.push(schema.marks.strike!.create());
        return schema.text(text, marks);
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(typed, fc.constantFrom('`', '``x`', ' a ', '  ', 'a `b` c'))
      .map((text) => schema.text(text, [schema.marks.code!.create()])),
  },
  { weight: 2, arbitrary: fc.boolean().map((soft) => schema.nodes.hard_break!.create({ soft })) },
);

/** Inline content the surface can hold: text of any marks, code, line breaks. */
export const inlineContent: fc.Arbitrary<Fragment> = fc
  .array(inlineNode, { maxLength: 10 })
  .map((nodes) => Fragment.fromArray(nodes));

const plain = fc.constantFrom('', 'A title', 'Ça va', 'x*y*', '<b>');
const url = fc.constantFrom('https://q.example/v', 'https://x.example/s/1', '');

/** A block of each of the 13 types, text fields of arbitrary inline Markdown. */
export const block: fc.Arbitrary<EditorBlock> = fc.oneof(
  inlineMarkdown.map((text): EditorBlock => ({ type: 'paragraph', text })),
  fc.constant<EditorBlock>({ type: 'paragraph', text: '' }),
  fc
    .record({ level: fc.constantFrom(2, 3, 4), text: inlineMarkdown, id: fc.option(fc.stringMatching(/^[a-z]{1,4}$/)) })
    .map(
      ({ level, text, id }) =>
        (id === null ? { type: 'heading', level, text } : { type: 'heading', level, text, id }) as EditorBlock,
    ),
  fc
    .record({ style: fc.constantFrom('bullet', 'ordered'), items: fc.array(inlineMarkdown, { maxLength: 4 }) })
    .map(({ style, items }): EditorBlock => ({ type: 'list', style: style as 'bullet' | 'ordered', items })),
  fc
    .record({ mediaId: fc.uuid(), alt: fc.option(plain), url: fc.option(url) })
    .map(({ mediaId, alt, url }): EditorBlock => ({
      type: 'image',
      mediaId,
      ...(alt === null ? {} : { alt }),
      ...(url === null ? {} : { url }),
    })),
  fc
    .record({ language: fc.constantFrom('', 'ts', 'sh'), code: fc.string({ maxLength: 40 }) })
    .map((b): EditorBlock => ({ type: 'code', ...b })),
  fc
    .record({ text: inlineMarkdown, attribution: fc.option(plain) })
    .map(({ text, attribution }): EditorBlock =>
      attribution === null ? { type: 'quote', text } : { type: 'quote', text, attribution },
    ),
  fc.constant<EditorBlock>({ type: 'divider' }),
  fc
    .record({
      variant: fc.constantFrom('info', 'warning', 'success', 'error'),
      body: inlineMarkdown,
      title: fc.option(plain),
    })
    .map(({ variant, body, title }): EditorBlock => ({
      type: 'callout',
      variant: variant as 'info',
      body,
      ...(title === null ? {} : { title }),
    })),
  url.map((u): EditorBlock => ({ type: 'video_embed', url: u })),
  url.map((u): EditorBlock => ({ type: 'tweet_embed', url: u })),
  fc
    .array(fc.record({ question: plain, answer: inlineMarkdown }), { minLength: 1, maxLength: 3 })
    .map((items): EditorBlock => ({ type: 'faq', items })),
  fc
    .record({
      title: plain,
      body: inlineMarkdown,
      linkUrl: url,
      linkLabel: plain,
      variant: fc.constantFrom('default', 'outlined'),
    })
    .map((b): EditorBlock => ({ type: 'cta', ...b, variant: b.variant as 'default' })),
  fc
    .array(inlineMarkdown, { minLength: 1, maxLength: 3 })
    .map((items): EditorBlock => ({ type: 'key_takeaways', items })),
);

/** A body: blocks of every type, heading ids unique as the server keeps them. */
export const body: fc.Arbitrary<EditorBlock[]> = fc.array(block, { maxLength: 12 }).map((blocks) => {
  const seen = new Set<string>();
  return blocks.map((b) => {
    if (b.type !== 'heading' || !('id' in b) || typeof b.id !== 'string') return b;
    if (!seen.has(b.id)) {
      seen.add(b.id);
      return b;
    }
    const { id: _id, ...rest } = b;
    return rest as EditorBlock;
  });
});
