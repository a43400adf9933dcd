import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, ownerActor, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { insertAuthor, insertCategory } from '../helpers/content.js';
import { createPost, postsApi, type Json } from '../helpers/posts.js';
import { SITEINDEX_XSD, urlsetSchema, xmllint } from '../helpers/sitemap-schemas.js';

const CONTENT = '/api/v1/content';

describeEachDialect('feeds and sitemaps', (dialect) => {
  let ctx: TestContext;
  let workspace: TestWorkspace;
  let adminKey: string;
  let contentKey: string;
  let dir: string;
  let categoryId: string;
  const posts: Json[] = [];

  const read = (pathname: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `${CONTENT}${pathname}${pathname.includes('?') ? '&' : '?'}key=${contentKey}`,
    });

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sitemaps-'));
    ({ workspace, key: adminKey } = await ctx.ownerKey());
    const created = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/content-keys`,
      headers: { 'x-api-key': adminKey },
      payload: { name: 'Site' },
    });
    contentKey = created.json<{ key: string }>().key;
    const db = ctx.runtime.database.db;
    const authorId = await insertAuthor(db, workspace.id, { slug: 'ada', displayName: 'Ada Lovelace' });
    const parent = await insertCategory(db, workspace.id, { slug: 'engines', name: 'Engines' });
    categoryId = await insertCategory(db, workspace.id, { slug: 'analytical', name: 'Analytical', parentId: parent });
    await ctx.runtime.services.dashboard.settings.update(ownerActor(workspace), {
      siteName: 'Engines Weekly',
      siteUrl: 'https://blog.example.com',
      postUrlPattern: '/blog/{slug}',
      pageUrlPattern: '/{slug}',
      authorUrlPattern: '/authors/{slug}',
      categoryUrlPattern: '/c/{path}',
    });
    const api = postsApi(ctx);
    for (let i = 1; i <= 3; i += 1)
      posts.push(
        await createPost(api, adminKey, {
          title: `Note & "number" ${i}`,
          slug: `note-${i}`,
          excerpt: `The **${i}th** note`,
          status: 'published',
          publishedAt: `2026-0${i}-01T00:00:00.000Z`,
          authorId,
          categoryId: i === 3 ? categoryId : null,
          bodyJson: [
            { type: 'heading', level: 2, text: 'Intro' },
            { type: 'paragraph', text: `Body <script>alert(${i})</script> with [a link](/about)` },
          ],
        }),
      );
    await createPost(api, adminKey, { title: 'A draft', slug: 'draft' });
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await ctx?.close();
  });

  describe('feeds', () => {
    it('RSS 2.0 holds the latest published posts with their full text, read by a real feed parser', async () => {
      const answer = await read('/feeds/rss.xml');
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/rss\+xml/);
      expect(answer.headers['surrogate-key']).toContain(`posts-${workspace.id}`);
      const feed = parseFeed(answer.body);
      expect(feed.title).toBe('Engines Weekly');
      expect(feed.items.map((item) => item.title)).toEqual([
        'Note & "number" 3',
        'Note & "number" 2',
        'Note & "number" 1',
      ]);
      const [latest] = feed.items;
      expect(latest!.url).toBe('https://blog.example.com/blog/note-3');
      expect(latest!.description).toBe('The 3th note');
      expect(latest!.content).toContain('<h2 id="intro">Intro</h2>');
      expect(latest!.content).toContain('href="https://blog.example.com/about"');
      // The parser decodes the text; the feed itself carries the body's text escaped, never a script.
      expect(answer.body).toContain('Body &lt;script&gt;alert(3)&lt;/script&gt;');
      expect(answer.body).not.toContain('<script>');
      expect(latest!.authors.map((author) => author.name)).toEqual(['Ada Lovelace']);
    });

    it('Atom and JSON Feed 1.1 say the same, and a feed can be narrowed to a category', async () => {
      const atom = parseFeed((await read('/feeds/atom.xml')).body);
      expect(atom.items.map((item) => item.url)).toEqual(
        [3, 2, 1].map((i) => `https://blog.example.com/blog/note-${i}`),
      );
      const json = (await read('/feeds/feed.json')).json<Json>();
      expect(json.version).toBe('https://jsonfeed.org/version/1.1');
      expect((json.items as Json[]).map((item) => item.url)).toEqual(atom.items.map((item) => item.url));
      expect((json.items as Json[])[0]!.content_html).toContain('<h2 id="intro">');
      const narrowed = parseFeed((await read(`/feeds/rss.xml?categoryId=${categoryId}&limit=5`)).body);
      expect(narrowed.title).toBe('Engines Weekly: Analytical');
      expect(narrowed.items.map((item) => item.title)).toEqual(['Note & "number" 3']);
    });

    it('refuses a limit out of bounds at its parameter, and an unknown category as absent', async () => {
      const tooMany = await read('/feeds/rss.xml?limit=101');
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().details.issues[0].path).toBe('/limit');
      expect((await read('/feeds/rss.xml?categoryId=00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await read('/feeds/rss.json')).statusCode).toBe(400);
    });
  });

  describe('sitemaps', () => {
    it('the index and each sitemap are valid against the sitemaps.org schemas (xmllint)', async () => {
      const index = await read('/sitemap.xml');
      expect(index.statusCode, index.body).toBe(200);
      expect(await xmllint(dir, index.body, SITEINDEX_XSD)).toMatch(/validates/);
      const locs = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
      expect(locs.map((loc) => new URL(loc).pathname)).toEqual([
        `${CONTENT}/sitemaps/posts-1.xml`,
        `${CONTENT}/sitemaps/authors-1.xml`,
        `${CONTENT}/sitemaps/categories-1.xml`,
      ]);
      const schema = urlsetSchema(dir);
      for (const loc of locs) {
        const url = new URL(loc);
        const part = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
        expect(part.statusCode, part.body).toBe(200);
        expect(await xmllint(dir, part.body, schema)).toMatch(/validates/);
      }
      const postsPart = (await read('/sitemaps/posts-1.xml')).body;
      expect([...postsPart.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual(
        [3, 2, 1].map((i) => `https://blog.example.com/blog/note-${i}`),
      );
      expect((await read('/sitemaps/categories-1.xml')).body).toContain(
        'https://blog.example.com/c/engines/analytical',
      );
    });

    it('sees each check fail on a broken document', async () => {
      const broken =
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url></url></urlset>';
      expect(await xmllint(dir, broken, urlsetSchema(dir))).toMatch(/INVALID/);
    });

    it('answers 404 for a part that has nothing and a name that is not one', async () => {
      expect((await read('/sitemaps/posts-2.xml')).statusCode).toBe(404);
      expect((await read('/sitemaps/pages-1.xml')).statusCode).toBe(404);
      expect((await read('/sitemaps/secrets.xml')).statusCode).toBe(404);
    });
  });
});
