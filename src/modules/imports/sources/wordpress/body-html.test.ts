import { htmlToBlocks, type ConversionResult } from '@quire/blocks';
import { describe, expect, it } from 'vitest';
import type { BodyContext } from './body-context.js';
import { bodyHtml } from './body-html.js';
import { mediaLocator } from './media.js';
import type { Attachment, WxrIndex } from './wxr-index.js';

const attachment = (id: string, file: string, alt: string, caption = ''): [string, Attachment] => [
  id,
  { id, url: `https://example.com/wp-content/uploads/${file}`, alt, caption, file, parent: '9' },
];

const index: WxrIndex = {
  title: 'Site',
  description: '',
  link: 'https://example.com',
  baseSiteUrl: 'https://example.com',
  baseBlogUrl: 'https://example.com',
  authors: new Map(),
  categories: new Map(),
  tags: new Map(),
  categoryByTermId: new Map(),
  attachments: new Map([attachment('1', 'a.jpg', 'Alt A', 'Caption A'), attachment('2', 'b.jpg', 'Alt B')]),
  attachmentsByParent: new Map([['9', ['1', '2']]]),
  entries: 0,
  skipped: new Map(),
  comments: 0,
  stats: { droppedChars: 0 },
};

/** The body converted with every image resolved to its source, and the context's notes first, as an entry does. */
function convert(content: string): ConversionResult & { used: string[] } {
  const context: BodyContext = { postId: '9', index, notes: [], used: new Map() };
  const html = bodyHtml(content, context, mediaLocator(index, null));
  const result = htmlToBlocks(html, { resolveImage: (src) => src });
  return {
    ...result,
    report: { ...result.report, notes: [...context.notes, ...result.report.notes] },
    used: [...context.used.keys()],
  };
}

describe('block editor bodies', () => {
  it('reads a gallery of image blocks one by one, each with its caption', () => {
    const { blocks } = convert(
      '<!-- wp:gallery {"linkTo":"none"} --><figure class="wp-block-gallery has-nested-images">' +
        '<!-- wp:image {"id":1} --><figure class="wp-block-image"><img src="https://example.com/wp-content/uploads/a-150x150.jpg" alt="" class="wp-image-1"/><figcaption>First</figcaption></figure><!-- /wp:image -->' +
        '<!-- wp:image {"id":2} --><figure class="wp-block-image"><img src="https://example.com/wp-content/uploads/b.jpg" alt="Own alt" class="wp-image-2"/></figure><!-- /wp:image -->' +
        '<figcaption class="blocks-gallery-caption">The gallery</figcaption></figure><!-- /wp:gallery -->',
    );
    expect(blocks).toEqual([
      {
        type: 'image',
        mediaId: 'https://example.com/wp-content/uploads/a-150x150.jpg',
        alt: 'Alt A',
        caption: 'First',
      },
      { type: 'image', mediaId: 'https://example.com/wp-content/uploads/b.jpg', alt: 'Own alt' },
    ]);
  });

  it('embeds a paragraph holding only a video URL, as WordPress does', () => {
    expect(convert('<!-- wp:paragraph --><p> https://vimeo.com/123456 </p><!-- /wp:paragraph -->').blocks).toEqual([
      { type: 'video_embed', url: 'https://vimeo.com/123456' },
    ]);
  });

  it('runs a shortcode block, and notes a reusable block it cannot follow', () => {
    const { blocks, report } = convert(
      '<!-- wp:shortcode -->[gallery ids="2"]<!-- /wp:shortcode --><!-- wp:block {"ref":55} /-->',
    );
    expect(blocks).toEqual([{ type: 'image', mediaId: 'https://example.com/wp-content/uploads/b.jpg', alt: 'Alt B' }]);
    expect(report.notes).toEqual([{ kind: 'unsupported', element: 'wp:block', excerpt: '{"ref":55}' }]);
  });

  it('reads Rank Math’s FAQ from its attributes, leaving hidden questions out', () => {
    const { blocks } = convert(
      '<!-- wp:rank-math/faq-block {"questions":[{"id":"a","title":"Shown?","content":"Yes","visible":true},' +
        '{"id":"b","title":"Hidden?","content":"No","visible":false}]} --><div></div><!-- /wp:rank-math/faq-block -->',
    );
    expect(blocks).toEqual([{ type: 'faq', items: [{ question: 'Shown?', answer: 'Yes' }] }]);
  });

  it('reads Yoast’s FAQ from its markup when its attributes hold no questions', () => {
    const { blocks } = convert(
      '<!-- wp:yoast/faq-block --><div class="schema-faq"><div class="schema-faq-section"><strong class="schema-faq-question">Q?</strong>' +
        '<p class="schema-faq-answer">A.</p></div></div><!-- /wp:yoast/faq-block -->',
    );
    expect(blocks).toEqual([{ type: 'faq', items: [{ question: 'Q?', answer: 'A.' }] }]);
  });

  it('writes an embed URL into HTML escaped', () => {
    const { blocks } = convert(
      '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1\\u0022><b>x"} /-->',
    );
    expect(blocks).toEqual([{ type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1"><b>x' }]);
  });
});

describe('classic bodies', () => {
  it('reads [caption] with its caption attribute, [vimeo ID], [youtube=URL] and [tweet URL]', () => {
    const { blocks } = convert(
      '[caption caption="From the attribute"]<img src="https://example.com/wp-content/uploads/b.jpg" alt="x">[/caption]\n\n' +
        '[vimeo 76979871]\n\n[youtube=https://www.youtube.com/watch?v=dQw4w9WgXcQ]\n\n[tweet https://twitter.com/a/status/1]',
    );
    expect(blocks).toEqual([
      {
        type: 'image',
        mediaId: 'https://example.com/wp-content/uploads/b.jpg',
        alt: 'x',
        caption: 'From the attribute',
      },
      { type: 'video_embed', url: 'https://vimeo.com/76979871' },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'tweet_embed', url: 'https://twitter.com/a/status/1' },
    ]);
  });

  it('keeps the content of an unknown enclosing shortcode, noting the shortcode', () => {
    const { blocks, report } = convert('[su_box title="Note"]Boxed text[/su_box]');
    expect(blocks).toEqual([{ type: 'paragraph', text: 'Boxed text' }]);
    expect(report.notes).toEqual([
      { kind: 'unsupported', element: '[su_box]', excerpt: '[su_box title="Note"]Boxed text[/su_box]' },
    ]);
  });

  it('notes the images of a gallery the export does not hold, and what a gallery used is in the fingerprint', () => {
    const { blocks, report, used } = convert('[gallery ids="1,77"]');
    expect(blocks).toEqual([
      { type: 'image', mediaId: 'https://example.com/wp-content/uploads/a.jpg', alt: 'Alt A', caption: 'Caption A' },
    ]);
    expect(report.notes[0]).toMatchObject({ kind: 'unresolved-image', element: '[gallery]' });
    expect(used).toEqual(['1']);
  });

  it('notes an embed of a provider with no block and keeps its link', () => {
    const { blocks, report } = convert('[embed]https://soundcloud.com/a/b[/embed]');
    expect(blocks).toEqual([{ type: 'paragraph', text: '[https://soundcloud.com/a/b](https://soundcloud.com/a/b)' }]);
    expect(report.notes).toEqual([{ kind: 'approximated', element: '[embed]', excerpt: 'https://soundcloud.com/a/b' }]);
  });

  it('gives an image without alt text its attachment’s, found by its URL at any size', () => {
    expect(convert('<img src="https://example.com/wp-content/uploads/a-300x200.jpg">').blocks).toEqual([
      { type: 'image', mediaId: 'https://example.com/wp-content/uploads/a-300x200.jpg', alt: 'Alt A' },
    ]);
  });
});
