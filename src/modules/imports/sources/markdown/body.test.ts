import { markdownToBlocks } from '@quire/blocks';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBody, type PrepareOptions } from './body.js';
import { expandTemplateTags } from './expand.js';
import { MediaFolder } from './media.js';

let root: string;
let options: PrepareOptions;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'quire-md-body-')));
  mkdirSync(path.join(root, 'posts/hello'), { recursive: true });
  for (const file of ['posts/hello/cover.png', 'posts/hello/a (1).png', 'shared.png'])
    writeFileSync(path.join(root, file), 'png');
  options = { titleFromHeading: false, mdx: false, folder: new MediaFolder(root), fileFolder: `${root}/posts/hello` };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const prepare = (body: string, extra: Partial<PrepareOptions> = {}) => prepareBody(body, { ...options, ...extra });
const blocks = (body: string, extra: Partial<PrepareOptions> = {}) =>
  markdownToBlocks(prepare(body, extra).markdown, { resolveImage: (src) => `media:${src}` }).blocks;

describe('Hugo shortcodes', () => {
  it('makes YouTube, Vimeo, tweets and X posts embeds', () => {
    const body = [
      '{{< youtube dQw4w9WgXcQ >}}',
      '{{< youtube id="dQw4w9WgXcQ" >}}',
      '{{< vimeo 76979871 >}}',
      '{{< tweet user="jack" id="20" >}}',
      '{{< x user="jack" id="21" >}}',
      '{{< tweet 22 >}}',
    ].join('\n\n');
    expect(blocks(body)).toEqual([
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'video_embed', url: 'https://vimeo.com/76979871' },
      { type: 'tweet_embed', url: 'https://x.com/jack/status/20' },
      { type: 'tweet_embed', url: 'https://x.com/jack/status/21' },
      { type: 'tweet_embed', url: 'https://x.com/i/status/22' },
    ]);
  });

  it('makes a figure an image with its caption, its relative source made root-relative', () => {
    expect(blocks('{{< figure src="cover.png" alt="A <b>" caption="Seen & said" >}}')).toEqual([
      { type: 'image', mediaId: 'media:/posts/hello/cover.png', alt: 'A <b>', caption: 'Seen & said' },
    ]);
  });

  it('makes a shortcode standing inside a sentence its own block', () => {
    expect(blocks('Watch {{< youtube dQw4w9WgXcQ >}} now.')).toEqual([
      { type: 'paragraph', text: 'Watch' },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'paragraph', text: 'now.' },
    ]);
  });

  it('makes highlight a code block, and keeps the content of an unknown paired shortcode', () => {
    const prepared = prepare(
      '{{< highlight go "linenos=table" >}}\nfmt.Println("```")\n{{< /highlight >}}\n\n{{% notice tip %}}\nKept **text**.\n{{% /notice %}}',
    );
    expect(markdownToBlocks(prepared.markdown).blocks).toEqual([
      { type: 'code', language: 'go', code: 'fmt.Println("```")' },
      { type: 'paragraph', text: 'Kept **text**.' },
    ]);
    expect(prepared.notes).toEqual([{ kind: 'unsupported', element: 'notice', excerpt: '{{% notice tip %}}' }]);
  });

  it('reports an unknown shortcode, or a known one it cannot read, and takes it out', () => {
    const prepared = prepare(
      'Before {{< gist spf13 7896402 >}} after.\n\n{{< youtube not-an-id >}}\n\n{{< ref "x.md" />}}',
    );
    expect(markdownToBlocks(prepared.markdown).blocks).toEqual([{ type: 'paragraph', text: 'Before after.' }]);
    expect(prepared.notes.map((note) => note.element)).toEqual(['gist', 'youtube', 'ref']);
    expect(prepared.notes[0]).toEqual({ kind: 'unsupported', element: 'gist', excerpt: '{{< gist spf13 7896402 >}}' });
  });

  it('leaves shortcodes inside fenced, indented and inline code as they are', () => {
    const body = [
      '```',
      '{{< youtube dQw4w9WgXcQ >}}',
      '```',
      '',
      '    {% include x.html %}',
      '',
      'Use `{{< gist a b >}}` and ``{{ site.title }}``.',
    ].join('\n');
    const prepared = prepare(body);
    expect(prepared.markdown).toBe(body);
    expect(prepared.notes).toEqual([]);
  });

  it('writes an escaped shortcode as the shortcode text', () => {
    expect(blocks('Write {{</* youtube ID */>}} to embed.')).toEqual([
      { type: 'paragraph', text: 'Write {{\\< youtube ID >}} to embed.' },
    ]);
  });
});

describe('Liquid tags', () => {
  it('makes youtube, vimeo and twitter tags embeds, and reports include', () => {
    const prepared = prepare(
      '{% youtube dQw4w9WgXcQ %}\n\n{% vimeo 76979871 %}\n\n{% twitter https://twitter.com/jack/status/20 %}\n\n{%- include foo.html param="x" -%}',
    );
    expect(markdownToBlocks(prepared.markdown).blocks).toEqual([
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'video_embed', url: 'https://vimeo.com/76979871' },
      { type: 'tweet_embed', url: 'https://twitter.com/jack/status/20' },
    ]);
    expect(prepared.notes).toEqual([
      { kind: 'unsupported', element: 'include', excerpt: '{%- include foo.html param="x" -%}' },
    ]);
  });

  it('keeps raw content as text, drops comments, makes highlight code', () => {
    const prepared = prepare(
      '{% raw %}A {{ var }} and {% tag %}.{% endraw %}\n\n{% comment %}secret {% include x %}{% endcomment %}\n\n{% highlight ruby linenos %}\nputs 1\n{% endhighlight %}',
    );
    expect(markdownToBlocks(prepared.markdown).blocks).toEqual([
      { type: 'paragraph', text: 'A {{ var }} and {% tag %}.' },
      { type: 'code', language: 'ruby', code: 'puts 1' },
    ]);
    expect(prepared.notes).toEqual([]);
  });

  it('drops the site base address before a path, reads relative_url, reports other output', () => {
    const prepared = prepare(
      '![a]({{ site.baseurl }}/shared.png) ![b]({{ "/shared.png" | relative_url }})\n\nBy {{ page.author }}.',
    );
    expect(prepared.markdown).toBe('![a](/shared.png) ![b](/shared.png)\n\nBy .');
    expect(prepared.notes).toEqual([{ kind: 'unsupported', element: 'liquid-output', excerpt: '{{ page.author }}' }]);
  });

  it('reports a block tag once and keeps its content', () => {
    const prepared = prepare('{% if site.comments %}\nShown.\n{% endif %}');
    expect(markdownToBlocks(prepared.markdown).blocks).toEqual([{ type: 'paragraph', text: 'Shown.' }]);
    expect(prepared.notes.map((note) => note.element)).toEqual(['if']);
  });

  it('reads a file full of braces in linear time', () => {
    for (const body of ['{{'.repeat(300_000), `${'{% x '.repeat(100_000)}%}`, '{{ a\n\n}} '.repeat(50_000)]) {
      const started = performance.now();
      expandTemplateTags(body, [], []);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('reads braces with no closing, or a blank line before it, as text', () => {
    const body = 'A { brace and {{ an open one\n\nand }} later {% and %';
    expect(prepare(body).markdown).toBe(body);
  });
});

describe('MDX', () => {
  it('takes out imports, exports, JSX and expressions with a note each, and keeps the Markdown', () => {
    const body = [
      "import Chart from '../components/Chart.astro';",
      '',
      'export const meta = { a: 1 };',
      '',
      'Some **text**.',
      '',
      '<Chart data={[1, 2, 3]} />',
      '',
      '<Tabs>',
      '',
      'Inside a tab.',
      '',
      '</Tabs>',
      '',
      '{/* a comment */}',
      '',
      '```jsx',
      "import Kept from './kept';",
      '```',
    ].join('\n');
    const prepared = prepare(body, { mdx: true });
    expect(markdownToBlocks(prepared.markdown).blocks).toEqual([
      { type: 'paragraph', text: 'Some **text**.' },
      { type: 'paragraph', text: 'Inside a tab.' },
      { type: 'code', language: 'jsx', code: "import Kept from './kept';" },
    ]);
    expect(prepared.notes.map((note) => [note.kind, note.element])).toEqual([
      ['unsupported', 'import'],
      ['unsupported', 'export'],
      ['unsupported', 'Chart'],
      ['unsupported', 'expression'],
      ['unsupported', 'Tabs'],
      ['unsupported', 'Tabs'],
    ]);
  });

  it('leaves import lines alone in a plain Markdown file', () => {
    expect(prepare('import this\n\n<Chart />').markdown).toBe('import this\n\n<Chart />');
  });
});

describe('title heading', () => {
  it('takes the first # heading as the title and out of the body', () => {
    const prepared = prepare('Intro.\n\n# The *Title* `x`\n\n# Second\n\nText.', { titleFromHeading: true });
    expect(prepared.title).toBe('The Title x');
    expect(markdownToBlocks(prepared.markdown).blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'heading',
      'paragraph',
    ]);
  });

  it('leaves it when the front matter has the title, or there is none', () => {
    expect(prepare('# Heading', { titleFromHeading: false })).toEqual({ markdown: '# Heading', notes: [] });
    expect(prepare('## Only h2', { titleFromHeading: true }).title).toBeUndefined();
  });
});

describe('image sources', () => {
  it('makes a relative source that names a file root-relative, percent-encoded', () => {
    const prepared = prepare('![Cover *x*](cover.png "The \\"title\\"") ![one](<a (1).png>) ![s](../../shared.png)');
    expect(prepared.markdown).toBe(
      '![Cover x](/posts/hello/cover.png "The \\"title\\"") ![one](/posts/hello/a%20%281%29.png) ![s](/shared.png)',
    );
    const result = markdownToBlocks(prepared.markdown, { resolveImage: (src) => src });
    expect(result.report.images.map((image) => [image.src, image.alt])).toEqual([
      ['/posts/hello/cover.png', 'Cover x'],
      ['/posts/hello/a%20%281%29.png', 'one'],
      ['/shared.png', 's'],
    ]);
  });

  it('falls back on the root for a relative source, and leaves missing, remote and absolute ones', () => {
    const body = '![r](shared.png) ![m](missing.png) ![h](https://x.test/a.png) ![a](/shared.png) ![d](data:x)';
    expect(prepare(body).markdown).toBe(body.replace('](shared.png)', '](/shared.png)'));
  });

  it('rewrites reference definitions used by images, and img in raw HTML', () => {
    const prepared = prepare('![ref][pic]\n\n[pic]: cover.png "T"\n\n<p><img alt="x" src="cover.png" width="3"></p>');
    expect(prepared.markdown).toBe(
      '![ref][pic]\n\n[pic]: /posts/hello/cover.png "T"\n\n<p><img alt="x" src="/posts/hello/cover.png" width="3"></p>',
    );
  });

  it('never names a file outside the folder', () => {
    writeFileSync(path.join(path.dirname(root), 'outside.png'), 'png');
    const body = '![o](../../../outside.png)';
    expect(prepare(body).markdown).toBe(body);
  });
});

describe('text', () => {
  it('keeps emoji, right-to-left text and combining marks as they are', () => {
    const body = '# שלום 👋🏽\n\nمرحبا بالعالم — Cafe\u0301 🇫🇷 {{< youtube dQw4w9WgXcQ >}}';
    const prepared = prepare(body, { titleFromHeading: true });
    expect(prepared.title).toBe('שלום 👋🏽');
    expect(markdownToBlocks(prepared.markdown).blocks[0]).toEqual({
      type: 'paragraph',
      text: 'مرحبا بالعالم — Cafe\u0301 🇫🇷',
    });
  });
});
