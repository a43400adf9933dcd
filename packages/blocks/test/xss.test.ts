import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderBlocks, type Block, type BlockWrite } from '../src/index.js';
import { reserializedTwice, violations } from './html.js';

/** OWASP-style vectors: markup, handlers, schemes hidden by case, controls and entities, attribute breakouts. */
const VECTORS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '"><script>alert(1)</script>',
  "' onmouseover='alert(1)",
  '" onmouseover="alert(1)',
  '</code><script>alert(1)</script>',
  '</textarea><script>alert(1)</script>',
  '<!--<script>alert(1)//-->',
  '<a href="javascript:alert(1)">x</a>',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'jav&#x09;ascript:alert(1)',
  'jav\tascript:alert(1)',
  'java\nscript:alert(1)',
  '\u0000javascript:alert(1)',
  ' javascript:alert(1)',
  '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
  'javascript&colon;alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  '\\\\evil.example',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1) "t")',
  '[x](jav&#x09;ascript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '<javascript:alert(1)>',
  '![x](javascript:alert(1))',
  '`</code><script>alert(1)</script>`',
  '**<script>alert(1)</script>**',
  'x);background:url(javascript:alert(1)',
  'data:image/webp;base64,AAAA);background:url(https://evil.example/',
  '\uD800 lone surrogate',
];

const MEDIA = '00000000-0000-4000-8000-000000000001';

/** A body of every block type, each string field `value`. */
function everyField(value: string): Array<Block | BlockWrite> {
  return [
    { type: 'paragraph', text: value },
    { type: 'heading', level: 2, text: value, id: value },
    { type: 'heading', level: 3, text: value },
    { type: 'list', style: 'bullet', items: [value, value] },
    {
      type: 'image',
      mediaId: MEDIA,
      alt: value,
      caption: value,
      url: value,
      width: 10,
      height: 10,
      srcset: {
        avif: [{ width: 10, url: value }],
        webp: [{ width: 10, url: value }],
        original: [{ width: 10, url: value }],
      },
      placeholder: { dataUri: value, color: value },
    },
    { type: 'image', mediaId: MEDIA, alt: value, caption: value, url: 'https://cms.example/a.png' },
    { type: 'code', language: value, code: value },
    { type: 'quote', text: value, attribution: value },
    { type: 'callout', variant: 'info', title: value, body: value },
    { type: 'video_embed', url: value, title: value },
    { type: 'tweet_embed', url: value },
    { type: 'faq', items: [{ question: value, answer: value }] },
    { type: 'cta', title: value, body: value, linkUrl: value, linkLabel: value, variant: 'default' },
    { type: 'key_takeaways', items: [value] },
  ];
}

describe('renderBlocks is safe by construction', () => {
  it.each(VECTORS)('writes %j in every field of every block as text: no script, handler or bad URL', (vector) => {
    const html = renderBlocks(everyField(vector), { labels: { keyTakeaways: vector } });
    expect(violations(html)).toEqual([]);
    const [once, twice] = reserializedTwice(html);
    expect(twice).toBe(once);
  });

  it('keeps what the vectors said as text a reader sees', () => {
    const html = renderBlocks([{ type: 'paragraph', text: '<script>alert(1)</script>' }]);
    expect(html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  it('holds for arbitrary strings in every field: allow-listed output, the same each time, stable when re-parsed', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(...VECTORS),
      fc.constantFrom('<', '>', '"', "'", '&', '`', '*', '_', '~~', '[', '](', ')', '\\', '\n', '\t', ':', '//', '#'),
    );
    const field = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    const block = fc.oneof(
      fc.record({ type: fc.constant('paragraph' as const), text: field }),
      fc.record({
        type: fc.constant('heading' as const),
        level: fc.constantFrom(2 as const, 3 as const, 4 as const),
        text: field,
        id: fc.option(field, { nil: undefined }),
      }),
      fc.record({
        type: fc.constant('list' as const),
        style: fc.constantFrom('bullet' as const, 'ordered' as const),
        items: fc.array(field, { maxLength: 3 }),
      }),
      fc.record({
        type: fc.constant('image' as const),
        mediaId: fc.constant(MEDIA),
        alt: fc.option(field, { nil: undefined }),
        caption: fc.option(field, { nil: undefined }),
        url: fc.option(field, { nil: null }),
        width: fc.option(fc.integer(), { nil: null }),
        height: fc.option(fc.integer(), { nil: null }),
        srcset: fc.option(
          fc.record({
            avif: fc.array(fc.record({ width: fc.integer(), url: field }), { maxLength: 2 }),
            webp: fc.array(fc.record({ width: fc.integer(), url: field }), { maxLength: 2 }),
            original: fc.array(fc.record({ width: fc.integer(), url: field }), { maxLength: 2 }),
          }),
          { nil: null },
        ),
        placeholder: fc.option(fc.record({ dataUri: field, color: field }), { nil: null }),
      }),
      fc.record({ type: fc.constant('code' as const), language: field, code: field }),
      fc.record({
        type: fc.constant('quote' as const),
        text: field,
        attribution: fc.option(field, { nil: undefined }),
      }),
      fc.record({ type: fc.constant('divider' as const) }),
      fc.record({
        type: fc.constant('callout' as const),
        variant: fc.constantFrom('info' as const, 'warning' as const, 'success' as const, 'error' as const),
        title: fc.option(field, { nil: undefined }),
        body: field,
      }),
      fc.record({ type: fc.constant('video_embed' as const), url: field, title: fc.option(field, { nil: undefined }) }),
      fc.record({ type: fc.constant('tweet_embed' as const), url: field }),
      fc.record({
        type: fc.constant('faq' as const),
        items: fc.array(fc.record({ question: field, answer: field }), { maxLength: 2 }),
      }),
      fc.record({
        type: fc.constant('cta' as const),
        title: field,
        body: field,
        linkUrl: field,
        linkLabel: field,
        variant: fc.constantFrom('default' as const, 'outlined' as const),
      }),
      fc.record({ type: fc.constant('key_takeaways' as const), items: fc.array(field, { maxLength: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 6 }), fc.boolean(), (blocks, resolved) => {
        const options = resolved ? { linkBase: 'https://site.example/blog/' } : {};
        const html = renderBlocks(blocks, options);
        expect(violations(html)).toEqual([]);
        expect(renderBlocks(structuredClone(blocks), options)).toBe(html);
        const [once, twice] = reserializedTwice(html);
        expect(twice).toBe(once);
      }),
      { numRuns: 1500 },
    );
  });
});
