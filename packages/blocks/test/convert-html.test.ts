import { describe, expect, it } from 'vitest';
import { BLOCK_LIMITS, htmlToBlocks, linkUrlsForTest, parseInlineForTest, renderBlocks } from './convert-helpers.js';
import { all, attr, parse } from './html.js';

const blocks = (html: string) => htmlToBlocks(html, { resolveImage: (src) => `media:${src}` }).blocks;

describe('htmlToBlocks: one block per element', () => {
  it('p → paragraph', () => {
    expect(blocks('<p>Hello <b>world</b></p><p>Again</p>')).toEqual([
      { type: 'paragraph', text: 'Hello **world**' },
      { type: 'paragraph', text: 'Again' },
    ]);
  });

  it('h1–h6 → heading, clamped to levels 2–4', () => {
    const html = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => `<${tag}>${tag}</${tag}>`).join('');
    expect(blocks(html).map((block) => (block.type === 'heading' ? block.level : 0))).toEqual([2, 2, 3, 4, 4, 4]);
  });

  it('ul / ol → list; a nested list flattened into items and reported as approximated', () => {
    const result = htmlToBlocks('<ol><li>One<ul><li>One a</li></ul></li><li><p>Two</p></li></ol><ul><li>x</li></ul>');
    expect(result.blocks).toEqual([
      { type: 'list', style: 'ordered', items: ['One', 'One a', 'Two'] },
      { type: 'list', style: 'bullet', items: ['x'] },
    ]);
    expect(result.report.notes).toEqual([expect.objectContaining({ kind: 'approximated', element: 'ol' })]);
  });

  it('blockquote → quote, its attribution from <footer>, <cite> or a last paragraph opening with a dash', () => {
    expect(blocks('<blockquote><p>Stay hungry.</p><footer>— Steve</footer></blockquote>')).toEqual([
      { type: 'quote', text: 'Stay hungry.', attribution: 'Steve' },
    ]);
    expect(blocks('<blockquote><p>To be.</p><p><cite>Hamlet</cite></p></blockquote>')).toEqual([
      { type: 'quote', text: 'To be.', attribution: 'Hamlet' },
    ]);
    expect(blocks('<blockquote><p>Less is more.</p><p>— Mies</p></blockquote>')).toEqual([
      { type: 'quote', text: 'Less is more.', attribution: 'Mies' },
    ]);
    expect(blocks('<blockquote cite="https://example.com/src"><p>Q</p></blockquote>')).toEqual([
      { type: 'quote', text: 'Q', attribution: '[https://example.com/src](https://example.com/src)' },
    ]);
  });

  it('img and figure(img + figcaption) → image through resolveImage, every image in the report', () => {
    const seen: Array<[string, string]> = [];
    const result = htmlToBlocks(
      '<figure><img src="/a.jpg" alt="A jar"><figcaption>Day <em>three</em></figcaption></figure><p><img src="b.png"></p>',
      { resolveImage: (src, alt) => (seen.push([src, alt]), src === '/a.jpg' ? 'm-a' : null) },
    );
    expect(seen).toEqual([
      ['/a.jpg', 'A jar'],
      ['b.png', ''],
    ]);
    expect(result.blocks).toEqual([{ type: 'image', mediaId: 'm-a', alt: 'A jar', caption: 'Day *three*' }]);
    expect(result.report.images).toEqual([
      { type: 'image', src: '/a.jpg', alt: 'A jar', caption: 'Day *three*', mediaId: 'm-a' },
      { type: 'image', src: 'b.png', alt: '', mediaId: null },
    ]);
    expect(result.report.notes).toEqual([{ kind: 'unresolved-image', element: 'img', excerpt: '<img src="b.png">' }]);
  });

  it('an image inside a paragraph’s text parts it, in order; one inside a link follows the paragraph', () => {
    expect(blocks('<p>Before <img src="x.png" alt="X"> after</p>')).toEqual([
      { type: 'paragraph', text: 'Before' },
      { type: 'image', mediaId: 'media:x.png', alt: 'X' },
      { type: 'paragraph', text: 'after' },
    ]);
    expect(blocks('<p>See <a href="/big.png"><img src="x.png"></a> here</p>')).toEqual([
      { type: 'paragraph', text: 'See here' },
      { type: 'image', mediaId: 'media:x.png' },
    ]);
  });

  it('pre/code → code, the language from language-x or lang-x', () => {
    expect(blocks('<pre><code class="language-ts">let a = 1;\n  a *= 2;\n</code></pre>')).toEqual([
      { type: 'code', language: 'ts', code: 'let a = 1;\n  a *= 2;' },
    ]);
    expect(blocks('<pre class="lang-Python">print(1)</pre>')).toEqual([
      { type: 'code', language: 'python', code: 'print(1)' },
    ]);
    expect(blocks('<pre>plain</pre>')).toEqual([{ type: 'code', language: '', code: 'plain' }]);
  });

  it('hr → divider', () => {
    expect(blocks('<p>a</p><hr><p>b</p>')[1]).toEqual({ type: 'divider' });
  });

  it('YouTube and Vimeo iframes, or links alone in a paragraph → video_embed', () => {
    expect(
      blocks(
        '<iframe src="//www.youtube.com/embed/dQw4w9WgXcQ" title="Never"></iframe>' +
          '<p><a href="https://vimeo.com/76979871">The new Vimeo player</a></p>' +
          '<p><span><a href="https://youtu.be/dQw4w9WgXcQ">https://youtu.be/dQw4w9WgXcQ</a></span></p>',
      ),
    ).toEqual([
      { type: 'video_embed', url: 'https://www.youtube.com/embed/dQw4w9WgXcQ', title: 'Never' },
      { type: 'video_embed', url: 'https://vimeo.com/76979871', title: 'The new Vimeo player' },
      { type: 'video_embed', url: 'https://youtu.be/dQw4w9WgXcQ' },
    ]);
    // A link among other words stays a link.
    expect(blocks('<p>Watch <a href="https://youtu.be/dQw4w9WgXcQ">this</a></p>')).toEqual([
      { type: 'paragraph', text: 'Watch [this](https://youtu.be/dQw4w9WgXcQ)' },
    ]);
  });

  it('blockquote.twitter-tweet or a status link alone → tweet_embed', () => {
    const tweet =
      '<blockquote class="twitter-tweet"><p lang="en">Hello</p>&mdash; Jack (@jack) ' +
      '<a href="https://twitter.com/jack/status/20?ref_src=twsrc">March 21, 2006</a></blockquote>' +
      '<p><a href="https://x.com/someone/status/1234567890">a post</a></p>';
    expect(blocks(tweet)).toEqual([
      { type: 'tweet_embed', url: 'https://twitter.com/jack/status/20?ref_src=twsrc' },
      { type: 'tweet_embed', url: 'https://x.com/someone/status/1234567890' },
    ]);
  });

  it('details/summary → faq, consecutive ones merged into one', () => {
    expect(
      blocks(
        '<details><summary>Why?</summary><p>Because.</p></details>\n<details><summary>How?</summary>Like <em>so</em>.</details><p>x</p><details><summary>Alone</summary><p>Yes</p></details>',
      ),
    ).toEqual([
      {
        type: 'faq',
        items: [
          { question: 'Why?', answer: 'Because.' },
          { question: 'How?', answer: 'Like *so*.' },
        ],
      },
      { type: 'paragraph', text: 'x' },
      { type: 'faq', items: [{ question: 'Alone', answer: 'Yes' }] },
    ]);
  });

  it('WordPress and Ghost buttons → cta', () => {
    expect(
      blocks(
        '<div class="wp-block-buttons"><div class="wp-block-button is-style-outline"><a class="wp-block-button__link wp-element-button" href="https://example.com/join">Join us</a></div></div>' +
          '<div class="kg-card kg-button-card"><a href="/subscribe" class="kg-btn kg-btn-accent">Subscribe</a></div>',
      ),
    ).toEqual([
      {
        type: 'cta',
        title: 'Join us',
        body: '',
        linkUrl: 'https://example.com/join',
        linkLabel: 'Join us',
        variant: 'default',
      },
      { type: 'cta', title: 'Subscribe', body: '', linkUrl: '/subscribe', linkLabel: 'Subscribe', variant: 'default' },
    ]);
  });

  it('Ghost callout cards, aside and .callout → callout', () => {
    expect(
      blocks(
        '<div class="kg-card kg-callout-card kg-callout-card-yellow"><div class="kg-callout-emoji">💡</div><div class="kg-callout-text">Feed it <b>daily</b>.</div></div>' +
          '<aside><h3>Note</h3><p>Keep it warm.</p></aside>' +
          '<div class="callout callout-danger"><p>Never seal the jar.</p></div>',
      ),
    ).toEqual([
      { type: 'callout', variant: 'warning', body: '💡 Feed it **daily**.' },
      { type: 'callout', variant: 'info', title: 'Note', body: 'Keep it warm.' },
      { type: 'callout', variant: 'error', body: 'Never seal the jar.' },
    ]);
  });

  it('containers are read through; text outside any paragraph becomes one', () => {
    expect(blocks('<div><section>Loose <i>text</i><div>Inner</div></section></div>')).toEqual([
      { type: 'paragraph', text: 'Loose *text*' },
      { type: 'paragraph', text: 'Inner' },
    ]);
  });
});

describe('htmlToBlocks: inline HTML → inline Markdown', () => {
  const text = (html: string) => {
    const [first] = blocks(`<p>${html}</p>`);
    return first?.type === 'paragraph' ? first.text : undefined;
  };

  it('strong/b, em/i, code, s/del/strike, br', () => {
    expect(text('<strong>a</strong> <b>b</b> <em>c</em> <i>d</i> <code>e*f</code>')).toBe('**a** **b** *c* *d* `e*f`');
    expect(text('<s>a</s> <del>b</del> <strike>c</strike>')).toBe('~~a~~ ~~b~~ ~~c~~');
    expect(text('line one<br>line two<br>')).toBe('line one\\\nline two');
    expect(text('<code>a`b</code>')).toBe('``a`b``');
  });

  it('white space at the edges of a mark moves outside it, and collapses as a browser would', () => {
    expect(text('  a<b> bold </b>b \n\t c  ')).toBe('a **bold** b c');
  });

  it('links keep http(s), mailto, relative and # URLs; others become their text, reported', () => {
    expect(
      text(
        '<a href="https://e.com/a b" title="T">x</a> <a href="mailto:a@b.c">m</a> <a href="/p">r</a> <a href="#s">f</a>',
      ),
    ).toBe('[x](<https://e.com/a b> "T") [m](mailto:a@b.c) [r](/p) [f](#s)');
    const result = htmlToBlocks('<p><a href="data:text/html,x">d</a> <a href="ftp://h/x">f</a></p>');
    expect(result.blocks).toEqual([{ type: 'paragraph', text: 'd f' }]);
    expect(result.report.notes.map((note) => note.kind)).toEqual(['link-removed', 'link-removed']);
  });

  it('Markdown’s special characters in text stay literal', () => {
    const literal = 'a*b_c `d` [e](f) <g> ~~h~~ \\i &amp; 1. # > !';
    const converted = text(literal.replace(/&amp;/, '&amp;amp;').replace(/</g, '&lt;'))!;
    expect(parseInlineForTest(converted)).toBe('a*b_c `d` [e](f) <g> ~~h~~ \\i &amp; 1. # > !');
  });
});

describe('htmlToBlocks: clipboard HTML', () => {
  it('Google Docs: the wrapper <b> is not bold; styled spans carry bold, italic and strikethrough', () => {
    const clipboard =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-5e1b3c4a-7fff-1a2b-9c3d-0123456789ab">' +
      '<h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;">Sourdough notes</span></h1>' +
      '<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:normal;">Feed the starter </span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;font-style:normal;">twice</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:italic;"> a day</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;text-decoration:line-through;">, or once</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">.</span></p>' +
      '<br><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-weight:400;">Flour</span></p></li><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-size:11pt;font-weight:700;">Water</span></p></li></ul></b>';
    expect(htmlToBlocks(clipboard)).toEqual({
      blocks: [
        { type: 'heading', level: 2, text: 'Sourdough notes' },
        { type: 'paragraph', text: 'Feed the starter **twice** *a day*~~, or once~~.' },
        { type: 'list', style: 'bullet', items: ['Flour', '**Water**'] },
      ],
      report: { notes: [], images: [] },
    });
  });

  it('Word: MsoListParagraph paragraphs → list items, markers, <o:p> and conditional comments dropped', () => {
    const clipboard = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft Word 15">
<style><!-- p.MsoNormal {margin:0cm;} --></style><!--[if gte mso 9]><xml><o:OfficeDocumentSettings></o:OfficeDocumentSettings></xml><![endif]--></head>
<body lang=EN-GB><!--StartFragment-->
<p class=MsoNormal>Shopping <b>list</b>:<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Flour<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><!--[if !supportLists]--><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><!--[endif]--><i>Rye</i> flour<o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='mso-list:l1 level1 lfo2'><span style='mso-list:Ignore'>1.<span>&nbsp;&nbsp; </span></span>Mix<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l1 level1 lfo2'><span style='mso-list:Ignore'>2.<span>&nbsp;&nbsp; </span></span>Bake<o:p></o:p></p>
<!--EndFragment--></body></html>`;
    expect(htmlToBlocks(clipboard)).toEqual({
      blocks: [
        { type: 'paragraph', text: 'Shopping **list**:' },
        { type: 'list', style: 'bullet', items: ['Flour', '*Rye* flour'] },
        { type: 'list', style: 'ordered', items: ['Mix', 'Bake'] },
      ],
      report: { notes: [], images: [] },
    });
  });
});

describe('htmlToBlocks: what has no block is reported, never run', () => {
  it('reports each unsupported element with its kind and an excerpt, and approximates tables', () => {
    const result = htmlToBlocks(
      '<p>Kept</p><audio src="a.mp3"></audio><video src="v.mp4"></video><iframe src="https://maps.example/embed"></iframe>' +
        '<form action="/x"><input name="q"></form><script>alert(1)</script><style>p{}</style><object data="x.swf"></object>' +
        '<embed src="y.swf"><svg><circle r="4"/></svg><p>Inline <svg></svg>end</p>' +
        '<table><tr><th>Flour</th><th>Water</th></tr><tr><td>500 g</td><td>350 g</td></tr></table>',
    );
    expect(result.blocks).toEqual([
      { type: 'paragraph', text: 'Kept' },
      { type: 'paragraph', text: 'Inline end' },
      { type: 'paragraph', text: 'Flour | Water' },
      { type: 'paragraph', text: '500 g | 350 g' },
    ]);
    expect(result.report.notes.map((note) => [note.kind, note.element])).toEqual([
      ['unsupported', 'audio'],
      ['unsupported', 'video'],
      ['unsupported', 'iframe'],
      ['unsupported', 'form'],
      ['unsupported', 'script'],
      ['unsupported', 'style'],
      ['unsupported', 'object'],
      ['unsupported', 'embed'],
      ['unsupported', 'svg'],
      ['unsupported', 'svg'],
      ['approximated', 'table'],
    ]);
    expect(result.report.notes[4]!.excerpt).toBe('<script>alert(1)</script>');
    expect(result.report.notes.every((note) => note.excerpt.length <= 120)).toBe(true);
  });

  it('XSS-ish links never become javascript: links, in the blocks or in their HTML', () => {
    const vectors = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java&#x09;script:alert(1)',
      'javascript&colon;alert(1)',
      'javascript&amp;colon;alert(1)',
      'javascript&amp;#58;alert(1)',
      '&#106;avascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      '\\\\javascript:alert(1)',
    ];
    const html = vectors.map((href) => `<p><a href="${href}">x</a> <a href="x" onclick="alert(1)">y</a></p>`).join('');
    const result = htmlToBlocks(
      html +
        '<p><img src="javascript:alert(1)" onerror="alert(1)"></p><a class="kg-btn" href="javascript:alert(1)">Go</a>',
      { resolveImage: () => null },
    );
    const urls: string[] = [];
    for (const block of result.blocks)
      for (const field of Object.values(block)) if (typeof field === 'string') urls.push(...linkUrlsForTest(field));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(new URL(url, 'https://site.example/').protocol).toBe('https:');
    expect(JSON.stringify(result.blocks)).not.toMatch(/onclick|onerror|javascript:/i);
    const rendered = parse(renderBlocks(result.blocks));
    for (const link of all(rendered, 'a'))
      expect(new URL(attr(link, 'href')!, 'https://site.example/').protocol).toBe('https:');
  });
});

describe('htmlToBlocks: input nested without end', () => {
  it('converts, the part deeper than 100 elements read as its text, with a note', () => {
    const result = htmlToBlocks(`${'<div><span>'.repeat(10_000)}<b>deep</b> text`);
    expect(result.blocks).toEqual([{ type: 'paragraph', text: 'deep text' }]);
    expect(result.report.notes).toEqual([
      { kind: 'approximated', element: 'body', excerpt: 'nested too deep, read as text: deep text' },
    ]);
  });
});

describe('htmlToBlocks: the block limits', () => {
  it('splits a paragraph, a list and a FAQ over their limits, cuts a long heading, with notes', () => {
    const word = 'word ';
    const long = word.repeat(BLOCK_LIMITS.paragraphText / word.length + 10).trim();
    const items = Array.from({ length: BLOCK_LIMITS.listItems + 1 }, (_, i) => `<li>${i}</li>`).join('');
    const faq = '<details><summary>Q</summary>A</details>'.repeat(BLOCK_LIMITS.faqItems.max + 1);
    const result = htmlToBlocks(`<p>${long}</p><ul>${items}</ul>${faq}<h2>${'h'.repeat(1200)}</h2>`);
    expect(result.blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'paragraph',
      'list',
      'list',
      'faq',
      'faq',
      'heading',
    ]);
    const [first, second] = result.blocks;
    expect(first?.type === 'paragraph' && first.text.length).toBeLessThanOrEqual(BLOCK_LIMITS.paragraphText);
    expect(first?.type === 'paragraph' && second?.type === 'paragraph' && `${first.text} ${second.text}`).toBe(long);
    const heading = result.blocks[6];
    expect(heading?.type === 'heading' && heading.text.length).toBe(1000);
    expect(result.report.notes.map((note) => [note.kind, note.element])).toEqual([
      ['split', 'paragraph'],
      ['split', 'list'],
      ['split', 'faq'],
      ['truncated', 'heading'],
    ]);
  });

  it('a URL over its limit is no embed and no CTA link (a URL cut would be another), with notes', () => {
    const long = `https://x.com/a/status/1?${'q'.repeat(BLOCK_LIMITS.url)}`;
    const result = htmlToBlocks(
      `<blockquote class="twitter-tweet"><a href="${long}">t</a></blockquote><a class="kg-btn" href="/${'p'.repeat(BLOCK_LIMITS.url)}">Go</a>`,
    );
    expect(result.blocks).toEqual([
      { type: 'cta', title: 'Go', body: '', linkUrl: '', linkLabel: 'Go', variant: 'default' },
    ]);
    expect(result.report.notes.map((note) => [note.kind, note.element])).toEqual([
      ['truncated', 'tweet_embed'],
      ['truncated', 'cta'],
    ]);
  });

  it('leaves out the blocks past the body’s limit, with a note', () => {
    const result = htmlToBlocks('<hr>'.repeat(BLOCK_LIMITS.blocksPerBody + 5));
    expect(result.blocks).toHaveLength(BLOCK_LIMITS.blocksPerBody);
    expect(result.report.notes).toEqual([
      { kind: 'truncated', element: 'body', excerpt: '5 blocks past the limit of 1000' },
    ]);
  });
});
