import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import type { ImportEntry, ImportItem, ImportSource } from '../../import-source.js';
import { openGhostSource } from './ghost-source.js';

const FIXTURES = fileURLToPath(new URL('../../../../../test/fixtures/imports/ghost/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);

let workDir: string;
const opened: ImportSource[] = [];

beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'quire-ghost-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((source) => source.close()));
  await rm(workDir, { recursive: true, force: true });
});

async function open(file: string, options: { primaryTagAsCategory?: boolean; redirectsFile?: string | null } = {}) {
  const source = await openGhostSource(file, { workDir, ...options });
  opened.push(source);
  return source;
}

async function itemsOf(source: ImportSource): Promise<ImportItem[]> {
  const items: ImportItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

const entry = (items: ImportItem[], id: string) =>
  items.find((item): item is ImportEntry => (item.type === 'post' || item.type === 'page') && item.sourceId === id)!;

describe('openGhostSource: a Ghost 5 JSON export', () => {
  it('yields authors, tags, then posts and pages, in order, with the site from the settings', async () => {
    const source = await open(fixture('ghost5-export.json'));
    expect(source.format).toBe('ghost');
    expect(source.site).toBe('https://bakery.example.com');
    expect(await source.entryCount()).toBe(10);
    const items = await itemsOf(source);
    expect(items.map((item) => `${item.type}:${'sourceId' in item ? item.sourceId : item.item}`)).toEqual([
      'author:u1',
      'author:u2',
      'tag:t1',
      'tag:t2',
      'post:p1',
      'page:p2',
      'post:p3',
      'post:p4',
      'post:p5',
      'post:p6',
      'post:p7',
      'post:p8',
      'failure:post p9 "Broken body"',
      'post:p10',
    ]);
    expect(source.sourceNotes()).toEqual([{ message: '2 internal tags (#-named or internal) skipped' }]);
  });

  it('reads an author’s public profile, never the email or the password', async () => {
    const items = await itemsOf(await open(fixture('ghost5-export.json')));
    const ana = items[0]!;
    expect(ana).toEqual({
      type: 'author',
      sourceId: 'u1',
      slug: 'ana',
      displayName: 'Ana Baker',
      bio: 'Bakes bread.',
      sameAs: [
        'https://ana.example.com/',
        'https://www.facebook.com/anabaker',
        'https://x.com/anabakes',
        'https://www.threads.net/@ana.threads',
        'https://bsky.app/profile/ana.bsky.social',
        'https://mastodon.social/@ana',
        'https://www.tiktok.com/@anatok',
        'https://www.youtube.com/@anatube',
        'https://www.instagram.com/ana.gram',
        'https://www.linkedin.com/in/ana-baker',
      ],
    });
    const text = JSON.stringify(items.filter((item) => item.type === 'author'));
    expect(text).not.toMatch(/example\.com"|@example|secrethash|password|email/);
  });

  it('maps a post’s fields: slug, excerpt, dates, authors by order, public tags, image, SEO, old path', async () => {
    const post = entry(await itemsOf(await open(fixture('ghost5-export.json'))), 'p1');
    expect(post).toMatchObject({
      type: 'post',
      title: 'Sourdough, start to finish',
      slug: 'sourdough',
      excerpt: 'All about *bread*',
      status: 'published',
      publishedAt: '2024-01-02T10:00:00.000Z',
      authorSourceIds: ['u1', 'u2'],
      categorySourceIds: [],
      tagSourceIds: ['t1', 't2'],
      oldPaths: ['/sourdough/'],
      featuredImage: {
        key: '2024/01/cover.jpg',
        origin: { kind: 'url', url: 'https://bakery.example.com/content/images/2024/01/cover.jpg' },
        alt: 'A cover',
        caption: 'Photo by Bo',
      },
      seo: {
        title: 'Meta title',
        description: 'Meta description',
        canonicalUrl: 'https://example.com/original',
        og: {
          title: 'OG title',
          description: 'OG description',
          image: { key: '2024/01/og.jpg', origin: { kind: 'url' } },
        },
        twitter: { title: 'Tw title', image: null },
      },
    });
    expect(post.statusNote).toBeUndefined();
    // The Unsplash image is on another host: not fetched, and said so.
    expect(post.notes).toEqual([
      { kind: 'unresolved-image', element: 'twitter_image', excerpt: 'https://images.unsplash.com/photo-1?w=2000' },
    ]);
  });

  it('maps statuses: draft, scheduled and sent stay drafts with a note, members-only stays published', async () => {
    const items = await itemsOf(await open(fixture('ghost5-export.json')));
    expect(entry(items, 'p3')).toMatchObject({ status: 'draft', publishedAt: null, tagSourceIds: ['t2'] });
    expect(entry(items, 'p3').statusNote).toBeUndefined();
    expect(entry(items, 'p4')).toMatchObject({
      status: 'draft',
      statusNote: 'was scheduled in Ghost for 2030-06-01T08:00:00.000Z',
    });
    expect(entry(items, 'p5')).toMatchObject({ status: 'draft', statusNote: expect.stringMatching(/newsletter/) });
    expect(entry(items, 'p6')).toMatchObject({
      status: 'published',
      statusNote: 'was members-only in Ghost (visibility paid)',
    });
  });

  it('reads a page, without categories or tags', async () => {
    const page = entry(await itemsOf(await open(fixture('ghost5-export.json'))), 'p2');
    expect(page).toMatchObject({ type: 'page', slug: 'about', tagSourceIds: [], categorySourceIds: [] });
    expect(page.body.convert({}).blocks).toEqual([
      { type: 'paragraph', text: 'About this bakery.' },
      {
        type: 'cta',
        title: 'Visit',
        body: '',
        linkUrl: 'https://example.com/visit',
        linkLabel: 'Visit',
        variant: 'default',
      },
    ]);
  });

  it('converts a Lexical body, resolving its images through the callback', async () => {
    const post = entry(await itemsOf(await open(fixture('ghost5-export.json'))), 'p1');
    const first = post.body.convert({});
    expect(first.report.images.map((image) => image.src)).toEqual([
      '__GHOST_URL__/content/images/size/w600/2024/01/loaf.jpg',
    ]);
    const { blocks, report } = post.body.convert({ resolveImage: (src) => (src.includes('loaf') ? 'media-1' : null) });
    expect(blocks).toEqual([
      { type: 'heading', level: 2, text: 'Why sourdough' },
      {
        type: 'paragraph',
        text: 'Flour, **water** and *time*, not ~~yeast~~ or haste. Use `a*b` and [a guide](https://example.com/bread)\\\nThen \\[wait\\] \\*patiently\\*',
      },
      { type: 'heading', level: 3, text: 'Feeding' },
      { type: 'heading', level: 4, text: 'A footnote heading' },
      { type: 'quote', text: 'Bread is life' },
      { type: 'quote', text: "An aside, Ghost's other quote" },
      { type: 'list', style: 'bullet', items: ['Rye', 'Wheat', 'Spelt'] },
      { type: 'divider' },
      { type: 'image', mediaId: 'media-1', alt: 'A loaf', caption: 'Baked by [Ana](https://example.com/ana)' },
      { type: 'code', language: 'javascript', code: 'const rise = hours < 12;' },
      { type: 'callout', variant: 'warning', body: '💡 Keep it **warm**' },
      { type: 'faq', items: [{ question: 'How long?', answer: 'Twelve hours.' }] },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Shaping a loaf' },
      { type: 'paragraph', text: '[Ghost docs](https://ghost.org/docs/): All about Ghost' },
      { type: 'paragraph', text: 'مرحبا بالعالم — עברית — e\u0301 — 🍞👩🏽‍🍳 — nul:: lone::' },
    ]);
    expect(report.notes.map((note) => `${note.kind} ${note.element}`)).toEqual([
      'approximated h1',
      'approximated underline',
      'approximated h6',
      'approximated ul',
      'approximated bookmark',
      'unsupported signup',
    ]);
    // The same options, the same result.
    expect(post.body.convert({ resolveImage: () => 'media-1' })).toEqual(
      post.body.convert({ resolveImage: () => 'media-1' }),
    );
    expect(post.body.fingerprint).toMatch(/^\{"root"/);
  });

  it('converts a Mobiledoc body through Lexical, and an HTML-only body', async () => {
    const items = await itemsOf(await open(fixture('ghost5-export.json')));
    const mobiledoc = entry(items, 'p7').body.convert({ resolveImage: () => 'media-2' });
    expect(mobiledoc.blocks).toEqual([
      { type: 'heading', level: 2, text: 'Old heading' },
      { type: 'paragraph', text: '**Bold** old text' },
      { type: 'image', mediaId: 'media-2', alt: 'Old' },
    ]);
    expect(entry(items, 'p8').body.convert({}).blocks).toEqual([{ type: 'paragraph', text: 'Only **HTML** here.' }]);
  });

  it('names a post whose body cannot be parsed, and goes on', async () => {
    const items = await itemsOf(await open(fixture('ghost5-export.json')));
    expect(items.find((item) => item.type === 'failure')).toEqual({
      type: 'failure',
      item: 'post p9 "Broken body"',
      message: expect.stringMatching(/^its Lexical body is not JSON/) as string,
    });
  });

  it('drops NUL and lone surrogates from text, keeps emoji, RTL and combining marks', async () => {
    const post = entry(await itemsOf(await open(fixture('ghost5-export.json'))), 'p10');
    expect(post.title).toBe('Émojis 🍞 and עברית  ');
  });

  it('makes each post’s primary tag its category when asked, and yields those tags as categories', async () => {
    const items = await itemsOf(await open(fixture('ghost5-export.json'), { primaryTagAsCategory: true }));
    expect(items.filter((item) => item.type === 'category')).toEqual([
      {
        type: 'category',
        sourceId: 't1',
        slug: 'bread',
        name: 'Bread',
        description: 'Loaves of all kinds',
        parentSourceId: null,
      },
      { type: 'category', sourceId: 't2', slug: 'baking', name: 'Baking', description: null, parentSourceId: null },
    ]);
    const firstTag = items.findIndex((item) => item.type === 'tag');
    expect(items.findIndex((item) => item.type === 'category')).toBeLessThan(firstTag);
    // The internal #hidden tag comes first in Ghost's order; the primary tag is the first public one.
    expect(entry(items, 'p1')).toMatchObject({ categorySourceIds: ['t1'], tagSourceIds: ['t2'] });
    expect(entry(items, 'p3')).toMatchObject({ categorySourceIds: ['t2'], tagSourceIds: [] });
  });

  it('reads the redirects file, keeping exact paths and reporting patterns', async () => {
    const source = await open(fixture('ghost5-export.json'), { redirectsFile: fixture('redirects.json') });
    const redirects = (await itemsOf(source)).filter((item) => item.type === 'redirect');
    expect(redirects).toEqual([
      {
        type: 'redirect',
        sourceId: '^/old-sourdough/$',
        fromPath: '/old-sourdough/',
        toPath: '/sourdough/',
        statusCode: 301,
      },
      { type: 'redirect', sourceId: '/feed.xml', fromPath: '/feed.xml', toPath: '/rss/', statusCode: 302 },
      { type: 'redirect', sourceId: '^\\/blog\\/rye\\/?$', fromPath: '/blog/rye/', toPath: '/rye/', statusCode: 301 },
    ]);
    expect(source.sourceNotes()).toContainEqual({
      message: 'redirect from the pattern ^/tag/(.*)$ skipped: Quire redirects exact paths',
    });
  });

  it('refuses a redirects file of another shape, naming it', async () => {
    await expect(
      open(fixture('ghost5-export.json'), { redirectsFile: fixture('redirects-bad.json') }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: /redirects-bad\.json/,
    });
  });

  it('reads a second time from the start', async () => {
    const source = await open(fixture('ghost5-export.json'));
    expect((await itemsOf(source)).length).toBe((await itemsOf(source)).length);
  });
});

describe('openGhostSource: older and bad exports', () => {
  it('reads the top-level {meta, data} form, `page: true`, the post’s own SEO columns and author_id', async () => {
    const source = await open(fixture('ghost4-top-level.json'));
    expect(source.site).toBe('ghost');
    const items = await itemsOf(source);
    expect(items[0]).toEqual({
      type: 'author',
      sourceId: 'u9',
      slug: 'old',
      displayName: 'Old Author',
      bio: null,
      sameAs: ['https://www.facebook.com/old', 'https://twitter.com/oldauthor'],
    });
    expect(entry(items, 'old1')).toMatchObject({
      type: 'page',
      publishedAt: '2021-03-01T10:00:00.000Z',
      authorSourceIds: ['u9'],
      seo: { title: 'Old meta', og: { title: 'Old og' } },
      featuredImage: null,
    });
    expect(entry(items, 'old2')).toMatchObject({ type: 'post', publishedAt: '2021-03-01T10:00:00.000Z' });
  });

  it.each([
    ['ghost3-export.json', /Ghost 3\.40\.0 export: Ghost 4, 5 and 6 exports are read/],
    ['no-version.json', /no-version\.json names no Ghost version.*Ghost 4, 5 and 6 exports are read/],
    ['malformed-export.txt', /malformed-export\.txt is not a Ghost export that can be read as JSON/],
    ['missing.json', /missing\.json is not a file/],
  ])('refuses %s', async (name, message) => {
    await expect(open(fixture(name))).rejects.toMatchObject({ code: 'BAD_REQUEST', message });
  });

  it('refuses a post body over 10 MB as a failure of that post', async () => {
    const big = JSON.parse(await readFile(fixture('ghost4-top-level.json'), 'utf8')) as {
      data: { posts: Array<Record<string, unknown>> };
    };
    big.data.posts[1]!.html = `<p>${'x'.repeat(10 * 1024 * 1024)}</p>`;
    const file = join(workDir, 'big.json');
    await writeFile(file, JSON.stringify(big));
    const items = await itemsOf(await open(file));
    expect(items.at(-1)).toEqual({ type: 'failure', item: 'post old2 "Old post"', message: 'its html is over 10 MB' });
  });
});

describe('openGhostSource: a Ghost zip', () => {
  async function writeZip(entries: Array<[name: string, data: Buffer | string]>): Promise<string> {
    const zip = new yazl.ZipFile();
    for (const [name, data] of entries) zip.addBuffer(Buffer.from(data), name);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const file = join(workDir, 'export.zip');
    await writeFile(file, Buffer.concat(chunks));
    return file;
  }

  it('unpacks into the work folder, finds images there, and removes them on close', async () => {
    const file = await writeZip([
      ['bakery/export.json', await readFile(fixture('ghost5-export.json'))],
      ['bakery/content/images/2024/01/loaf.jpg', 'jpeg bytes'],
      ['bakery/content/images/2024/01/café 🍰.jpg', 'jpeg bytes'],
    ]);
    const source = await openGhostSource(file, { workDir });
    const unpacked = (await readdir(workDir)).filter((name) => name.startsWith('ghost-'));
    expect(unpacked).toHaveLength(1);
    const loaf = source.locateMedia('__GHOST_URL__/content/images/size/w600/2024/01/loaf.jpg');
    expect(loaf).toEqual({
      key: '2024/01/loaf.jpg',
      origin: { kind: 'file', path: join(workDir, unpacked[0]!, 'bakery/content/images/2024/01/loaf.jpg') },
    });
    expect(
      source.locateMedia('https://bakery.example.com/content/images/2024/01/caf%C3%A9%20%F0%9F%8D%B0.jpg'),
    ).toMatchObject({
      key: '2024/01/café 🍰.jpg',
      origin: { kind: 'file' },
    });
    // Not in the zip: read from the site.
    expect(source.locateMedia('__GHOST_URL__/content/images/2024/01/cover.jpg')?.origin).toEqual({
      kind: 'url',
      url: 'https://bakery.example.com/content/images/2024/01/cover.jpg',
    });
    expect((await itemsOf(source)).length).toBe(14);
    await source.close();
    expect(await readdir(workDir)).toEqual(['export.zip']);
  });

  it('refuses a zip with no export in it, leaving nothing behind', async () => {
    const file = await writeZip([['content/images/a.jpg', 'x']]);
    await expect(openGhostSource(file, { workDir })).rejects.toMatchObject({
      message: /export\.zip holds no Ghost export/,
    });
    expect(await readdir(workDir)).toEqual(['export.zip']);
  });
});
