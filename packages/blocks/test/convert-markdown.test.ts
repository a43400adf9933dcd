import { describe, expect, it } from 'vitest';
import { linkUrlsForTest, markdownToBlocks } from './convert-helpers.js';

const blocks = (markdown: string) => markdownToBlocks(markdown, { resolveImage: (src) => `media:${src}` }).blocks;

describe('markdownToBlocks', () => {
  it('paragraphs keep their inline Markdown; soft line breaks are spaces, hard ones stay', () => {
    expect(
      blocks('Some *em*, **strong**, ~~gone~~, `code` and [a link](https://e.com "T").\nNext line  \nhard'),
    ).toEqual([
      {
        type: 'paragraph',
        text: 'Some *em*, **strong**, ~~gone~~, `code` and [a link](https://e.com "T"). Next line\\\nhard',
      },
    ]);
  });

  it('headings clamped to levels 2–4', () => {
    const levels = blocks('# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n\n###### f\n\nSetext\n===').map((block) =>
      block.type === 'heading' ? block.level : 0,
    );
    expect(levels).toEqual([2, 2, 3, 4, 4, 4, 2]);
  });

  it('lists, nested ones flattened and reported', () => {
    const result = markdownToBlocks('1. One\n   - One a\n2. Two\n\n* x\n* y');
    expect(result.blocks).toEqual([
      { type: 'list', style: 'ordered', items: ['One', 'One a', 'Two'] },
      { type: 'list', style: 'bullet', items: ['x', 'y'] },
    ]);
    expect(result.report.notes.map((note) => [note.kind, note.element])).toEqual([['approximated', 'ol']]);
  });

  it('GitHub tables keep each row as a paragraph, and say so', () => {
    const result = markdownToBlocks('| Flour | Water |\n| --- | --- |\n| 500 g | **350 g** |');
    expect(result.blocks).toEqual([
      { type: 'paragraph', text: 'Flour | Water' },
      { type: 'paragraph', text: '500 g | **350 g**' },
    ]);
    expect(result.report.notes.map((note) => [note.kind, note.element])).toEqual([['approximated', 'table']]);
  });

  it('code fences keep their language; indented code has none', () => {
    expect(blocks('```js\nlet a = 1;\n\nlet b = "<x>";\n```\n\n    indented')).toEqual([
      { type: 'code', language: 'js', code: 'let a = 1;\n\nlet b = "<x>";' },
      { type: 'code', language: '', code: 'indented' },
    ]);
  });

  it('thematic break → divider; blockquote → quote, a last line opening with a dash its attribution', () => {
    expect(blocks('a\n\n---\n\n> Simple is *better*.\n>\n> — Tim Peters')).toEqual([
      { type: 'paragraph', text: 'a' },
      { type: 'divider' },
      { type: 'quote', text: 'Simple is *better*.', attribution: 'Tim Peters' },
    ]);
  });

  it('images through resolveImage, in the report either way; reference links and images resolved', () => {
    const result = markdownToBlocks('![A jar](jar.png)\n\n![Gone](gone.png)\n\nSee [docs][d].\n\n[d]: /docs "Docs"', {
      resolveImage: (src) => (src === 'jar.png' ? 'm1' : null),
    });
    expect(result.blocks).toEqual([
      { type: 'image', mediaId: 'm1', alt: 'A jar' },
      { type: 'paragraph', text: 'See [docs](/docs "Docs").' },
    ]);
    expect(result.report.images.map((image) => [image.src, image.mediaId])).toEqual([
      ['jar.png', 'm1'],
      ['gone.png', null],
    ]);
    expect(result.report.notes.map((note) => note.kind)).toEqual(['unresolved-image']);
  });

  it('a video or post link alone in a paragraph → embed', () => {
    expect(blocks('<https://www.youtube.com/watch?v=dQw4w9WgXcQ>\n\n[Launch](https://x.com/nasa/status/123)')).toEqual([
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'tweet_embed', url: 'https://x.com/nasa/status/123' },
    ]);
  });

  it('HTML in Markdown goes through htmlToBlocks: blocks where it has them, reported where not', () => {
    const result = markdownToBlocks(
      'Text with <b>inline</b> HTML.\n\n<details><summary>Q?</summary>\n\nA.\n\n</details>\n\n<script>alert(1)</script>\n',
    );
    expect(result.blocks).toEqual([
      { type: 'paragraph', text: 'Text with **inline** HTML.' },
      { type: 'faq', items: [{ question: 'Q?', answer: 'A.' }] },
    ]);
    expect(result.report.notes.map((note) => [note.kind, note.element])).toEqual([['unsupported', 'script']]);
  });

  it('quotes and lists nested without end convert, the deep part as its text', () => {
    const result = markdownToBlocks(`${'> '.repeat(5000)}*deep*`);
    expect(result.blocks).toEqual([{ type: 'quote', text: 'deep' }]);
    expect(result.report.notes.map((note) => note.kind)).toEqual(['approximated']);
  });

  it('special characters written escaped stay literal; no javascript: link survives', () => {
    const result = markdownToBlocks(
      '1\\. Not a list \\*nor em\\* \\<b> &amp;lt;\n\n[x](javascript:alert(1)) [y](<java&#115;cript:alert(1)>) [z](&#106;avascript:x)',
    );
    const [first, second] = result.blocks;
    expect(first).toEqual({ type: 'paragraph', text: '1. Not a list \\*nor em\\* \\<b> \\&lt;' });
    expect(second).toEqual({ type: 'paragraph', text: 'x y z' });
    expect(linkUrlsForTest(second?.type === 'paragraph' ? second.text : '')).toEqual([]);
    expect(result.report.notes.map((note) => note.kind)).toEqual(['link-removed', 'link-removed', 'link-removed']);
  });
});
