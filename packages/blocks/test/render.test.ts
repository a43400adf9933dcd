import { describe, expect, it } from 'vitest';
import { renderBlocks, renderInline, type Block, type BlockWrite } from '../src/index.js';
import { all, attr, attrs, only, parse, tags, text, topLevel } from './html.js';

const MEDIA = '00000000-0000-4000-8000-000000000001';
const IMAGE: Block = {
  type: 'image',
  mediaId: MEDIA,
  alt: 'A starter jar',
  caption: 'Day *three*',
  url: 'https://cms.example/media/w/m/jar.png',
  width: 1200,
  height: 800,
  srcset: {
    avif: [
      { width: 640, url: 'https://cms.example/media/w/m/w640/jar.avif' },
      { width: 960, url: 'https://cms.example/media/w/m/w960/jar.avif' },
    ],
    webp: [{ width: 640, url: 'https://cms.example/media/w/m/w640/jar.webp' }],
    original: [{ width: 640, url: 'https://cms.example/media/w/m/w640/jar.png' }],
  },
  placeholder: { dataUri: 'data:image/webp;base64,UklGRh4AAABXRUJQ', color: '#a0b1c2' },
};

const one = (block: Block | BlockWrite, options = {}) => {
  const html = renderBlocks([block], options);
  const top = topLevel(html);
  expect(top).toHaveLength(1);
  return top[0]!;
};

describe('renderBlocks: each of the 13 block types', () => {
  it('paragraph: a <p> of inline Markdown', () => {
    const p = one({ type: 'paragraph', text: 'Some **bold**, *em*, `code`, ~~gone~~ and [a link](/docs).' });
    expect(p.tagName).toBe('p');
    expect(tags(p)).toEqual(['strong', 'em', 'code', 'del', 'a']);
    expect(attr(only(p, 'a'), 'href')).toBe('/docs');
    expect(text(p)).toBe('Some bold, em, code, gone and a link.');
  });

  it('heading: <h2|h3|h4> with the block id, or one derived as a save would, with the prefix asked for', () => {
    expect(one({ type: 'heading', level: 3, text: 'Set *up*', id: 'setup' })).toMatchObject({ tagName: 'h3' });
    expect(attr(one({ type: 'heading', level: 4, text: 'x', id: 'own' }), 'id')).toBe('own');
    const html = renderBlocks(
      [
        { type: 'heading', level: 2, text: 'Café intro' },
        { type: 'heading', level: 2, text: 'Café intro' },
        { type: 'heading', level: 3, text: 'Later', id: 'cafe-intro-1' },
      ],
      { idPrefix: 'heading-' },
    );
    expect(topLevel(html).map((h) => [h.tagName, attr(h, 'id')])).toEqual([
      ['h2', 'heading-cafe-intro'],
      ['h2', 'heading-cafe-intro-2'],
      ['h3', 'heading-cafe-intro-1'],
    ]);
  });

  it('list: <ul> or <ol> of <li>', () => {
    const ul = one({ type: 'list', style: 'bullet', items: ['a *b*', 'c'] });
    expect([ul.tagName, all(ul, 'li').map(text)]).toEqual(['ul', ['a b', 'c']]);
    expect(one({ type: 'list', style: 'ordered', items: ['1'] }).tagName).toBe('ol');
  });

  it('image: a figure with a picture (AVIF, WebP, then the image), placeholder, lazy loading and a caption', () => {
    const figure = one(IMAGE, { sizes: '50vw' });
    expect(tags(figure)).toEqual(['picture', 'source', 'source', 'img', 'figcaption', 'em']);
    const [avif, webp] = all(figure, 'source');
    expect(attrs(avif!)).toEqual({
      type: 'image/avif',
      srcset: 'https://cms.example/media/w/m/w640/jar.avif 640w, https://cms.example/media/w/m/w960/jar.avif 960w',
      sizes: '50vw',
    });
    expect(attr(webp!, 'type')).toBe('image/webp');
    expect(attrs(only(figure, 'img'))).toEqual({
      src: 'https://cms.example/media/w/m/jar.png',
      srcset: 'https://cms.example/media/w/m/w640/jar.png 640w',
      sizes: '50vw',
      width: '1200',
      height: '800',
      alt: 'A starter jar',
      loading: 'lazy',
      decoding: 'async',
      style:
        'background-color:#a0b1c2;background-image:url(data:image/webp;base64,UklGRh4AAABXRUJQ);background-size:cover',
    });
    expect(text(only(figure, 'figcaption'))).toBe('Day three');
  });

  it('image: the default sizes, an empty alt when none, no srcset or placeholder when the read has none', () => {
    const figure = one({ type: 'image', mediaId: MEDIA, url: 'https://cms.example/a.gif', srcset: null });
    expect(tags(figure)).toEqual(['picture', 'img']);
    expect(attrs(only(figure, 'img'))).toEqual({
      src: 'https://cms.example/a.gif',
      alt: '',
      loading: 'lazy',
      decoding: 'async',
    });
    expect(attr(all(one(IMAGE), 'source')[0]!, 'sizes')).toBe('(min-width: 768px) 768px, 100vw');
  });

  it('image: nothing at all once its media is gone, and no placeholder a CSS url() could be broken out of', () => {
    expect(renderBlocks([{ type: 'image', mediaId: MEDIA, url: null }])).toBe('');
    const img = only(
      one({ ...IMAGE, placeholder: { dataUri: 'data:image/svg+xml;base64,PHN2Zz4=', color: 'red;x:y' } }),
      'img',
    );
    expect(attr(img, 'style')).toBeUndefined();
  });

  it('code: <pre><code class="language-x">, escaped, the language made a class-safe token', () => {
    const pre = one({ type: 'code', language: 'C++ "x"', code: 'a < b && </code><script>x</script>' });
    expect(tags(pre)).toEqual(['code']);
    expect(attrs(pre)).toEqual({ tabindex: '0', 'data-language': 'c++x' });
    expect(attr(only(pre, 'code'), 'class')).toBe('language-c++x');
    expect(text(pre)).toBe('a < b && </code><script>x</script>');
    expect(attr(only(one({ type: 'code', language: '', code: 'x' }), 'code'), 'class')).toBeUndefined();
  });

  it('quote: a figure with the <blockquote> and the attribution in <figcaption><cite>', () => {
    const figure = one({ type: 'quote', text: 'Simplicity is **prerequisite**.', attribution: 'Edsger *W.* Dijkstra' });
    expect(tags(figure)).toEqual(['blockquote', 'p', 'strong', 'figcaption', 'cite', 'em']);
    expect(text(only(figure, 'cite'))).toBe('Edsger W. Dijkstra');
    expect(tags(one({ type: 'quote', text: 'Alone.' }))).toEqual(['blockquote', 'p']);
  });

  it('divider: <hr>', () => {
    expect(one({ type: 'divider' }).tagName).toBe('hr');
  });

  it('callout: an <aside role="note"> with its variant as a class, the title first', () => {
    const aside = one({ type: 'callout', variant: 'warning', title: 'Careful', body: 'Back up *first*.' });
    expect(attrs(aside)).toEqual({ class: 'quire-callout quire-callout--warning', role: 'note' });
    expect(all(aside, 'p').map(text)).toEqual(['Careful', 'Back up first.']);
    expect(all(one({ type: 'callout', variant: 'info', body: 'b' }), 'p')).toHaveLength(1);
  });

  it('video_embed: a figure with a plain link and the privacy-enhanced player address, no iframe', () => {
    const figure = one({
      type: 'video_embed',
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m5s',
      title: 'A *video*',
    });
    expect(attrs(figure)).toEqual({
      class: 'quire-embed quire-embed--video',
      'data-provider': 'youtube',
      'data-video-id': 'dQw4w9WgXcQ',
      'data-embed-url': 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=65',
    });
    expect(tags(figure)).toEqual(['a', 'em']);
    expect([attr(only(figure, 'a'), 'href'), text(figure)]).toEqual([
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m5s',
      'A video',
    ]);
    expect(attr(one({ type: 'video_embed', url: 'https://youtu.be/dQw4w9WgXcQ' }), 'data-embed-url')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );
    const vimeo = one({ type: 'video_embed', url: 'https://vimeo.com/76979871/8272103f6e' });
    expect([attr(vimeo, 'data-provider'), attr(vimeo, 'data-embed-url'), text(vimeo)]).toEqual([
      'vimeo',
      'https://player.vimeo.com/video/76979871?h=8272103f6e&dnt=1',
      'https://vimeo.com/76979871/8272103f6e',
    ]);
    // Another host: a link, nothing to play.
    expect(attrs(one({ type: 'video_embed', url: 'https://video.example.com/v/1' }))).toEqual({
      class: 'quire-embed quire-embed--video',
    });
  });

  it('tweet_embed: a figure with a plain link to the post, its id as data', () => {
    const figure = one({ type: 'tweet_embed', url: 'https://twitter.com/example/status/1234567890' });
    expect(attrs(figure)).toEqual({
      class: 'quire-embed quire-embed--post',
      'data-provider': 'x',
      'data-post-id': '1234567890',
    });
    expect(attr(only(figure, 'a'), 'href')).toBe('https://twitter.com/example/status/1234567890');
  });

  it('faq: a section of <details>, the question the <summary> (no link in it), the answer after', () => {
    const section = one({
      type: 'faq',
      items: [
        { question: 'Is it [safe](https://x.example)?', answer: 'Yes, <b>quite</b>.' },
        { question: 'Two?', answer: 'Two.' },
      ],
    });
    expect(attrs(section)).toEqual({ class: 'quire-faq' });
    expect(tags(section)).toEqual(['details', 'summary', 'p', 'details', 'summary', 'p']);
    expect(all(section, 'summary').map(text)).toEqual(['Is it safe?', 'Two?']);
    expect(text(all(section, 'p')[0]!)).toBe('Yes, <b>quite</b>.');
  });

  it('cta: a section with a heading, its text and the link styled as a button, by variant', () => {
    const section = one({
      type: 'cta',
      title: 'Subscribe',
      body: 'Get new posts by email.',
      linkUrl: 'https://example.com/subscribe',
      linkLabel: 'Sign [up](https://elsewhere.example)',
      variant: 'outlined',
    });
    expect(attrs(section)).toEqual({ class: 'quire-cta quire-cta--outlined' });
    expect(tags(section)).toEqual(['h2', 'p', 'p', 'a']);
    expect(attrs(only(section, 'a'))).toEqual({ class: 'quire-cta__button', href: 'https://example.com/subscribe' });
    expect(text(only(section, 'a'))).toBe('Sign up');
  });

  it('key_takeaways: an <aside> with a heading and a list, the heading in the words asked for', () => {
    const aside = one({ type: 'key_takeaways', items: ['Typed', '*Safe*'] });
    expect(tags(aside)).toEqual(['h2', 'ul', 'li', 'li', 'em']);
    expect(text(only(aside, 'h2'))).toBe('Key takeaways');
    expect(
      text(only(one({ type: 'key_takeaways', items: ['x'] }, { labels: { keyTakeaways: 'À retenir' } }), 'h2')),
    ).toBe('À retenir');
  });
});

describe('renderBlocks: the body', () => {
  it('writes each block on a line of its own, the same string for the same blocks', () => {
    const blocks: Block[] = [{ type: 'paragraph', text: 'a' }, { type: 'divider' }, { type: 'paragraph', text: 'b' }];
    expect(renderBlocks(blocks)).toBe('<p>a</p>\n<hr>\n<p>b</p>');
    expect(renderBlocks(structuredClone(blocks))).toBe(renderBlocks(blocks));
    expect(renderBlocks([])).toBe('');
  });

  it('resolves site-relative links and sources against linkBase, and leaves fragments and absolute URLs alone', () => {
    const html = renderBlocks(
      [
        { type: 'paragraph', text: '[a](/docs?x=1) [b](guide) [c](#top) [d](https://other.example/) [e](?q=2)' },
        { type: 'image', mediaId: MEDIA, url: '/media/a.png' },
      ],
      { linkBase: 'https://site.example/blog/' },
    );
    expect(all(parse(html), 'a').map((a) => attr(a, 'href'))).toEqual([
      'https://site.example/docs?x=1',
      'https://site.example/blog/guide',
      '#top',
      'https://other.example/',
      'https://site.example/blog/?q=2',
    ]);
    expect(attr(only(parse(html), 'img'), 'src')).toBe('https://site.example/media/a.png');
    expect(() => renderBlocks([], { linkBase: 'javascript:alert(1)' })).toThrow(TypeError);
  });
});

describe('renderInline', () => {
  it('is phrasing content: inline Markdown, blocks and raw HTML left as text', () => {
    expect(renderInline('1. Introduction')).toBe('1. Introduction');
    expect(renderInline('# of guests > 50')).toBe('# of guests &gt; 50');
    expect(renderInline('<b onclick="x()">bold</b>')).toBe('&lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;');
    expect(renderInline('a  \nb')).toBe('a<br>b');
    expect(renderInline('one\n\ntwo')).toBe('one<br><br>two');
    expect(renderInline('~one~ ~~two~~')).toBe('~one~ <del>two</del>');
    expect(renderInline('<https://x.example/a>')).toBe('<a href="https://x.example/a">https://x.example/a</a>');
    expect(renderInline('[t](/x "Title")')).toBe('<a href="/x" title="Title">t</a>');
    expect(renderInline('![alt text](https://x.example/i.png)')).toBe('alt text');
    expect(renderInline('&copy; \\*x\\*')).toBe('© *x*');
  });

  it('renders a link whose URL is not allowed as its text alone', () => {
    for (const markdown of [
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](jav&#x09;ascript:alert(1))',
      '[x](&#106;avascript:alert(1))',
      '[x](<java\nscript:alert(1)>)',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '[x](vbscript:msgbox(1))',
      '[x](//evil.example)',
      '[x](/\\evil.example)',
      '<javascript:alert(1)>',
      '[x]( javascript:alert(1))',
      // A browser drops tabs and newlines inside a URL: a link holding one is refused whatever it says.
      '[x](</docs\tpage>)',
    ])
      expect(renderInline(markdown), markdown).not.toContain('<a');
  });
});
