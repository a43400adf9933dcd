import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../errors.js';
import type { ImportEntry, ImportItem, ImportSource } from '../../import-source.js';
import { openMarkdownSource } from './markdown-source.js';
import { MAX_FILE_BYTES } from './read-file.js';

const FIXTURES = fileURLToPath(new URL('../../../../../test/fixtures/imports/markdown/', import.meta.url));

async function readAll(source: ImportSource): Promise<ImportItem[]> {
  const items: ImportItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

const entryOf = (items: ImportItem[], sourceId: string) =>
  items.find(
    (item): item is ImportEntry => (item.type === 'post' || item.type === 'page') && item.sourceId === sourceId,
  )!;

/** A body converted the way the runner does: images resolved through locateMedia, named by their key. */
const convert = (source: ImportSource, entry: ImportEntry) =>
  entry.body.convert({ resolveImage: (src) => source.locateMedia(src)?.key ?? null });

describe('a Hugo folder', () => {
  let source: ImportSource;
  let items: ImportItem[];
  beforeAll(async () => {
    source = await openMarkdownSource(path.join(FIXTURES, 'hugo'));
    items = await readAll(source);
  });

  it('yields authors, categories and tags first, one per name, then the entries in path order', () => {
    expect(items.map((item) => `${item.type} ${'sourceId' in item ? item.sourceId : item.item}`)).toEqual([
      'author grace-hopper',
      'author ada-lovelace',
      'category engineering',
      'tag json',
      'tag front-matter',
      'tag go',
      'tag toml',
      'tag static-sites',
      'page content/pages/about.md',
      'page content/posts/_index.md',
      'failure file content/posts/broken.md',
      'post content/posts/future.md',
      'post content/posts/json-post.md',
      'post content/posts/toml-post.md',
      'post content/posts/untitled-draft.md',
      'post content/posts/hello/index.md',
    ]);
    expect(items[0]).toEqual({
      type: 'author',
      sourceId: 'grace-hopper',
      slug: 'grace-hopper',
      displayName: 'Grace Hopper',
      sameAs: ['https://example.com/grace'],
    });
  });

  it('counts the Markdown files, skipping dot-folders, archetypes and public', async () => {
    expect(await source.entryCount()).toBe(8);
    expect(source.site).toBe('hugo');
    expect(source.format).toBe('markdown');
  });

  it('maps a page bundle: front matter, the folder as slug, its cover and its images', () => {
    const entry = entryOf(items, 'content/posts/hello/index.md');
    const root = realpathSync(path.join(FIXTURES, 'hugo'));
    expect(entry).toMatchObject({
      type: 'post',
      title: 'Hello, Hugo',
      slug: 'hello',
      excerpt: 'A page bundle with its own images.',
      status: 'published',
      publishedAt: '2024-01-02T09:00:00.000Z',
      authorSourceIds: ['ada-lovelace'],
      categorySourceIds: ['engineering'],
      tagSourceIds: ['go', 'static-sites'],
      featuredImage: {
        key: 'content/posts/hello/cover.png',
        origin: { kind: 'file', path: path.join(root, 'content/posts/hello/cover.png') },
        alt: 'The cover',
      },
      seo: { description: 'A page bundle with its own images.' },
      oldPaths: ['/old/hello/', '/2024/hello.html'],
    });
    expect(entry.notes.map((note) => [note.element, note.excerpt])).toEqual([
      ['front-matter', 'keys with no Quire field: weight, toc'],
      ['gist', '{{< gist spf13 7896402 >}}'],
      ['notice', '{{< notice warning >}}'],
    ]);
    const { blocks, report } = convert(source, entry);
    expect(blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'image',
      'paragraph',
      'video_embed',
      'video_embed',
      'tweet_embed',
      'image',
      'paragraph',
      'image',
      'paragraph',
      'paragraph',
      'code',
      'code',
      'paragraph',
      'paragraph',
    ]);
    expect(report.images.map((image) => [image.src, image.mediaId])).toEqual([
      ['/content/posts/hello/my%20photo.png', 'content/posts/hello/my photo.png'],
      ['/content/posts/hello/cover.png', 'content/posts/hello/cover.png'],
      ['/images/logo.png', 'static/images/logo.png'],
      ['https://example.com/far.png', null],
    ]);
    expect(entry.body.fingerprint).toContain('title: "Hello, Hugo"');
  });

  it('maps TOML and JSON front matter', () => {
    expect(entryOf(items, 'content/posts/toml-post.md')).toMatchObject({
      title: 'From TOML',
      slug: 'toml-slug',
      publishedAt: '2023-05-06T07:08:09.000Z',
      tagSourceIds: ['go', 'toml'],
      seo: { canonicalUrl: 'https://example.com/canonical/toml' },
      notes: [{ kind: 'unsupported', element: 'front-matter', excerpt: 'keys with no Quire field: params' }],
    });
    expect(entryOf(items, 'content/posts/json-post.md')).toMatchObject({
      title: 'From JSON {braces}',
      slug: 'json-post',
      publishedAt: '2022-02-03T00:00:00.000Z',
      tagSourceIds: ['json', 'front-matter'],
      excerpt: 'A summary "quoted"',
    });
  });

  it('keeps a # heading in the body when the front matter has a title', () => {
    const entry = entryOf(items, 'content/posts/toml-post.md');
    expect(convert(source, entry).blocks[0]).toEqual({ type: 'heading', level: 2, text: 'Not the title' });
  });

  it('takes the title from the first # heading, and drafts from draft: true', () => {
    const entry = entryOf(items, 'content/posts/untitled-draft.md');
    expect(entry).toMatchObject({
      title: 'The Heading Title',
      status: 'draft',
      authorSourceIds: ['grace-hopper', 'ada-lovelace'],
    });
    expect(convert(source, entry).blocks).toEqual([{ type: 'paragraph', text: 'First paragraph.' }]);
  });

  it('makes a future date a scheduled draft', () => {
    expect(entryOf(items, 'content/posts/future.md')).toMatchObject({
      status: 'draft',
      statusNote: 'scheduled',
      publishedAt: '2999-01-01T00:00:00.000Z',
    });
  });

  it('makes a file under pages, and a section _index.md, a page, reporting its tags', () => {
    expect(entryOf(items, 'content/pages/about.md')).toMatchObject({
      type: 'page',
      tagSourceIds: [],
      notes: [{ kind: 'unsupported', element: 'front-matter', excerpt: 'a page has no categories or tags: ignored' }],
    });
    expect(items.some((item) => item.type === 'tag' && item.sourceId === 'ignored')).toBe(false);
    expect(entryOf(items, 'content/posts/_index.md')).toMatchObject({ type: 'page', slug: 'posts' });
  });

  it('yields malformed front matter as a failure naming the file and the line', () => {
    expect(items.find((item) => item.type === 'failure')).toEqual({
      type: 'failure',
      item: 'file content/posts/broken.md',
      message: expect.stringMatching(/^content\/posts\/broken\.md: front matter, line 4: Flow sequence/),
    });
  });

  it('locates media inside the folder only, never a remote one', () => {
    expect(source.locateMedia('/images/logo.png')?.key).toBe('static/images/logo.png');
    expect(source.locateMedia('/content/posts/hello/my%20photo.png?v=2')?.key).toBe('content/posts/hello/my photo.png');
    expect(source.locateMedia('content/posts/hello/cover.png')?.key).toBe('content/posts/hello/cover.png');
    for (const src of ['https://example.com/far.png', '//cdn.test/x.png', 'data:image/png;base64,AA', '/nope.png'])
      expect(source.locateMedia(src)).toBeNull();
    expect(source.locateMedia('/../jekyll/assets/diagram.png')).toBeNull();
    expect(source.locateMedia('/content')).toBeNull();
  });

  it('reads the same items on a second read', async () => {
    const again = await readAll(source);
    expect(again.map((item) => JSON.stringify({ ...item, body: undefined }))).toEqual(
      items.map((item) => JSON.stringify({ ...item, body: undefined })),
    );
  });
});

describe('a Jekyll folder', () => {
  let source: ImportSource;
  let items: ImportItem[];
  beforeAll(async () => {
    source = await openMarkdownSource(path.join(FIXTURES, 'jekyll'), { site: 'https://jekyll.example' });
    items = await readAll(source);
  });

  it('maps a post: dated name, Jekyll date, permalink, redirect_from, image object', () => {
    expect(source.site).toBe('https://jekyll.example');
    expect(entryOf(items, '_posts/2024-01-02-hello-world.md')).toMatchObject({
      type: 'post',
      title: 'Hello, Jekyll',
      slug: 'hello-world',
      publishedAt: '2024-01-02T09:00:00.000Z',
      excerpt: "Jekyll's excerpt",
      authorSourceIds: ['grace-hopper'],
      categorySourceIds: ['web-development'],
      tagSourceIds: ['liquid', 'jekyll'],
      featuredImage: { key: 'assets/diagram.png', alt: 'A diagram' },
      seo: { description: "Jekyll's excerpt", canonicalUrl: 'https://example.com/blog/hello-world/' },
      oldPaths: ['/2024/hello-world.html', '/blog/hello-world/'],
    });
    expect(items.find((item) => item.type === 'author')).toMatchObject({ sameAs: ['https://x.com/grace'] });
  });

  it('converts Liquid: embeds, raw, highlight; reports include and output', () => {
    const entry = entryOf(items, '_posts/2024-01-02-hello-world.md');
    expect(convert(source, entry).blocks).toEqual([
      { type: 'image', mediaId: 'assets/diagram.png', alt: 'Diagram' },
      { type: 'image', mediaId: 'assets/diagram.png', alt: 'Again' },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'paragraph', text: 'Keep {{ this }} and {% that %} as text.' },
      { type: 'code', language: 'ruby', code: 'puts "hi"' },
      { type: 'paragraph', text: 'The title is .' },
    ]);
    expect(entry.notes.map((note) => note.element)).toEqual(['include', 'liquid-output']);
  });

  it('takes the date from the file name, drafts from _drafts and published: false, pages outside _posts', () => {
    expect(entryOf(items, '_posts/2023-12-31-dated-only.markdown')).toMatchObject({
      slug: 'dated-only',
      publishedAt: '2023-12-31T00:00:00.000Z',
      status: 'published',
    });
    expect(entryOf(items, '_drafts/unfinished.md')).toMatchObject({ type: 'post', status: 'draft' });
    expect(entryOf(items, 'about.md')).toMatchObject({ type: 'page', title: 'About Jekyll', slug: 'about' });
    expect(entryOf(items, '_posts/2024-03-01-bad-date.md')).toMatchObject({
      status: 'draft',
      publishedAt: null,
      notes: [{ kind: 'unsupported', element: 'date', excerpt: 'someday' }],
    });
  });
});

describe('an Astro folder', () => {
  it('maps pubDate, heroImage beside the file, and MDX', async () => {
    const source = await openMarkdownSource(path.join(FIXTURES, 'astro'));
    const items = await readAll(source);
    const entry = entryOf(items, 'src/content/blog/first.mdx');
    expect(entry).toMatchObject({
      title: 'First MDX',
      slug: 'first',
      publishedAt: '2022-07-08T00:00:00.000Z',
      featuredImage: { key: 'src/assets/hero.png' },
      authorSourceIds: ['ada-lovelace'],
    });
    expect(entry.notes.map((note) => note.element)).toEqual(['import', 'Chart', 'expression']);
    expect(convert(source, entry).blocks.map((block) => block.type)).toEqual(['paragraph', 'code', 'paragraph']);
    const second = entryOf(items, 'src/content/blog/second.md');
    expect(convert(source, second).report.images.map((image) => [image.src, image.mediaId])).toEqual([
      ['/src/assets/hero.png', 'src/assets/hero.png'],
      ['./missing.png', null],
    ]);
  });
});

describe('a folder made for the edge cases', () => {
  let root: string;
  let outside: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'quire-md-'));
    outside = mkdtempSync(path.join(tmpdir(), 'quire-md-outside-'));
    writeFileSync(path.join(outside, 'secret.md'), '# Secret');
    writeFileSync(path.join(outside, 'secret.png'), 'png');
    mkdirSync(path.join(root, 'posts'));
    symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'posts/linked.md'));
    symlinkSync(outside, path.join(root, 'linked-folder'));
    symlinkSync(path.join(outside, 'secret.png'), path.join(root, 'posts/secret.png'));
    writeFileSync(path.join(root, 'posts/big.md'), Buffer.alloc(MAX_FILE_BYTES + 1, 'a'));
    writeFileSync(
      path.join(root, 'posts/unicode.md'),
      '\uFEFF---\r\ntitle: "Ca\\u0301fe\\u0000 \\ud800\\u05e9\\u05dc\\u05d5\\u05dd 🎉"\r\ntags: "🎉, 日本語, Café"\r\n---\r\n' +
        'Body with NUL\u0000 and emoji 👩‍💻 ![s](secret.png)\r\n',
    );
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('never follows a symbolic link, says so, and refuses a file over the size limit', async () => {
    const source = await openMarkdownSource(root);
    const items = await readAll(source);
    expect(await source.entryCount()).toBe(2);
    expect(items.find((item) => item.type === 'failure')).toEqual({
      type: 'failure',
      item: 'file posts/big.md',
      message: expect.stringContaining(`posts/big.md is ${MAX_FILE_BYTES + 1} bytes`),
    });
    expect(source.sourceNotes()).toEqual([
      { message: '3 symbolic link(s) skipped, never followed: linked-folder, posts/linked.md, posts/secret.png' },
    ]);
    expect(source.locateMedia('/posts/secret.png')).toBeNull();
  });

  it('drops NUL and lone surrogates, keeps emoji, RTL and combining marks, slugs names with no Latin', async () => {
    const source = await openMarkdownSource(root);
    const items = await readAll(source);
    const entry = entryOf(items, 'posts/unicode.md');
    expect(entry.title).toBe('Ca\u0301fe שלום 🎉');
    const tags = items.filter((item) => item.type === 'tag');
    expect(tags.map((tag) => tag.name)).toEqual(['🎉', '日本語', 'Café']);
    expect(tags.map((tag) => tag.sourceId)).toEqual([
      expect.stringMatching(/^tag-[0-9a-f]{10}$/),
      expect.stringMatching(/^tag-[0-9a-f]{10}$/),
      'cafe',
    ]);
    expect(new Set(tags.map((tag) => tag.sourceId)).size).toBe(3);
    expect(entry.tagSourceIds).toEqual(tags.map((tag) => tag.sourceId));
    const { blocks, report } = entry.body.convert({});
    expect(blocks).toEqual([{ type: 'paragraph', text: 'Body with NUL and emoji 👩‍💻' }]);
    expect(report.images.map((image) => image.src)).toEqual(['secret.png']);
  });

  it('throws a bad request naming a folder it cannot open', async () => {
    const missing = path.join(root, 'missing');
    await expect(openMarkdownSource(missing)).rejects.toThrow(AppError);
    await expect(openMarkdownSource(missing)).rejects.toThrow(`${missing} is not a folder that can be read`);
    await expect(openMarkdownSource(path.join(root, 'posts/unicode.md'))).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
