import type { ConvertOptions } from '@quire/blocks';
import { describe, expect, it } from 'vitest';
import { ghostBody } from './ghost-body.js';

type Node = Record<string, unknown>;

const text = (value: string, format = 0): Node => ({ type: 'extended-text', text: value, format });
const paragraph = (...children: Node[]): Node => ({ type: 'paragraph', children });
const heading = (tag: string, value: string): Node => ({ type: 'extended-heading', tag, children: [text(value)] });
const item = (...children: Node[]): Node => ({ type: 'listitem', children });
const list = (listType: string, ...items: Node[]): Node => ({ type: 'list', listType, children: items });
const card = (type: string, fields: Node = {}): Node => ({ type, version: 1, ...fields });

function convert(children: Node[], options: ConvertOptions = {}) {
  const body = ghostBody({ lexical: JSON.stringify({ root: { type: 'root', children } }) });
  if ('error' in body) throw new Error(body.error);
  return body.body.convert(options);
}
const blocksOf = (children: Node[], options: ConvertOptions = {}) => convert(children, options).blocks;
const notesOf = (children: Node[]) => convert(children).report.notes.map((note) => `${note.kind} ${note.element}`);

describe('Lexical text and elements', () => {
  it('writes format bits as inline Markdown: bold 1, italic 2, strikethrough 4, code 16', () => {
    expect(
      blocksOf([paragraph(text('b', 1), text(' '), text('i', 2), text(' '), text('s', 4), text(' '), text('c*', 16))]),
    ).toEqual([{ type: 'paragraph', text: '**b** *i* ~~s~~ `c*`' }]);
    expect(blocksOf([paragraph(text('both', 3))])).toEqual([{ type: 'paragraph', text: '***both***' }]);
  });

  it('keeps the text of an underline, a subscript, a superscript and a highlight, and notes each', () => {
    expect(blocksOf([paragraph(text('u', 8), text('sub', 32), text('sup', 64), text('hi', 128))])).toEqual([
      { type: 'paragraph', text: 'usubsuphi' },
    ]);
    expect(notesOf([paragraph(text('u', 8), text('sub', 32), text('sup', 64), text('hi', 128))])).toEqual([
      'approximated underline',
      'approximated subscript',
      'approximated superscript',
      'approximated highlight',
    ]);
  });

  it('escapes text, Markdown and HTML alike', () => {
    expect(blocksOf([paragraph(text('<b>not bold</b> & *stars* _under_ [x](y) `tick` ~~tilde~~ \\'))])).toEqual([
      {
        type: 'paragraph',
        text: '\\<b>not bold\\</b> & \\*stars\\* \\_under\\_ \\[x\\](y) \\`tick\\` \\~\\~tilde\\~\\~ \\\\',
      },
    ]);
  });

  it('writes links, line breaks and tabs; a link whose URL is not one keeps its text', () => {
    const nodes = [
      paragraph(
        { type: 'link', url: 'https://example.com/a b', children: [text('spaced')] },
        { type: 'linebreak' },
        { type: 'tab' },
        { type: 'link', url: 'javascript:alert(1)', children: [text('bad')] },
      ),
    ];
    expect(blocksOf(nodes)).toEqual([{ type: 'paragraph', text: '[spaced](<https://example.com/a b>)\\\nbad' }]);
    expect(notesOf(nodes)).toEqual(['link-removed a']);
  });

  it('clamps headings to 2–4, noting h1, h5 and h6', () => {
    const nodes = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => heading(tag, tag));
    expect(blocksOf(nodes).map((block) => ('level' in block ? block.level : null))).toEqual([2, 2, 3, 4, 4, 4]);
    expect(notesOf(nodes)).toEqual(['approximated h1', 'approximated h5', 'approximated h6']);
  });

  it('reads quotes and asides as quotes, and horizontal rules as dividers', () => {
    expect(
      blocksOf([
        { type: 'quote', children: [text('Q')] },
        { type: 'aside', children: [text('A')] },
        { type: 'horizontalrule' },
      ]),
    ).toEqual([{ type: 'quote', text: 'Q' }, { type: 'quote', text: 'A' }, { type: 'divider' }]);
  });

  it('reads lists: numbered as ordered, nested ones flattened and noted, checklists noted', () => {
    const nodes = [
      list('number', item(text('one')), item(list('bullet', item(text('one.a')))), item(text('two'))),
      list('check', item(text('done'))),
    ];
    expect(blocksOf(nodes)).toEqual([
      { type: 'list', style: 'ordered', items: ['one', 'one.a', 'two'] },
      { type: 'list', style: 'bullet', items: ['done'] },
    ]);
    expect(notesOf(nodes)).toEqual(['approximated checklist', 'approximated ol']);
  });

  it('keeps the text of an unknown element node and notes it by its type', () => {
    expect(blocksOf([{ type: 'table-of-sorts', children: [text('kept')] }])).toEqual([
      { type: 'paragraph', text: 'kept' },
    ]);
    expect(notesOf([{ type: 'table-of-sorts', children: [text('kept')] }])).toEqual(['unsupported table-of-sorts']);
  });

  it('leaves out blocks past the body’s limit of 1,000, with a note', () => {
    const many = Array.from({ length: 600 }, (_, i) => paragraph(text(`p${i}`)));
    const result = convert([...many, card('html', { html: '<p>middle</p>' }), ...many]);
    expect(result.blocks).toHaveLength(1000);
    expect(result.report.notes).toEqual([
      { kind: 'truncated', element: 'body', excerpt: '201 blocks past the limit of 1000' },
    ]);
  });
});

describe('Ghost cards', () => {
  it('image: a block once resolved, with its alt and its caption as inline Markdown; unresolved, reported', () => {
    const image = card('image', { src: '/content/images/a.jpg', alt: 'A', caption: 'By <i>me</i>', width: 10 });
    expect(blocksOf([image], { resolveImage: () => 'm1' })).toEqual([
      { type: 'image', mediaId: 'm1', alt: 'A', caption: 'By *me*' },
    ]);
    expect(convert([image]).report).toEqual({
      notes: [expect.objectContaining({ kind: 'unresolved-image', element: 'img' })],
      images: [{ type: 'image', src: '/content/images/a.jpg', alt: 'A', caption: 'By *me*', mediaId: null }],
    });
  });

  it('gallery: each image, the caption on the last', () => {
    const gallery = card('gallery', {
      images: [
        { src: '/content/images/1.jpg', alt: 'one' },
        { src: '/content/images/2.jpg', alt: 'two' },
      ],
      caption: 'Both',
    });
    expect(blocksOf([gallery], { resolveImage: (src) => src.slice(-5) })).toEqual([
      { type: 'image', mediaId: '1.jpg', alt: 'one' },
      { type: 'image', mediaId: '2.jpg', alt: 'two', caption: 'Both' },
    ]);
  });

  it('code: its code and language; a caption follows as a paragraph, noted', () => {
    const code = card('codeblock', { code: 'a < b && c\n', language: 'TypeScript', caption: 'The <b>test</b>' });
    expect(blocksOf([code])).toEqual([
      { type: 'code', language: 'typescript', code: 'a < b && c' },
      { type: 'paragraph', text: 'The **test**' },
    ]);
    expect(notesOf([code])).toEqual(['approximated codeblock']);
  });

  it('markdown and html cards: through markdownToBlocks and htmlToBlocks, an unclosed tag kept inside its card', () => {
    expect(
      blocksOf([
        card('markdown', { markdown: '## Title\n\n- a\n- b\n\n**bold**' }),
        card('html', { html: '<p>Raw <em>open' }),
        paragraph(text('after')),
      ]),
    ).toEqual([
      { type: 'heading', level: 2, text: 'Title' },
      { type: 'list', style: 'bullet', items: ['a', 'b'] },
      { type: 'paragraph', text: '**bold**' },
      { type: 'paragraph', text: 'Raw *open*' },
      { type: 'paragraph', text: 'after' },
    ]);
    expect(notesOf([card('html', { html: '<table><tr><td>a</td></tr></table><script>x()</script>' })])).toEqual([
      'approximated table',
      'unsupported script',
    ]);
  });

  it('embed: YouTube and Vimeo are videos, Twitter and X posts, any other a link, noted', () => {
    const nodes = [
      card('embed', { url: 'https://youtu.be/dQw4w9WgXcQ', metadata: { title: 'A video' } }),
      card('embed', { url: 'https://vimeo.com/76979871', metadata: {} }),
      card('embed', { url: 'https://twitter.com/ghost/status/1234567890' }),
      card('embed', { url: 'https://x.com/ghost/status/987', caption: 'A <b>post</b>' }),
      card('embed', { url: 'https://open.spotify.com/track/1', metadata: { title: 'A song' } }),
    ];
    expect(blocksOf(nodes)).toEqual([
      { type: 'video_embed', url: 'https://youtu.be/dQw4w9WgXcQ', title: 'A video' },
      { type: 'video_embed', url: 'https://vimeo.com/76979871' },
      { type: 'tweet_embed', url: 'https://twitter.com/ghost/status/1234567890' },
      { type: 'tweet_embed', url: 'https://x.com/ghost/status/987' },
      { type: 'paragraph', text: 'A **post**' },
      { type: 'paragraph', text: '[A song](https://open.spotify.com/track/1)' },
    ]);
    expect(notesOf(nodes)).toEqual(['approximated embed']);
  });

  it('bookmark: a paragraph of its link, titled, and its description, noted', () => {
    const bookmark = card('bookmark', { url: 'https://a.example/', metadata: { title: 'A [site]', description: 'D' } });
    expect(blocksOf([bookmark])).toEqual([{ type: 'paragraph', text: '[A \\[site\\]](https://a.example/): D' }]);
    expect(notesOf([bookmark])).toEqual(['approximated bookmark']);
  });

  it('callout: the variant from the colour, the emoji opening the body', () => {
    const callout = (backgroundColor: string, calloutEmoji = '') =>
      card('callout', { calloutText: '<p>Mind <i>this</i></p>', calloutEmoji, backgroundColor });
    expect(
      blocksOf([callout('red', '🔥'), callout('yellow'), callout('green'), callout('blue'), callout('purple')]),
    ).toEqual([
      { type: 'callout', variant: 'error', body: '🔥 Mind *this*' },
      { type: 'callout', variant: 'warning', body: 'Mind *this*' },
      { type: 'callout', variant: 'success', body: 'Mind *this*' },
      { type: 'callout', variant: 'info', body: 'Mind *this*' },
      { type: 'callout', variant: 'info', body: 'Mind *this*' },
    ]);
  });

  it('button: a CTA; one whose URL is not one is reported', () => {
    expect(blocksOf([card('button', { buttonText: 'Go', buttonUrl: 'https://a.example/go' })])).toEqual([
      { type: 'cta', title: 'Go', body: '', linkUrl: 'https://a.example/go', linkLabel: 'Go', variant: 'default' },
    ]);
    expect(notesOf([card('button', { buttonText: 'Go', buttonUrl: 'javascript:alert(1)' })])).toEqual([
      'unsupported a',
    ]);
  });

  it('toggle: a FAQ, toggles side by side one FAQ', () => {
    const toggle = (heading: string, content: string) => card('toggle', { heading, content });
    expect(
      blocksOf([
        toggle('Q1?', '<p>A1</p>'),
        toggle('<b>Q2?</b>', '<p>A2</p><p>more</p>'),
        paragraph(text('x')),
        toggle('Q3', 'A3'),
      ]),
    ).toEqual([
      {
        type: 'faq',
        items: [
          { question: 'Q1?', answer: 'A1' },
          { question: '**Q2?**', answer: 'A2\n\nmore' },
        ],
      },
      { type: 'paragraph', text: 'x' },
      { type: 'faq', items: [{ question: 'Q3', answer: 'A3' }] },
    ]);
  });

  it('header: a heading, a paragraph and its button as a CTA, noted', () => {
    const header = card('header', {
      version: 2,
      header: 'Big <i>news</i>',
      subheader: 'Read on',
      buttonEnabled: true,
      buttonUrl: 'https://a.example/',
      buttonText: 'Read',
      backgroundImageSrc: '/content/images/bg.jpg',
    });
    expect(blocksOf([header])).toEqual([
      { type: 'heading', level: 2, text: 'Big *news*' },
      { type: 'paragraph', text: 'Read on' },
      { type: 'cta', title: 'Read', body: '', linkUrl: 'https://a.example/', linkLabel: 'Read', variant: 'default' },
    ]);
    expect(notesOf([header])).toEqual(['approximated header']);
  });

  it('product: its image, then a CTA of its title, description and button; the rating noted', () => {
    const product = card('product', {
      productImageSrc: '/content/images/p.png',
      productTitle: '<b>Widget</b>',
      productDescription: '<p>Great <i>thing</i></p>',
      productRatingEnabled: true,
      productButtonEnabled: true,
      productButton: 'Buy',
      productUrl: 'https://shop.example/w',
    });
    expect(blocksOf([product], { resolveImage: () => 'm' })).toEqual([
      { type: 'image', mediaId: 'm' },
      {
        type: 'cta',
        title: '**Widget**',
        body: 'Great *thing*',
        linkUrl: 'https://shop.example/w',
        linkLabel: 'Buy',
        variant: 'default',
      },
    ]);
    expect(notesOf([product])).toContain('approximated product');
  });

  it('call-to-action: a CTA, its sponsor label the title; an unsafe URL left out', () => {
    const cta = (buttonUrl: string) =>
      card('call-to-action', {
        textValue: '<p>Try <b>it</b></p>',
        showButton: true,
        buttonText: 'Try',
        buttonUrl,
        hasSponsorLabel: true,
        sponsorLabel: '<p><span>SPONSORED</span></p>',
      });
    expect(blocksOf([cta('https://s.example/'), cta('javascript:x')])).toEqual([
      {
        type: 'cta',
        title: 'SPONSORED',
        body: 'Try **it**',
        linkUrl: 'https://s.example/',
        linkLabel: 'Try',
        variant: 'default',
      },
      { type: 'cta', title: 'SPONSORED', body: 'Try **it**', linkUrl: '', linkLabel: '', variant: 'default' },
    ]);
  });

  it('reports the cards it has no block for by their names', () => {
    const names = ['signup', 'audio', 'video', 'file', 'paywall', 'email', 'email-cta', 'collection', 'transistor'];
    const nodes = names.map((name) => card(name, { src: '/content/media/x' }));
    expect(blocksOf(nodes)).toEqual([]);
    expect(notesOf(nodes)).toEqual(names.map((name) => `unsupported ${name}`));
  });
});

describe('bodies that cannot be read', () => {
  it('names a Lexical body that is not JSON, has no root, or a Mobiledoc that cannot be read', () => {
    expect(ghostBody({ lexical: '{' })).toEqual({ error: expect.stringMatching(/^its Lexical body is not JSON/) });
    expect(ghostBody({ lexical: '{"root": 3}' })).toEqual({ error: 'its Lexical body has no root node' });
    expect(ghostBody({ mobiledoc: '{nope' })).toEqual({ error: expect.stringMatching(/^its Mobiledoc body/) });
  });

  it('reads an empty body as no blocks', () => {
    const body = ghostBody({ lexical: null, mobiledoc: null, html: null });
    expect('body' in body && body.body.convert({})).toEqual({ blocks: [], report: { notes: [], images: [] } });
  });
});
