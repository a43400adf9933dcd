import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  createPost,
  expectError,
  expectIssue,
  getPost,
  heading,
  image,
  ISO,
  listPosts,
  paragraph,
  postsApi,
  storedPost,
  UUID,
  words,
  type Json,
  type Post,
} from '../helpers/posts.js';

/** Fields a client reads but may never write (contract §5); the embedded objects among them. */
const READ_ONLY = [
  'id',
  'workspaceId',
  'bodyText',
  'tocItems',
  'readingTimeMin',
  'viewCount',
  'seoScore',
  'readabilityScore',
  'jsonLd',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'scheduledAt',
  'author',
  'category',
  'featuredMedia',
  'tags',
  'relatedPosts',
];

describeEachDialect('posts: create and edit', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const api = () => postsApi(ctx);
  const db = () => ctx.runtime.database.db;

  describe('create', () => {
    it('answers 201 with a draft and every default; a GET reads the same post', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const response = await api().create(key, { title: 'First steps' });
      expect(response.statusCode).toBe(201);
      const post = response.json() as Post;
      expect(post).toMatchObject({
        workspaceId: workspace.id,
        slug: 'first-steps',
        title: 'First steps',
        excerpt: '',
        bodyJson: [],
        bodyText: '',
        tocItems: [],
        readingTimeMin: 1,
        status: 'draft',
        publishedAt: null,
        scheduledAt: null,
        deletedAt: null,
        isHowTo: false,
        viewCount: 0,
        schemaType: 'BlogPosting',
        structuredBlocks: [],
        tags: [],
        relatedPosts: [],
      });
      expect(post.id).toMatch(UUID);
      expect(post.createdAt).toMatch(ISO);
      expect(post.updatedAt).toBe(post.createdAt);
      expect(await getPost(api(), key, post.id)).toEqual(post);
    });

    it('published sets publishedAt; an explicit publishedAt is kept; scheduled and archived are refused', async () => {
      const { key } = await ctx.ownerKey();
      const published = await createPost(api(), key, { title: 'Out now', status: 'published' });
      expect(published.status).toBe('published');
      expect(published.publishedAt).toMatch(ISO);
      expect(published.publishedAt! >= published.createdAt).toBe(true);

      const dated = await createPost(api(), key, {
        title: 'Back dated',
        status: 'published',
        publishedAt: '2023-03-04T05:06:07+01:00',
      });
      expect(dated.publishedAt).toBe('2023-03-04T04:06:07.000Z');

      expectIssue(await api().create(key, { title: 'Later', status: 'scheduled' }), '/status');
      expectIssue(await api().create(key, { title: 'Old', status: 'archived' }), '/status');
      expectIssue(await api().create(key, { title: 'Odd', status: 'live' }), '/status');
      expect((await listPosts(api(), key)).total).toBe(2);
    });

    it('takes every writable field', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const other = await createPost(api(), key, { title: 'Other' });
      const body = {
        title: 'Everything',
        slug: 'all-of-it',
        excerpt: 'The excerpt',
        bodyJson: [paragraph('Hello')],
        featuredMediaId: await insertMedia(db(), workspace.id),
        authorId: await insertAuthor(db(), workspace.id),
        categoryId: await insertCategory(db(), workspace.id, { slug: 'cat' }),
        status: 'published',
        publishedAt: '2024-01-01T00:00:00.000Z',
        isHowTo: true,
        summaryForAi: 'For machines',
        canonicalUrl: 'https://example.com/everything',
        seo: {
          title: 'SEO title',
          description: 'SEO description',
          robots: { index: false, maxSnippet: 50 },
          secondaryKeywords: ['a', 'b'],
        },
        schemaType: 'TechArticle',
        structuredData: { mentions: ['Kysely'] },
        structuredBlocks: [{ type: 'key_takeaways', items: ['One'] }],
        relatedPostIds: [other.id],
      };
      const post = await createPost(api(), key, body);
      const { relatedPostIds: _related, ...stored } = body;
      expect(post).toMatchObject({ ...stored, bodyJson: [{ type: 'paragraph', text: 'Hello' }] });
      expect(post.relatedPosts.map((r) => r.id)).toEqual([other.id]);
      // The answer is built from the row as inserted; what is stored must read back the same.
      expect(await getPost(api(), key, post.id)).toEqual(post);
    });

    it('a PATCH of every writable field answers exactly what a GET then reads, and so does a PATCH of one', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const [first, second] = [
        await createPost(api(), key, { title: 'First' }),
        await createPost(api(), key, { title: 'Second' }),
      ];
      const post = await createPost(api(), key, {
        title: 'Plain',
        bodyJson: [paragraph('Old body')],
        relatedPostIds: [first.id],
      });
      const media = await insertMedia(db(), workspace.id);
      const everything = await api().patch(key, post.id, {
        title: '  Everything changed  ',
        slug: 'changed-slug',
        excerpt: 'A new excerpt',
        bodyJson: [heading('Part one'), paragraph('New body words'), image(media, { alt: 'A picture' })],
        featuredMediaId: media,
        authorId: await insertAuthor(db(), workspace.id),
        categoryId: await insertCategory(db(), workspace.id, { slug: 'changed' }),
        status: 'published',
        publishedAt: '2024-02-03T04:05:06.000Z',
        isHowTo: true,
        summaryForAi: 'For machines',
        canonicalUrl: 'https://example.com/changed',
        seo: { title: 'SEO title', focusKeyword: 'changed' },
        schemaType: 'TechArticle',
        structuredData: { mentions: ['Kysely'] },
        structuredBlocks: [{ type: 'key_takeaways', items: ['One'] }, heading('Structured part')],
        relatedPostIds: [second.id, first.id],
      });
      expect(everything.statusCode, everything.body).toBe(200);
      const answered = everything.json() as Post;
      expect(answered).toMatchObject({
        title: 'Everything changed',
        slug: 'changed-slug',
        bodyText: expect.stringContaining('New body words'),
      });
      expect(answered.relatedPosts.map((r) => r.id)).toEqual([second.id, first.id]);
      expect(await getPost(api(), key, post.id)).toEqual(answered);

      const isHowToOff = await api().patch(key, post.id, { isHowTo: false });
      expect(isHowToOff.json()).toMatchObject({ isHowTo: false, title: 'Everything changed' });
      expect(await getPost(api(), key, post.id)).toEqual(isHowToOff.json());
    });

    it('refuses a missing, blank or overlong title, and trims one with spaces around it', async () => {
      const { key } = await ctx.ownerKey();
      expectIssue(await api().create(key, {}), '/title');
      expectIssue(await api().create(key, { title: '' }), '/title');
      expectIssue(await api().create(key, { title: '   ' }), '/title');
      expectIssue(await api().create(key, { title: 'x'.repeat(301) }), '/title');
      expectIssue(await api().create(key, { title: 'Fine', excerpt: 'x'.repeat(1001) }), '/excerpt');
      expectIssue(await api().create(key, { title: 7 }), '/title');
      expect((await createPost(api(), key, { title: 'x'.repeat(300) })).title).toHaveLength(300);
      expect((await createPost(api(), key, { title: '  Spaced out  ' })).title).toBe('Spaced out');
    });
  });

  describe('slugs', () => {
    it('derives the slug from the title, appending -2, -3 … until free', async () => {
      const { key } = await ctx.ownerKey();
      const slugs = [];
      for (let i = 0; i < 3; i += 1) slugs.push((await createPost(api(), key, { title: 'Hello, World!' })).slug);
      expect(slugs).toEqual(['hello-world', 'hello-world-2', 'hello-world-3']);
      expect((await createPost(api(), key, { title: 'Café & Crème brûlée!' })).slug).toBe('cafe-creme-brulee');
      expect((await createPost(api(), key, { title: '日本語' })).slug).toBe('post');
      // A title that is itself a UUID must not give a slug that reads as an id.
      const uuidTitled = await createPost(api(), key, { title: crypto.randomUUID() });
      expect(uuidTitled.slug).not.toMatch(UUID);
      expect((await getPost(api(), key, uuidTitled.slug)).id).toBe(uuidTitled.id);
    });

    it('another workspace’s slugs are no obstacle', async () => {
      const first = await ctx.ownerKey();
      const second = await ctx.ownerKey();
      expect((await createPost(api(), first.key, { title: 'Same title' })).slug).toBe('same-title');
      expect((await createPost(api(), second.key, { title: 'Same title' })).slug).toBe('same-title');
      expect((await createPost(api(), second.key, { title: 'Other', slug: 'same-title-2' })).slug).toBe('same-title-2');
    });

    it('an explicit slug already taken is a 409 on create and on edit; keeping one’s own slug is fine', async () => {
      const { key } = await ctx.ownerKey();
      const first = await createPost(api(), key, { title: 'One', slug: 'taken' });
      const second = await createPost(api(), key, { title: 'Two' });
      const conflict = expectError(await api().create(key, { title: 'Three', slug: 'taken' }), 409, 'CONFLICT');
      expect(conflict.message).toMatch(/taken/);
      expectError(await api().patch(key, second.id, { slug: 'taken', title: 'Changed' }), 409, 'CONFLICT');
      expect(await getPost(api(), key, second.id)).toEqual(second);
      expect((await api().patch(key, first.id, { slug: 'taken' })).statusCode).toBe(200);
      const moved = await api().patch(key, second.slug, { slug: 'fresh-slug' });
      expect(moved.json()).toMatchObject({ id: second.id, slug: 'fresh-slug' });
      expect((await getPost(api(), key, 'fresh-slug')).id).toBe(second.id);
      expectError(await api().get(key, 'two'), 404, 'NOT_FOUND');
      expect(await listPosts(api(), key).then((page) => page.total)).toBe(2);
    });

    it('refuses a malformed or UUID-shaped slug', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Keeps its slug' });
      for (const slug of [
        'Hello World',
        'UPPER',
        '-lead',
        'trail-',
        'a--b',
        'dot.ted',
        '',
        'x'.repeat(201),
        crypto.randomUUID(),
      ]) {
        expectIssue(await api().create(key, { title: 'Bad slug', slug }), '/slug');
        expectIssue(await api().patch(key, post.id, { slug }), '/slug');
      }
      expect((await createPost(api(), key, { title: 'Long', slug: 'x'.repeat(200) })).slug).toHaveLength(200);
      expect(await getPost(api(), key, post.id)).toEqual(post);
      expect((await listPosts(api(), key)).total).toBe(2);
    });
  });

  describe('edit', () => {
    it('changes only the fields sent', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const related = await createPost(api(), key, { title: 'Related' });
      const post = await createPost(api(), key, {
        title: 'Stable',
        excerpt: 'Old excerpt',
        bodyJson: [heading('Part'), paragraph('Body words')],
        featuredMediaId: await insertMedia(db(), workspace.id),
        authorId: await insertAuthor(db(), workspace.id),
        categoryId: await insertCategory(db(), workspace.id, { slug: 'kept' }),
        isHowTo: true,
        summaryForAi: 'Summary',
        canonicalUrl: 'https://example.com/stable',
        seo: { title: 'Kept SEO' },
        structuredData: { about: 'things' },
        structuredBlocks: [paragraph('structured')],
        relatedPostIds: [related.id],
      });
      const response = await api().patch(key, post.id, { excerpt: 'New excerpt' });
      expect(response.statusCode).toBe(200);
      const edited = response.json() as Post;
      expect(edited).toEqual({ ...post, excerpt: 'New excerpt', updatedAt: edited.updatedAt, jsonLd: edited.jsonLd });
      expect(edited.updatedAt >= post.updatedAt).toBe(true);
      expect(await getPost(api(), key, post.id)).toEqual(edited);

      const retitled = await api().patch(key, post.slug, { title: 'Renamed' });
      // The slug stays put when the title changes: links to the post keep working.
      expect(retitled.json()).toMatchObject({
        title: 'Renamed',
        slug: 'stable',
        excerpt: 'New excerpt',
        bodyText: post.bodyText,
      });
    });

    it('null clears a relation, and relatedPostIds replaces the list in the order given', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const [a, b, c] = [
        await createPost(api(), key, { title: 'A' }),
        await createPost(api(), key, { title: 'B' }),
        await createPost(api(), key, { title: 'C' }),
      ];
      const post = await createPost(api(), key, {
        title: 'Linked',
        featuredMediaId: await insertMedia(db(), workspace.id),
        authorId: await insertAuthor(db(), workspace.id),
        categoryId: await insertCategory(db(), workspace.id, { slug: 'gone' }),
        seo: { title: 'x' },
        structuredData: { a: 1 },
        summaryForAi: 'y',
        canonicalUrl: 'https://example.com/x',
        relatedPostIds: [a.id, b.id],
      });
      const reordered = await api().patch(key, post.id, { relatedPostIds: [c.id, a.id, b.id] });
      expect((reordered.json() as Post).relatedPosts.map((r) => r.title)).toEqual(['C', 'A', 'B']);
      const cleared = await api().patch(key, post.id, {
        featuredMediaId: null,
        authorId: null,
        categoryId: null,
        seo: null,
        structuredData: null,
        summaryForAi: null,
        canonicalUrl: null,
        relatedPostIds: [],
      });
      expect(cleared.json()).toMatchObject({
        featuredMediaId: null,
        featuredMedia: null,
        authorId: null,
        author: null,
        categoryId: null,
        category: null,
        seo: null,
        structuredData: null,
        summaryForAi: null,
        canonicalUrl: null,
        relatedPosts: [],
      });
      expectIssue(await api().patch(key, post.id, { relatedPostIds: [a.id, a.id] }), '/relatedPostIds');
      expectIssue(await api().patch(key, post.id, { relatedPostIds: [post.id] }), '/relatedPostIds/0');
    });

    it('a new body re-derives bodyText, tocItems and readingTimeMin, and a GET shows them', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Timing', bodyJson: [paragraph(words(230))] });
      expect(post.readingTimeMin).toBe(1);
      const cases: Array<[number, number]> = [
        [231, 2],
        [460, 2],
        [461, 3],
        [0, 1],
      ];
      for (const [count, minutes] of cases) {
        const edited = await api().patch(key, post.id, {
          bodyJson: count === 0 ? [] : [paragraph(words(count - 1)), paragraph('last')],
        });
        expect((edited.json() as Post).readingTimeMin, `${count} words`).toBe(minutes);
      }

      const body = [
        heading('Overview'),
        paragraph('First **bold** paragraph.'),
        { type: 'list', style: 'bullet', items: ['one', 'two'] },
        { type: 'code', language: 'ts', code: 'const hidden = 1;' },
        { type: 'quote', text: 'A quote', attribution: 'Someone' },
        { type: 'divider' },
        { type: 'callout', variant: 'info', title: 'Note', body: 'Callout body' },
        image(await insertMedia(db(), post.workspaceId), { alt: 'alt is not text', caption: 'Caption text' }),
        { type: 'video_embed', url: 'https://video.example.com/v', title: 'Video title' },
        { type: 'tweet_embed', url: 'https://x.example.com/t' },
        {
          type: 'faq',
          items: [
            { question: 'Q1?', answer: 'A1.' },
            { question: 'Q2?', answer: 'A2.' },
          ],
        },
        { type: 'cta', title: 'Act', body: 'Now', linkUrl: 'https://example.com', linkLabel: 'Go', variant: 'default' },
        heading('Takeaways', 3),
        { type: 'key_takeaways', items: ['Less', 'More'] },
      ];
      const edited = (await api().patch(key, post.id, { bodyJson: body })).json() as Post;
      expect(edited.bodyText).toBe(
        [
          'Overview',
          'First **bold** paragraph.',
          'one\ntwo',
          'A quote\nSomeone',
          'Note\nCallout body',
          'Caption text',
          'Video title',
          'Q1?\nA1.\nQ2?\nA2.',
          'Act\nNow\nGo',
          'Takeaways',
          'Less\nMore',
        ].join('\n\n'),
      );
      expect(edited.tocItems).toEqual([
        { level: 2, text: 'Overview', id: 'overview' },
        { level: 3, text: 'Takeaways', id: 'takeaways' },
      ]);
      expect(edited.readingTimeMin).toBe(1);
      expect(await getPost(api(), key, post.id)).toEqual(edited);
    });

    it('derives missing heading ids in kebab case with -1, -2 suffixes, and stores them', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, {
        title: 'Headings',
        bodyJson: [
          heading('Intro'),
          heading('Explicit', 3, 'intro-1'),
          heading('Intro'),
          heading('Café & Crème brûlée!', 4),
          heading('!!!'),
          heading('Setup'),
          heading('Later explicit', 2, 'setup'),
        ],
      });
      const expectedIds = ['intro', 'intro-1', 'intro-2', 'cafe-creme-brulee', 'section', 'setup-1', 'setup'];
      expect(post.bodyJson.map((block) => (block as { id: string }).id)).toEqual(expectedIds);
      expect(post.tocItems.map((item) => item.id)).toEqual(expectedIds);
      expect(post.tocItems.map((item) => item.level)).toEqual([2, 3, 2, 4, 2, 2, 2]);
      const stored = JSON.parse((await storedPost(db(), post.id)).body_json) as Array<{ id: string }>;
      expect(stored.map((block) => block.id)).toEqual(expectedIds);
      expect((await getPost(api(), key, post.id)).bodyJson).toEqual(post.bodyJson);

      expectIssue(
        await api().patch(key, post.id, {
          bodyJson: [heading('A', 2, 'same'), paragraph('x'), heading('B', 2, 'same')],
        }),
        '/bodyJson/2/id',
      );
      expectIssue(await api().patch(key, post.id, { bodyJson: [heading('A', 2, 'has space')] }), '/bodyJson/0/id');
      expectIssue(
        await api().patch(key, post.id, { structuredBlocks: [heading('A', 2, 'dup'), heading('B', 2, 'dup')] }),
        '/structuredBlocks/1/id',
      );
      expect((await getPost(api(), key, post.id)).bodyJson).toEqual(post.bodyJson);
    });

    it('GET → edit → PATCH works with image urls in the request, and the url is never stored', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const [first, second] = [await insertMedia(db(), workspace.id), await insertMedia(db(), workspace.id)];
      const post = await createPost(api(), key, {
        title: 'Round trip',
        bodyJson: [heading('Photos'), image(first, { alt: 'First' }), paragraph('Before')],
        structuredBlocks: [image(second)],
      });
      const read = await getPost(api(), key, post.id);
      expect(read.bodyJson[1]).toMatchObject({ url: expect.stringContaining(first) });
      const bodyJson = read.bodyJson.map((block) => (block.type === 'paragraph' ? { ...block, text: 'After' } : block));
      const response = await api().patch(key, post.id, { bodyJson, structuredBlocks: read.structuredBlocks });
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as Post).bodyJson).toEqual(bodyJson);
      expect((response.json() as Post).structuredBlocks).toEqual(read.structuredBlocks);

      // A url sent by the client is dropped, whatever it says; the read form comes from the media row.
      const spoofed = await api().patch(key, post.id, {
        bodyJson: [image(first, { url: 'https://evil.example.com/x.png' })],
      });
      const readImage = read.bodyJson[1] as { url: string; srcset: unknown };
      expect((spoofed.json() as Post).bodyJson[0]).toMatchObject({
        type: 'image',
        mediaId: first,
        url: readImage.url,
        srcset: readImage.srcset,
      });
      const stored = await storedPost(db(), post.id);
      expect(stored.body_json).not.toMatch(/url/);
      expect(stored.structured_blocks).not.toMatch(/url/);
    });
  });

  describe('validation', () => {
    it('refuses unknown and read-only fields by name, on create and on edit, and writes nothing', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Untouched' });
      for (const field of ['colour', 'relatedPosts', 'body', ...READ_ONLY]) {
        const value = field.endsWith('Id') || field === 'id' ? post.id : field === 'tags' ? [] : 'x';
        const created = expectIssue(await api().create(key, { title: 'Nope', [field]: value }), `/${field}`);
        expect(created.message).toContain(field);
        const patched = expectIssue(await api().patch(key, post.id, { title: 'Changed', [field]: value }), `/${field}`);
        expect(patched.message).toContain(field);
      }
      expectIssue(await api().patch(key, post.id, { seo: { title: 'ok', keywords: ['no'] } }), '/seo/keywords');
      expectIssue(
        await api().patch(key, post.id, { bodyJson: [{ type: 'paragraph', text: 'x', bold: true }] }),
        '/bodyJson/0/bold',
      );
      expectIssue(
        await api().patch(key, post.id, { bodyJson: [{ type: 'heading', level: 2, text: 'x', url: 'u' }] }),
        '/bodyJson/0/url',
      );
      expect(await getPost(api(), key, post.id)).toEqual(post);
      expect((await listPosts(api(), key)).total).toBe(1);
    });

    it('points block violations at the block and field that broke a rule', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Blocks' });
      const seventeen = Array.from({ length: 17 }, (_, i) => paragraph(`p${i}`));
      const cases: Array<[unknown[], string]> = [
        [[...seventeen, { type: 'faq', items: [] }], '/bodyJson/17/items'],
        [
          [{ type: 'faq', items: Array.from({ length: 51 }, () => ({ question: 'q', answer: 'a' })) }],
          '/bodyJson/0/items',
        ],
        [[{ type: 'faq', items: [{ question: 'q' }] }], '/bodyJson/0/items/0/answer'],
        [[{ type: 'key_takeaways', items: Array.from({ length: 11 }, () => 'x') }], '/bodyJson/0/items'],
        [[{ type: 'key_takeaways', items: [] }], '/bodyJson/0/items'],
        [[paragraph('x'.repeat(10_001))], '/bodyJson/0/text'],
        [[paragraph('ok'), { type: 'table' }], '/bodyJson/1/type'],
        [[{ text: 'no type' }], '/bodyJson/0/type'],
        [[heading('Deep', 5)], '/bodyJson/0/level'],
        [[image('not-a-uuid')], '/bodyJson/0/mediaId'],
        [[{ type: 'list', style: 'dashed', items: [] }], '/bodyJson/0/style'],
        [[{ type: 'callout', variant: 'tip', body: 'x' }], '/bodyJson/0/variant'],
        [[{ type: 'video_embed', url: 'not a url' }], '/bodyJson/0/url'],
        [[{ type: 'cta', title: 't', body: 'b', linkUrl: 'https://e.com', linkLabel: 'l' }], '/bodyJson/0/variant'],
        [[paragraph('fine'), 'just a string'], '/bodyJson/1'],
        [Array.from({ length: 1001 }, () => ({ type: 'divider' })), '/bodyJson'],
      ];
      for (const [bodyJson, path] of cases) {
        expectIssue(await api().patch(key, post.id, { bodyJson }), path);
        expectIssue(await api().create(key, { title: 'Refused', bodyJson }), path);
      }
      expectIssue(await api().patch(key, post.id, { bodyJson: { type: 'paragraph' } }), '/bodyJson');
      expectIssue(
        await api().patch(key, post.id, { structuredBlocks: [paragraph('a'), { type: 'faq', items: [] }] }),
        '/structuredBlocks/1/items',
      );
      expect(await getPost(api(), key, post.id)).toEqual(post);
      expect((await listPosts(api(), key)).total).toBe(1);

      const atLimits = [
        paragraph('x'.repeat(10_000)),
        { type: 'faq', items: Array.from({ length: 50 }, () => ({ question: 'q', answer: 'a' })) },
      ];
      expect((await api().patch(key, post.id, { bodyJson: atLimits })).statusCode).toBe(200);
      expect(
        (await api().patch(key, post.id, { bodyJson: Array.from({ length: 1000 }, () => ({ type: 'divider' })) }))
          .statusCode,
      ).toBe(200);
    });

    it('refuses malformed values of the other writable fields', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Fields' });
      const cases: Array<[Json, string]> = [
        [{ isHowTo: 'true' }, '/isHowTo'],
        [{ canonicalUrl: 'not a url' }, '/canonicalUrl'],
        [{ publishedAt: '2024-01-01' }, '/publishedAt'],
        [{ featuredMediaId: 'abc' }, '/featuredMediaId'],
        [{ schemaType: 'lowercase' }, '/schemaType'],
        [{ structuredData: ['array'] }, '/structuredData'],
        [{ seo: { robots: { index: 'yes' } } }, '/seo/robots/index'],
        [{ seo: { title: 'x'.repeat(301) } }, '/seo/title'],
        [{ relatedPostIds: 'one' }, '/relatedPostIds'],
      ];
      for (const [body, path] of cases) expectIssue(await api().patch(key, post.id, body), path);
      expectIssue(await api().patch(key, post.id, []), '');
      expect(await getPost(api(), key, post.id)).toEqual(post);
    });
  });
});
