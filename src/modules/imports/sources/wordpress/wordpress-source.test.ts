import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportEntry, ImportItem, ImportSource } from '../../import-source.js';
import { openWordPressSource } from './wordpress-source.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../../../../test/fixtures/imports/wordpress/${name}`, import.meta.url));

async function read(source: ImportSource): Promise<ImportItem[]> {
  const items: ImportItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

const resolveAll = { resolveImage: (src: string) => `media:${src}` };

describe('a WXR 1.2 export', () => {
  let source: ImportSource;
  let items: ImportItem[];
  const entry = (id: string) =>
    items.find(
      (item): item is ImportEntry =>
        'sourceId' in item && item.sourceId === id && (item.type === 'post' || item.type === 'page'),
    )!;

  beforeAll(async () => {
    source = await openWordPressSource(fixture('site-1.2.xml'), {});
    items = await read(source);
  });

  it('names the site by its base URL and counts its posts and pages', async () => {
    expect(source.format).toBe('wordpress');
    expect(source.site).toBe('https://example.com');
    expect(await source.entryCount()).toBe(7);
  });

  it('yields authors, categories, tags, then entries, in that order', () => {
    const kinds = items.map((item) => item.type);
    const last = (type: string) => kinds.lastIndexOf(type as ImportItem['type']);
    const first = (type: string) => kinds.indexOf(type as ImportItem['type']);
    expect(last('author')).toBeLessThan(first('category'));
    expect(last('category')).toBeLessThan(first('tag'));
    expect(last('tag')).toBeLessThan(first('post'));
  });

  it('reads authors by login, with their display name (or first and last name) and never an email', () => {
    const authors = items.filter((item) => item.type === 'author');
    expect(authors).toEqual([
      { type: 'author', sourceId: 'admin', slug: 'admin', displayName: 'Site Admin', sameAs: [] },
      { type: 'author', sourceId: 'jane', slug: 'jane', displayName: 'Jane Doe', sameAs: [] },
      { type: 'author', sourceId: 'maryam', slug: 'maryam', displayName: 'مريم العربية', sameAs: [] },
      // A Co-Authors Plus guest author the header does not declare.
      { type: 'author', sourceId: 'guest-writer', slug: 'guest-writer', displayName: 'guest-writer', sameAs: [] },
    ]);
    expect(JSON.stringify(items)).not.toContain('@example.com');
  });

  it('puts a parent category before its child though the file lists the child first, and adds undeclared ones', () => {
    expect(items.filter((item) => item.type === 'category')).toEqual([
      {
        type: 'category',
        sourceId: 'news',
        slug: 'news',
        name: 'News',
        description: 'All the news',
        parentSourceId: null,
      },
      { type: 'category', sourceId: 'local', slug: 'local', name: 'Local News', parentSourceId: 'news' },
      {
        type: 'category',
        sourceId: 'uncategorized',
        slug: 'uncategorized',
        name: 'Uncategorized',
        parentSourceId: null,
      },
      {
        type: 'category',
        sourceId: 'not-in-header',
        slug: 'not-in-header',
        name: 'Not In Header',
        parentSourceId: null,
      },
    ]);
  });

  it('reads tags, an emoji kept, and the tags an entry names that the header does not declare', () => {
    expect(items.filter((item) => item.type === 'tag')).toEqual([
      { type: 'tag', sourceId: 'wordpress', slug: 'wordpress', name: 'WordPress' },
      { type: 'tag', sourceId: 'party', slug: 'party', name: 'Party 🎉' },
      { type: 'tag', sourceId: 'not-declared', slug: 'not-declared', name: 'Not Declared' },
    ]);
  });

  it('maps a published block-editor post: author and co-authors, primary category first, tags, dates, excerpt', () => {
    const post = entry('1');
    expect(post).toMatchObject({
      type: 'post',
      title: 'Hello world!',
      slug: 'hello-world',
      excerpt: 'The first post.',
      status: 'published',
      publishedAt: '2019-05-01T10:00:00.000Z',
      authorSourceIds: ['admin', 'jane', 'guest-writer'],
      categorySourceIds: ['news', 'local'],
      tagSourceIds: ['wordpress', 'not-declared'],
      notes: [],
    });
    expect(post.statusNote).toBeUndefined();
  });

  it('gives the featured image from _thumbnail_id with the attachment alt text and caption', () => {
    expect(entry('1').featuredImage).toEqual({
      key: '2020/01/cover.jpg',
      origin: { kind: 'url', url: 'https://example.com/wp-content/uploads/2020/01/cover.jpg' },
      alt: 'Cover alt',
      caption: 'Cover caption',
    });
  });

  it('reads Yoast SEO with its variables expanded, robots, canonical, Open Graph and X', () => {
    expect(entry('1').seo).toEqual({
      title: 'Hello world! – Example Site',
      description: 'About News: The first post.',
      canonicalUrl: 'https://example.com/canonical/',
      focusKeyword: 'hello world',
      robots: { index: false, follow: false },
      og: {
        title: 'OG Hello world!',
        description: 'OG description',
        image: {
          key: '2020/01/cover.jpg',
          origin: { kind: 'url', url: 'https://www.example.com/wp-content/uploads/2020/01/cover.jpg' },
          alt: 'Cover alt',
          caption: 'Cover caption',
        },
      },
      // The image on another host is no upload of the site's: left out.
      twitter: { title: 'Tweet Hello world!' },
    });
  });

  it('reads Rank Math SEO: focus keyword list, serialized robots, canonical, Facebook title', () => {
    expect(entry('2').seo).toEqual({
      // The combining accent kept as written, not composed.
      title: 'Classic café ☕ — naïve e\u0301 & עברית – Example Site',
      description: 'Rank Math description in Uncategorized, Not In Header',
      canonicalUrl: 'https://example.com/cafe/',
      focusKeyword: 'coffee',
      secondaryKeywords: ['cafe', 'espresso'],
      robots: { index: false, follow: false },
      og: { title: 'FB Classic café ☕ — naïve e\u0301 & עברית' },
    });
    // Rank Math's primary category (term 1) first.
    expect(entry('2').categorySourceIds).toEqual(['uncategorized', 'not-in-header']);
  });

  it('keeps the permalink, /?p=ID and each old slug as old paths', () => {
    expect(entry('1').oldPaths).toEqual(['/2019/05/hello-world/', '/?p=1', '/2019/05/hello/', '/2019/05/first-post/']);
    expect(entry('2').oldPaths).toEqual(['/?p=2']);
  });

  it('maps statuses: draft, pending and scheduled and private as drafts with a note, trash and auto-draft skipped', () => {
    expect(entry('2')).toMatchObject({ status: 'draft', publishedAt: null });
    expect(entry('2').statusNote).toBeUndefined();
    expect(entry('4')).toMatchObject({
      status: 'draft',
      publishedAt: null,
      statusNote: expect.stringContaining('pending review'),
    });
    expect(entry('5')).toMatchObject({
      status: 'draft',
      publishedAt: '2030-01-01T08:00:00.000Z',
      statusNote: expect.stringContaining('scheduled'),
    });
    expect(entry('3')).toMatchObject({ type: 'page', status: 'draft', statusNote: expect.stringContaining('private') });
    const ids = items.flatMap((item) => (item.type === 'post' || item.type === 'page' ? [item.sourceId] : []));
    expect(ids).toEqual(['1', '2', '3', '4', '5', '12']);
  });

  it('notes a password-protected entry', () => {
    expect(entry('5').notes).toEqual([
      { kind: 'unsupported', element: 'post_password', excerpt: 'password-protected on WordPress' },
    ]);
  });

  it('titles an untitled entry with the first words of its body; a page has no categories or tags', () => {
    expect(entry('3')).toMatchObject({
      title: 'مرحبا بكم في صفحتنا التي تتحدث عن الموقع…',
      categorySourceIds: [],
      tagSourceIds: [],
      authorSourceIds: ['maryam'],
    });
  });

  it('yields a bad date as a failure naming the post, and reads on', () => {
    const failures = items.filter((item) => item.type === 'failure');
    expect(failures).toEqual([
      { type: 'failure', item: 'post 11 "Bad date"', message: expect.stringContaining('2019-13-45') },
    ]);
    expect(entry('12').title).toBe('After the failure');
  });

  it('reports what it skipped, the comments and the undeclared names', () => {
    const messages = source.sourceNotes().map((note) => note.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('3 attachments'),
        expect.stringContaining('status "trash"'),
        expect.stringContaining('status "auto-draft"'),
        expect.stringContaining('"nav_menu_item"'),
        expect.stringContaining('"revision"'),
        expect.stringContaining('"product"'),
        expect.stringContaining('1 comment'),
        expect.stringContaining('1 author, 1 category, 1 tag'),
      ]),
    );
  });

  it('converts the block editor body: every core block it maps, FAQ plugins, galleries, embeds', () => {
    const { blocks, report } = entry('1').body.convert(resolveAll);
    expect(blocks).toEqual([
      { type: 'paragraph', text: 'Welcome to **WordPress**. This is your first post.' },
      { type: 'heading', level: 2, text: 'A heading' },
      { type: 'list', style: 'bullet', items: ['One', 'Two'] },
      {
        type: 'image',
        mediaId: 'media:https://example.com/wp-content/uploads/2019/05/photo-300x200.jpg',
        alt: 'A red bicycle',
        caption: 'On the road',
      },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      { type: 'tweet_embed', url: 'https://twitter.com/WordPress/status/1234567890' },
      { type: 'paragraph', text: '[https://open.spotify.com/track/abc](https://open.spotify.com/track/abc)' },
      {
        type: 'cta',
        title: 'Sign up',
        body: '',
        linkUrl: 'https://example.com/signup',
        linkLabel: 'Sign up',
        variant: 'default',
      },
      {
        type: 'faq',
        items: [
          { question: 'What is this?', answer: 'A details block.' },
          { question: 'Is Yoast here?', answer: 'Yes, **it is**.' },
          { question: 'Rank Math too?', answer: 'Also yes.' },
        ],
      },
      {
        type: 'image',
        mediaId: 'media:https://example.com/wp-content/uploads/2019/05/photo.jpg',
        alt: 'A red bicycle',
        caption: "The photo's caption",
      },
      {
        type: 'image',
        mediaId: 'media:https://example.com/wp-content/uploads/2019/06/second.png',
        alt: 'Second image',
      },
      { type: 'paragraph', text: 'Cell A | Cell B' },
      { type: 'paragraph', text: 'Inside an unknown block.' },
      // `]]]]><![CDATA[>` is how an export writes `]]>` inside CDATA: one text.
      { type: 'paragraph', text: 'Text with the end of a section: \\]\\]> kept as one text.' },
    ]);
    expect(report.notes.map((note) => [note.kind, note.element])).toEqual([
      ['approximated', 'wp:embed'],
      ['unsupported', 'wp:acme/counter'],
      ['unsupported', 'wp:latest-posts'],
      ['approximated', 'table'],
    ]);
  });

  it('converts a classic body: wpautop, [caption], [gallery], [embed], [youtube], a bare URL, unknown shortcodes', () => {
    const { blocks, report } = entry('2').body.convert(resolveAll);
    expect(blocks).toEqual([
      { type: 'paragraph', text: 'First paragraph with an emoji 🎉 and שלום.\\\nA second line of it.' },
      {
        type: 'image',
        mediaId: 'media:https://example.com/wp-content/uploads/2019/05/photo-300x200.jpg',
        alt: 'A red bicycle',
        caption: 'The caption, *styled*',
      },
      // `[gallery]` with no ids: the images uploaded to the post.
      {
        type: 'image',
        mediaId: 'media:https://example.com/wp-content/uploads/2019/06/second.png',
        alt: 'Second image',
      },
      { type: 'video_embed', url: 'https://vimeo.com/76979871' },
      { type: 'video_embed', url: 'https://youtu.be/dQw4w9WgXcQ' },
      { type: 'tweet_embed', url: 'https://x.com/WordPress/status/1234567890' },
      {
        type: 'paragraph',
        text: 'A citation \\[sic\\] and a footnote \\[1\\] stay, \\[gallery\\] is written as text.',
      },
      { type: 'quote', text: 'Quoted words', attribution: 'Someone' },
      { type: 'code', language: '', code: 'line one\n\nline two' },
    ]);
    expect(report.notes).toEqual([
      { kind: 'unsupported', element: '[contact-form-7]', excerpt: '[contact-form-7 id="5" title="Contact"]' },
    ]);
  });

  it('leaves images unresolved until the runner has ids, and lists them', () => {
    const { blocks, report } = entry('2').body.convert({});
    expect(blocks.some((block) => block.type === 'image')).toBe(false);
    expect(report.images.map((image) => image.src)).toEqual([
      'https://example.com/wp-content/uploads/2019/05/photo-300x200.jpg',
      'https://example.com/wp-content/uploads/2019/06/second.png',
    ]);
  });

  it('fingerprints the raw content and the attachments a body used', () => {
    const fingerprint = entry('2').body.fingerprint;
    expect(fingerprint).toContain('[gallery]');
    expect(fingerprint).toContain('https://example.com/wp-content/uploads/2019/06/second.png');
    expect(entry('4').body.fingerprint).toBe('Pending text.');
  });

  it('reads the file again on each call of items()', async () => {
    expect((await read(source)).length).toBe(items.length);
  });

  it('locates the images a body names', () => {
    expect(source.locateMedia('https://example.com/wp-content/uploads/2019/05/photo-300x200.jpg')).toEqual({
      key: '2019/05/photo.jpg',
      origin: { kind: 'url', url: 'https://example.com/wp-content/uploads/2019/05/photo.jpg' },
      alt: 'A red bicycle',
      caption: "The photo's caption",
    });
  });
});

describe('a WXR 1.1 export with prefixes of its own', () => {
  it('reads its elements by namespace URI', async () => {
    const source = await openWordPressSource(fixture('site-1.1.xml'), { uploadsDir: null });
    const items = await read(source);
    expect(source.site).toBe('http://old.example.org');
    expect(items.slice(0, 2)).toEqual([
      { type: 'author', sourceId: 'editor', slug: 'editor', displayName: 'The Editor', sameAs: [] },
      { type: 'category', sourceId: 'té', slug: 'té', name: 'Tom & Jerry', parentSourceId: null },
    ]);
    const post = items[2] as ImportEntry;
    expect(post).toMatchObject({
      type: 'post',
      sourceId: '41',
      title: 'Old post',
      excerpt: 'Short excerpt',
      // No GMT date: the local one, read as UTC.
      publishedAt: '2012-03-04T05:06:07.000Z',
      categorySourceIds: ['té'],
      oldPaths: ['/blog/old-post/', '/?p=41'],
    });
    const { blocks, report } = post.body.convert(resolveAll);
    expect(blocks).toEqual([
      { type: 'paragraph', text: 'Line one\\\nLine two' },
      { type: 'image', mediaId: 'media:/wp-content/uploads/2012/03/pic-150x150.gif' },
    ]);
    expect(report.notes).toEqual([]);
    expect(source.locateMedia('/wp-content/uploads/2012/03/pic-150x150.gif')).toEqual({
      key: '2012/03/pic.gif',
      origin: { kind: 'url', url: 'http://old.example.org/wp-content/uploads/2012/03/pic.gif' },
    });
  });
});
