import { readFileSync } from 'node:fs';
import { parseInline } from '@quire/blocks';
import { describe, expect, it } from 'vitest';
import { HTML_CAP, MARKDOWN_CAP, pastedBlocks, type PasteResult } from '../../dashboard/src/studio/document/paste.js';
import { dataUriImage } from '../../dashboard/src/studio/document/paste-image-data.js';
import { markdownPieces, PIECE } from '../../dashboard/src/studio/document/paste-text.js';

/*
 * What a paste becomes, from the shapes Google Docs, Word and browsers put on the clipboard
 * (test/fixtures/clipboard). Each fixture opens with a line that keeps the formatter off it; the clipboard of
 * Windows ends its lines with CR LF, as the fixtures are read here.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/clipboard/${name}`, import.meta.url), 'utf8').replace(
    /^<!-- prettier-ignore -->\n/,
    '',
  );
const windows = (text: string) => text.replace(/\n/g, '\r\n');

const TITLE = { type: 'heading', level: 2, text: 'Sourdough at home' };
const INTRO = {
  type: 'paragraph',
  text: 'A starter is flour and water left to ferment. Feed it **twice a day** and keep it *somewhere warm*; the [King Arthur guide](https://www.kingarthurbaking.com/recipes/sourdough-starter-recipe) has the details.',
};
const NEED = { type: 'heading', level: 2, text: 'What you need' };
const INGREDIENTS = {
  type: 'list',
  style: 'bullet',
  items: [
    '500 g **strong** white flour',
    '350 g water, *lukewarm*',
    'filtered if your tap water is chlorinated',
    '10 g salt',
  ],
};
const STEPS = {
  type: 'list',
  style: 'ordered',
  items: [
    'Mix the flour and water; rest for ***one hour***.',
    'Add the starter and the salt.',
    'Bake at 250 °C, ~~covered~~ lid on, for 20 minutes.',
  ],
};
const QUOTE = { type: 'quote', text: 'The crust should sing as it cools.', attribution: 'Elizabeth David' };
const QUESTIONS = { type: 'paragraph', text: 'Questions? Write to [bread@example.com](mailto:bread@example.com).' };
const ONE_IMAGE_LEFT = 'An image was not pasted: copy it on its own or upload it';
const NESTED = 'Nested lists were flattened into one level';

/** Every link destination in the blocks' inline Markdown. */
function links(result: PasteResult): string[] {
  const found: string[] = [];
  const visit = (node: { type: string; url?: string; children?: unknown[] }) => {
    if (node.type === 'link' || node.type === 'image') found.push(node.url ?? '');
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  for (const block of result.blocks) {
    const texts = Object.values(block).flatMap((value) =>
      typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [],
    );
    for (const text of texts) visit(parseInline(text) as Parameters<typeof visit>[0]);
  }
  return found;
}

describe('pastedBlocks: the clipboards of real sources', () => {
  it('Google Docs: the guid wrapper and styled spans give headings, marks, links and lists; a nested list joins its list', () => {
    expect(pastedBlocks({ html: windows(fixture('google-docs.html')) }, 1000)).toStrictEqual({
      blocks: [
        TITLE,
        INTRO,
        NEED,
        INGREDIENTS,
        // A Docs heading style in weight 700: the heading is bold on the page anyway.
        { type: 'heading', level: 3, text: 'Method' },
        STEPS,
        QUESTIONS,
      ],
      notes: [ONE_IMAGE_LEFT, NESTED],
      dropped: 0,
      images: [],
    });
  });

  it('Word: title, list paragraphs, quote paragraphs with their attribution; bullets, <o:p>, comments and the file: image left out', () => {
    expect(pastedBlocks({ html: windows(fixture('word.html')) }, 1000)).toStrictEqual({
      blocks: [TITLE, INTRO, NEED, INGREDIENTS, { type: 'heading', level: 2, text: 'Method' }, STEPS, QUOTE, QUESTIONS],
      notes: [ONE_IMAGE_LEFT, NESTED],
      dropped: 0,
      images: [],
    });
  });

  it('a web page: navigation, scripts, styles, handlers and unsafe links gone, a data: image to upload, a remote one noted', () => {
    const { images, ...result } = pastedBlocks({ html: windows(fixture('web-page.html')) }, 1000);
    expect(result).toStrictEqual({
      blocks: [
        TITLE,
        { ...INTRO, text: `${INTRO.text} Subscribe now or read offline.` },
        { type: 'image', mediaId: '', alt: 'Bubbles in a jar of starter', caption: 'Day four: *ready*.' },
        NEED,
        { ...INGREDIENTS, items: INGREDIENTS.items.filter((item) => !item.startsWith('filtered')) },
        { type: 'heading', level: 2, text: 'Method' },
        STEPS,
        { type: 'video_embed', url: 'https://www.youtube.com/embed/dQw4w9WgXcQ', title: 'Shaping a loaf' },
        QUOTE,
        { type: 'paragraph', text: 'Hydration | Crumb' },
        { type: 'paragraph', text: '65% | tight' },
        QUESTIONS,
      ],
      notes: [
        ONE_IMAGE_LEFT,
        'A table became paragraphs, one for each row',
        '2 links that were not web addresses were removed; their text is kept',
        'An embedded frame was not pasted: only videos and social posts become blocks',
        'A form or button was not pasted',
        'The page’s navigation menu was left out',
      ],
      dropped: 0,
    });
    expect(
      images.map(({ index, file }) => ({ index, name: file.name, type: file.type, size: file.size })),
    ).toStrictEqual([{ index: 2, name: 'pasted-image-1.png', type: 'image/png', size: 70 }]);
  });

  it('Markdown text: headings, marks, links, lists, a quote with its attribution; a remote image noted', () => {
    expect(pastedBlocks({ text: fixture('plain-markdown.txt') }, 1000)).toStrictEqual({
      blocks: [TITLE, INTRO, NEED, INGREDIENTS, { type: 'heading', level: 3, text: 'Method' }, STEPS, QUOTE, QUESTIONS],
      notes: [ONE_IMAGE_LEFT, NESTED],
      dropped: 0,
      images: [],
    });
  });

  it('plain text: paragraphs at blank lines, its characters kept as they read', () => {
    expect(pastedBlocks({ text: 'Two loaves a day.\r\n\r\nThe oven runs at 250 °C.' }, 1000)).toStrictEqual({
      blocks: [
        { type: 'paragraph', text: 'Two loaves a day.' },
        { type: 'paragraph', text: 'The oven runs at 250 °C.' },
      ],
      notes: [],
      dropped: 0,
      images: [],
    });
    expect(pastedBlocks({ html: '', text: '' }, 1000)).toStrictEqual({ blocks: [], notes: [], dropped: 0, images: [] });
  });
});

describe('pastedBlocks: shapes the shared converter is given reshaped', () => {
  it('a Docs list nested straight inside its list keeps each item, and partly bold headings keep their bold', () => {
    const html =
      '<b style="font-weight:normal;" id="docs-internal-guid-1"><ul><li aria-level="1"><p>Flour</p></li>' +
      '<ul><li aria-level="2"><p>White</p></li><li aria-level="2"><p>Rye</p></li></ul></ul>' +
      '<h2><span style="font-weight:400">Why </span><span style="font-weight:700">not</span></h2>' +
      '<h2><b>All <i>bold</i></b></h2></b>';
    expect(pastedBlocks({ html }, 1000).blocks).toStrictEqual([
      { type: 'list', style: 'bullet', items: ['Flour', 'White', 'Rye'] },
      { type: 'heading', level: 2, text: 'Why **not**' },
      { type: 'heading', level: 2, text: 'All *bold*' },
    ]);
  });

  it('HTML that gives no block falls back to the text; empty paragraphs (a lone no-break space) are dropped', () => {
    expect(pastedBlocks({ html: '<meta charset="utf-8"><p>&nbsp;</p>', text: 'Just text' }, 1000).blocks).toStrictEqual(
      [{ type: 'paragraph', text: 'Just text' }],
    );
    expect(pastedBlocks({ html: '<p>One</p><p>&nbsp;</p><p>Two</p>' }, 1000).blocks).toStrictEqual([
      { type: 'paragraph', text: 'One' },
      { type: 'paragraph', text: 'Two' },
    ]);
  });
});

describe('pastedBlocks: hostile HTML', () => {
  const hostile =
    '<p>Start <a href="JaVaScRiPt:alert(1)">one</a> <a href=" javascript:alert(1)">two</a> ' +
    '<a href="java&#x09;script:alert(1)">three</a> <a href="vbscript:msgbox(1)">four</a> ' +
    '<a href="data:text/html,%3Cscript%3Ealert(1)%3C/script%3E">five</a> <a href="https://ok.example/">safe</a></p>' +
    '<img src="javascript:alert(1)"><img src=x onerror="alert(1)"><svg onload="alert(1)"><text>drawn</text></svg>' +
    '<script>alert("script text")</script><iframe srcdoc="<script>alert(1)</script>"></iframe>' +
    '<object data="javascript:alert(1)"></object><form action="javascript:alert(1)"><button>Go</button></form>' +
    '<style>@import "javascript:alert(1)";</style><math><mi xlink:href="javascript:alert(1)">x</mi></math>' +
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>' +
    '<p><a href="data:image/png;base64,iVBORw0KGgo=">an image link</a> End</p>';

  it('gives no link that is not a web address, no script text, and nothing of a handler', () => {
    const result = pastedBlocks({ html: hostile }, 1000);
    expect(links(result)).toStrictEqual(['https://ok.example/']);
    const json = JSON.stringify(result.blocks);
    for (const word of ['javascript:', 'vbscript:', 'data:', 'alert(', 'script', 'onerror', 'onload'])
      expect(json).not.toContain(word);
    expect(result.blocks[0]).toStrictEqual({
      type: 'paragraph',
      text: 'Start one two three four five [safe](https://ok.example/)',
    });
    expect(result.images).toStrictEqual([]);
  });

  it('does the same for Markdown text holding raw HTML', () => {
    const result = pastedBlocks(
      { text: `[x](javascript:alert(1)) and <a href="javascript:alert(2)">y</a>\n\n${hostile}` },
      1000,
    );
    expect(links(result)).toStrictEqual(['https://ok.example/']);
    for (const word of ['javascript:', 'data:', 'alert(', 'script'])
      expect(JSON.stringify(result.blocks)).not.toContain(word);
  });
});

describe('pastedBlocks: room and limits', () => {
  const paragraphs = (count: number) => Array.from({ length: count }, (_, i) => `<p>Paragraph ${i + 1}</p>`).join('');

  it('keeps the first `room` blocks and counts the rest, past the body limit too', () => {
    const five = pastedBlocks({ html: paragraphs(5) }, 3);
    expect(five.blocks).toStrictEqual([1, 2, 3].map((n) => ({ type: 'paragraph', text: `Paragraph ${n}` })));
    expect(five.dropped).toBe(2);
    expect(pastedBlocks({ html: paragraphs(5) }, 0)).toMatchObject({ blocks: [], dropped: 5 });
    const many = pastedBlocks({ html: paragraphs(1200) }, 1000);
    expect(many.blocks).toHaveLength(1000);
    expect(many.blocks.at(-1)).toStrictEqual({ type: 'paragraph', text: 'Paragraph 1000' });
    expect(many.dropped).toBe(200);
    expect(pastedBlocks({ text: Array.from({ length: 1200 }, (_, i) => `Line ${i}`).join('\n\n') }, 10).dropped).toBe(
      1190,
    );
  });

  it('an image to upload past the room is dropped with its block', () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const result = pastedBlocks({ html: `<img src="${png}"><p>After</p><img src="${png}">` }, 2);
    expect(result.blocks).toStrictEqual([
      { type: 'image', mediaId: '' },
      { type: 'paragraph', text: 'After' },
    ]);
    expect(result.images.map((image) => image.index)).toStrictEqual([0]);
    expect(result.dropped).toBe(1);
  });

  it('a paragraph over 10,000 characters becomes several, each within the limit', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `word${i}`).join(' ');
    const result = pastedBlocks({ html: `<p>${words}</p>` }, 1000);
    expect(result.blocks.length).toBeGreaterThan(1);
    for (const block of result.blocks) expect((block as { text: string }).text.length).toBeLessThanOrEqual(10_000);
    expect(result.blocks.map((block) => (block as { text: string }).text).join(' ')).toBe(words);
    expect(result.notes).toStrictEqual(['A paragraph over 10,000 characters became several']);
  });
});

describe('pastedBlocks: large pastes', () => {
  it('converts a 2 MB Google Docs paste, its first blocks as the fixture gives them and the rest counted', () => {
    const docs = fixture('google-docs.html');
    const content = docs.slice(docs.indexOf('<meta charset'), docs.indexOf('<!--EndFragment-->'));
    const copies = Math.floor((2 * 1024 * 1024) / content.length);
    const html = `<html><body><!--StartFragment-->${content.repeat(copies)}<!--EndFragment--></body></html>`;
    expect(html.length).toBeGreaterThan(2_000_000);
    const one = pastedBlocks({ html: docs }, 1000).blocks;
    const result = pastedBlocks({ html }, 1000);
    expect(result.blocks).toStrictEqual(
      Array.from({ length: copies }, () => one)
        .flat()
        .slice(0, 1000),
    );
    expect(result.dropped).toBe(one.length * copies - 1000);
  });

  it('reads long Markdown in pieces cut only between constructs, as it reads whole', () => {
    // Most lines sit inside a construct that a blank line does not end (a fence, a quote, raw HTML, a loose list):
    // a cut there would change what they read as.
    const margin = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `plain line ${i} at the margin` : '')).join(
      '\n',
    );
    // Parts of varied lengths, so that the cuts would fall at varied places in them.
    const part = (n: number) =>
      [
        `A paragraph opens part ${n}${' and goes on'.repeat(n % 40)}.`,
        '',
        '```text',
        margin,
        '```',
        '',
        '> quoted',
        '>',
        '> and more',
        '',
        '<pre>',
        margin,
        '</pre>',
        '',
        '- item one',
        '',
        '  its second paragraph',
        '',
        '- item two',
        '',
      ].join('\n');
    const parts = Array.from({ length: Math.ceil((4 * PIECE) / part(20).length) }, (_, n) => part(n));
    const text = parts.join('\n');
    const pieces = markdownPieces(text);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('\n')).toBe(text);
    for (const piece of pieces) expect(piece).toMatch(/^A paragraph opens part \d+/);
    expect(pastedBlocks({ text }, 1000).blocks).toStrictEqual(
      parts.flatMap((one) => pastedBlocks({ text: one }, 1000).blocks),
    );
    // And the fixture, as a writer's Markdown would be pasted.
    const markdown = fixture('plain-markdown.txt');
    const many = Array.from({ length: Math.ceil((3 * PIECE) / markdown.length) }, () => markdown);
    expect(pastedBlocks({ text: many.join('\n') }, 1000).blocks).toStrictEqual(
      many.flatMap(() => pastedBlocks({ text: markdown }, 1000).blocks),
    );
  });

  it('over the caps: HTML gives way to its plain text, and long text is read as plain paragraphs', () => {
    const big = `<p>${'x'.repeat(HTML_CAP)}</p>`;
    expect(pastedBlocks({ html: big, text: 'Plain *text*\n\nof it' }, 1000)).toStrictEqual({
      blocks: [
        { type: 'paragraph', text: 'Plain \\*text\\*' },
        { type: 'paragraph', text: 'of it' },
      ],
      notes: ['The paste was too large to keep its formatting (over 5 MB), so its plain text was pasted'],
      dropped: 0,
      images: [],
    });
    expect(pastedBlocks({ html: big }, 1000)).toStrictEqual({
      blocks: [],
      notes: ['The paste was too large to read (over 5 MB): paste it in parts'],
      dropped: 0,
      images: [],
    });
    const line = '# Not a heading, and **not bold**';
    const long = Array.from({ length: Math.ceil(MARKDOWN_CAP / line.length) + 1 }, () => line).join('\n\n');
    const result = pastedBlocks({ text: `${long}\n\n${'y'.repeat(25_000)}` }, 100_000);
    expect(result.notes).toStrictEqual([
      'The text was too long to read as Markdown (over 256 KB), so it was pasted as plain paragraphs',
    ]);
    expect(result.blocks[0]).toStrictEqual({ type: 'paragraph', text: '# Not a heading, and \\*\\*not bold\\*\\*' });
    expect(result.blocks.slice(-3).map((block) => (block as { text: string }).text.length)).toStrictEqual([
      10_000, 10_000, 5_000,
    ]);
  });
});

describe('images a paste holds as data', () => {
  it('decodes base64 and percent-encoded data: URIs of the image types the library keeps, and nothing else', async () => {
    const png = dataUriImage('data:image/png;base64,iVBORw0KGgo=', 'a')!;
    expect([png.name, png.type, [...new Uint8Array(await png.arrayBuffer())]]).toStrictEqual([
      'a.png',
      'image/png',
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ]);
    const svg = dataUriImage('data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D%22x%22%2F%3E', 'b')!;
    expect([svg.name, svg.type, await svg.text()]).toStrictEqual(['b.svg', 'image/svg+xml', '<svg xmlns="x"/>']);
    expect(dataUriImage('data:image/bmp;base64,Qk0=', 'c')).toBeNull();
    expect(dataUriImage('data:text/html;base64,PHA+', 'd')).toBeNull();
    expect(dataUriImage('data:image/png;base64,@@@', 'e')).toBeNull();
    expect(dataUriImage('data:image/png;base64,', 'f')).toBeNull();
  });

  it('an image of a type the library does not keep is counted as not pasted', () => {
    const result = pastedBlocks(
      { html: '<img src="data:image/bmp;base64,Qk0="><img src="https://x.example/a.png"><p>Text</p>' },
      1000,
    );
    expect(result).toStrictEqual({
      blocks: [{ type: 'paragraph', text: 'Text' }],
      notes: ['2 images were not pasted: copy them one by one or upload them'],
      dropped: 0,
      images: [],
    });
  });
});
