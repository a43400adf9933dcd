import fs from 'node:fs';
import path from 'node:path';
import { parseFeed } from '@rowanmanning/feed-parser';
import { BLOCK_TYPES, renderBlocks, type Block } from '@quire/blocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITEINDEX_XSD, urlsetSchema, xmllint } from '../helpers/sitemap-schemas.js';
import { axeViolations, fitsWidth, launchBrowser, screenshot, WIDTHS } from '../browser/browser.js';
import { checkSite, distExists, formatSiteReport } from './site-checks.js';
import { startStarter, type Starter } from './starter-fixture.js';

// The API's answers, read as JSON: the assertions say what they expect of each field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Item = Record<string, any>;

/*
 * A site made by `quire site init` from the starter, built against a seeded Quire and served by its own server, as
 * the starter's README has a newcomer do it: every page is there and sound, and it follows Quire's changes.
 */
describe('a site made from the starter [sqlite]', () => {
  let starter: Starter;
  let posts: Item[];
  let fullSync: Record<string, number | boolean>;
  const dist = () => path.join(starter.siteDir, 'dist', 'client');
  const page = async (route: string) => {
    const response = await starter.siteFetch(route);
    return { status: response.status, html: await response.text(), headers: response.headers };
  };
  const published = async () => {
    const all: Item[] = [];
    for (let n = 1; ; n += 1) {
      const answer = await starter.admin<{ data: Item[]; totalPages: number }>(
        'GET',
        `/posts?status=published&orderBy=publishedAt&order=desc&pageSize=100&page=${n}`,
      );
      all.push(...answer.data);
      if (n >= answer.totalPages) return all;
    }
  };

  beforeAll(async () => {
    starter = await startStarter({ posts: 40, name: 'Starter' });
    await starter.admin('POST', '/pages', {
      title: 'About',
      slug: 'about',
      status: 'published',
      bodyJson: [{ type: 'paragraph', text: 'We write about **everything** we build.' }],
    });
    await starter.admin('POST', '/redirects', { fromPath: '/old-about', toPath: '/older-about', statusCode: 301 });
    await starter.admin('POST', '/redirects', { fromPath: '/older-about', toPath: '/about', statusCode: 308 });
    fs.appendFileSync(path.join(starter.siteDir, '.env'), `\nQUIRE_REPORT_KEY=${starter.adminKey}\n`);
    ({ sync: fullSync } = await starter.build());
    await starter.startSite();
    posts = await published();
  }, 240_000);
  afterAll(async () => {
    await starter?.stop();
  });

  it('builds a page for every published post and page, at the paths the site settings give', () => {
    expect(posts.length).toBeGreaterThan(20);
    for (const post of posts)
      expect(fs.existsSync(path.join(dist(), 'blog', post.slug, 'index.html')), post.slug).toBe(true);
    expect(fs.existsSync(path.join(dist(), 'about', 'index.html'))).toBe(true);
    expect(fullSync).toMatchObject({ full: true, changed: true });
  });

  it('builds pages that parse cleanly, link only to what the site serves, and carry valid JSON-LD', async () => {
    const built = distExists(dist());
    // Beside the built pages, the server answers search on demand (preview needs a token no page holds).
    const report = await checkSite(dist(), {
      origin: starter.siteUrl,
      exists: (pathname) => pathname === '/search' || built(pathname),
    });
    expect(report.problems, formatSiteReport(report)).toEqual([]);
    expect(report.pages.length).toBeGreaterThan(posts.length);
  });

  it('renders every block type through the shared renderer, exactly as Quire renders it', async () => {
    const seen = new Set<string>();
    for (const post of posts) {
      const types = (post.bodyJson as Block[]).map((block) => block.type);
      if (types.every((type) => seen.has(type))) continue;
      const { html } = await page(`/blog/${post.slug}`);
      expect(html).toContain(renderBlocks(post.bodyJson as Block[]));
      for (const type of types) seen.add(type);
    }
    expect([...seen].sort()).toEqual([...BLOCK_TYPES].sort());
  });

  it('gives each post its head: canonical, robots, Open Graph, Twitter and Quire’s JSON-LD', async () => {
    const post = posts.find((item) => item.featuredMediaId && item.seo?.description)!;
    const { html } = await page(`/blog/${post.slug}`);
    const canonical = `${starter.siteUrl}/blog/${post.slug}`;
    expect(html).toContain(`<link rel="canonical" href="${canonical}">`);
    expect(html).toMatch(/<meta name="robots" content="index, follow/);
    expect(html).toContain(`<meta property="og:url" content="${canonical}">`);
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/media\//);
    expect(html).toContain('<meta name="twitter:card"');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!;
    expect(JSON.parse(ld)).toEqual(post.jsonLd);
    // The picture at the top loads first, in every format Quire makes, sized for the column.
    expect(html).toMatch(/<div class="post__hero"><figure class="quire-image"><picture><source type="image\/avif"/);
    expect(html).toMatch(/<img src="[^"]+" srcset="[^"]+ 160w, [^"]+ 320w" sizes="\(min-width: 768px\) 768px, 100vw"/);
    expect(html).toContain('fetchpriority="high"');
  });

  it('lists: the home page in pages, the category tree, tags and authors', async () => {
    const pages = Math.ceil(posts.length / 10);
    const home = await page('/');
    expect(home.html).toContain(`Page 1 of ${pages}`);
    expect(home.html).toContain(`href="/page/2"`);
    const last = await page(`/page/${pages}`);
    expect(last.status).toBe(200);
    expect(last.html).toContain('rel="prev"');
    expect((await page(`/page/${pages + 1}`)).status).toBe(404);

    const categories = await starter.admin<{ data: Item[] }>('GET', '/categories?pageSize=100');
    const child = categories.data.find((category) => category.parentId)!;
    const parent = categories.data.find((category) => category.id === child.parentId)!;
    const parentPage = await page(`/topics/${parent.path}`);
    expect(parentPage.status).toBe(200);
    expect(parentPage.html).toContain(`href="/topics/${child.path}"`);
    const childPage = await page(`/topics/${child.path}`);
    expect(childPage.html).toContain(`<a href="/topics/${parent.path}">${parent.name}</a>`);

    const post = posts.find((item) => item.tags?.length > 0)!;
    const tag = await page(`/tags/${post.tags[0].slug}`);
    expect(tag.html).toContain(`href="/blog/${post.slug}"`);
    const author = await page(`/authors/${post.author.slug}`);
    expect(author.html).toContain(post.author.displayName);
    expect(author.html).toContain(`href="/blog/${post.slug}"`);
  });

  it('searches through Quire’s q at request time', async () => {
    const post = posts[0]!;
    const word = (post.title as string).split(/\s+/).find((w) => w.length > 5)!;
    const found = await page(`/search?q=${encodeURIComponent(word)}`);
    expect(found.status).toBe(200);
    expect(found.html).toContain(`href="/blog/${post.slug}"`);
    expect(found.headers.get('cache-control')).toBe('no-store');
    const none = await page('/search?q=zzzqqqxxx');
    expect(none.html).toContain('0 posts');
  });

  it('serves the feeds and sitemaps at its own URLs, naming neither Quire nor the key', async () => {
    for (const file of ['/rss.xml', '/atom.xml', '/feed.json']) {
      const { status, html: text } = await page(file);
      expect(status, file).toBe(200);
      expect(text).not.toContain('quire_content_');
      // Images stay on Quire's media URLs; nothing points at its API.
      expect(text).not.toContain(`${starter.quire.url}/api/`);
      // JSON Feed is read as JSON; RSS and Atom by a feed parser.
      const items: Array<{ url: string | null }> =
        file === '/feed.json' ? (JSON.parse(text) as { items: Array<{ url: string }> }).items : parseFeed(text).items;
      expect(items.length, file).toBe(20);
      expect(items[0]!.url, file).toBe(`${starter.siteUrl}/blog/${posts[0]!.slug}`);
    }
    const index = (await page('/sitemap.xml')).html;
    const scratch = fs.mkdtempSync(path.join(starter.siteDir, '.check-'));
    expect(await xmllint(scratch, index, SITEINDEX_XSD)).toMatch(/validates/);
    const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
    expect(sitemaps).toContain(`${starter.siteUrl}/sitemaps/posts-1.xml`);
    const schema = urlsetSchema(scratch);
    for (const url of sitemaps) {
      expect(url.startsWith(`${starter.siteUrl}/sitemaps/`)).toBe(true);
      const xml = (await page(url.slice(starter.siteUrl.length))).html;
      expect(xml).not.toContain('quire_content_');
      expect(await xmllint(scratch, xml, schema), url).toMatch(/validates/);
      // Every address a sitemap names is a page of this site.
      for (const [, loc] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) {
        expect(loc!.startsWith(starter.siteUrl), loc).toBe(true);
        expect((await starter.siteFetch(loc!.slice(starter.siteUrl.length))).status, loc).toBe(200);
      }
    }
    expect((await page('/robots.txt')).html).toContain(`Sitemap: ${starter.siteUrl}/sitemap.xml`);
  });

  it('applies Quire’s redirects in one hop and reports a path it has nothing for', async () => {
    const moved = await starter.siteFetch('/old-about?ref=x');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/about?ref=x');
    const missing = await starter.siteFetch('/no-such-page', { headers: { referer: `${starter.siteUrl}/about` } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('This page is not here');
    const deadline = Date.now() + 5_000;
    let reports: Item[] = [];
    while (Date.now() < deadline) {
      reports = (await starter.admin<{ data: Item[] }>('GET', '/link-health?q=no-such-page')).data;
      if (reports.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reports).toMatchObject([{ path: '/no-such-page', hitCount: 1 }]);
  });

  it('previews a draft in the site’s own layout with the studio’s link, and says when a link is not valid', async () => {
    const draft = await starter.admin<Item>('POST', '/posts', {
      title: 'A draft nobody has seen',
      status: 'draft',
      bodyJson: [{ type: 'paragraph', text: 'Still being written.' }],
    });
    const { url } = await starter.admin<{ url: string }>('POST', `/posts/${draft.id}/preview`, {});
    expect(url.startsWith(`${starter.siteUrl}/preview?type=post&id=${draft.id}&token=`)).toBe(true);
    const preview = await page(url.slice(starter.siteUrl.length));
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('<h1>A draft nobody has seen</h1>');
    expect(preview.html).toContain('class="masthead"');
    expect(preview.html).toContain('Preview of a draft post');
    expect(preview.headers.get('cache-control')).toBe('no-store');
    expect(preview.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    // Not published, so not on the site.
    expect((await page(`/blog/${draft.slug}`)).status).toBe(404);

    const token = new URL(url).searchParams.get('token')!;
    const forged = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const refused = await page(`/preview?type=post&id=${draft.id}&token=${encodeURIComponent(forged)}`);
    expect(refused.status).toBe(404);
    expect(refused.html).toContain('This preview link has expired');
    expect(refused.html).not.toContain('Still being written');
  });

  it('fits a phone and a wide screen, light and dark, with no serious accessibility fault on any kind of page', async () => {
    const post = posts.find((item) => item.tags?.length > 0 && item.category)!;
    const draft = await starter.admin<Item>('POST', '/posts', {
      title: 'A draft to look at',
      status: 'draft',
      bodyJson: [{ type: 'paragraph', text: 'Still being written, and shown in the site’s own layout.' }],
    });
    const { url: preview } = await starter.admin<{ url: string }>('POST', `/posts/${draft.id}/preview`, {});
    const screens: Array<[string, string]> = [
      ['home', '/'],
      ['home-page-2', '/page/2'],
      ['post', `/blog/${post.slug}`],
      ['page', '/about'],
      ['category', `/topics/${post.category.path}`],
      ['tag', `/tags/${post.tags[0].slug}`],
      ['author', `/authors/${post.author.slug}`],
      ['search', `/search?q=${encodeURIComponent((post.title as string).split(' ')[0]!)}`],
      ['not-found', '/no-such-page-at-all'],
      ['preview', preview.slice(starter.siteUrl.length)],
      ['preview-expired', `/preview?type=post&id=${draft.id}&token=not-a-token`],
    ];
    const browser = await launchBrowser();
    try {
      // Light at both widths; dark at the phone's alone, as its colours do not change with the width.
      const views = [
        ...WIDTHS.map((width) => ({ width, scheme: 'light' as const })),
        { width: 375, scheme: 'dark' as const },
      ];
      for (const { width, scheme } of views) {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
        for (const [name, route] of screens) {
          await page.goto(`${starter.siteUrl}${route}`);
          expect(await axeViolations(page), `${name} at ${width} px, ${scheme}`).toEqual([]);
          expect(await fitsWidth(page), `${name} at ${width} px fits`).toBe(true);
          await screenshot(page, `starter-${name}-${width}${scheme === 'dark' ? '-dark' : ''}`);
        }
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('rebuilds from the change feed: one edit costs a fixed number of requests, and removals take pages away', async () => {
    const [edited, deleted, unpublished] = posts.slice(3, 6) as [Item, Item, Item];
    await starter.admin('PATCH', `/posts/${edited.id}`, { title: 'Edited for the rebuild' });
    const one = await starter.rebuild();
    const sitemaps = Object.keys(
      JSON.parse(fs.readFileSync(path.join(starter.siteDir, '.quire/store.json'), 'utf8')).files,
    ).filter((file) => file.startsWith('/sitemaps/')).length;
    // The feed, the post, the three feeds, the sitemap index and its sitemaps: nothing that grows with the posts.
    expect(one.sync).toMatchObject({ full: false, events: 1, fetched: 1, removed: 0, requests: 2 + 3 + 1 + sitemaps });
    expect(one.built).toBe(true);
    expect((await page(`/blog/${edited.slug}`)).html).toContain('<h1>Edited for the rebuild</h1>');

    await starter.admin('DELETE', `/posts/${deleted.id}`);
    await starter.admin('PATCH', `/posts/${unpublished.id}`, { status: 'draft' });
    const two = await starter.rebuild();
    expect(two.sync).toMatchObject({ events: 2, fetched: 0, removed: 2 });
    expect((await page(`/blog/${deleted.slug}`)).status).toBe(404);
    expect((await page(`/blog/${unpublished.slug}`)).status).toBe(404);
    expect((await page('/feed.json')).html).not.toContain(deleted.slug);

    const idle = await starter.rebuild();
    expect(idle).toMatchObject({ built: false, sync: { events: 0, requests: 1 } });
  });

  it('rebuilds when a signed webhook arrives from Quire, and refuses one that is not signed', async () => {
    const json = { 'content-type': 'application/json' };
    const unsigned = await starter.siteFetch('/api/webhook', { method: 'POST', headers: json, body: '{}' });
    expect(unsigned.status).toBe(404);
    const hook = await starter.admin<{ secret: string }>('POST', '/webhooks', {
      url: `${starter.siteUrl}/api/webhook`,
      eventTypes: ['post.updated', 'post.published', 'post.unpublished', 'post.deleted'],
    });
    fs.appendFileSync(path.join(starter.siteDir, '.env'), `\nQUIRE_WEBHOOK_SECRET=${hook.secret}\n`);
    const forged = await starter.siteFetch('/api/webhook', {
      method: 'POST',
      headers: {
        ...json,
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{}',
    });
    expect(forged.status).toBe(401);

    const post = posts[7]!;
    await starter.admin('PATCH', `/posts/${post.id}`, { title: 'Published through the webhook' });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { html } = await page(`/blog/${post.slug}`);
      if (html.includes('<h1>Published through the webhook</h1>')) break;
      if (Date.now() > deadline) throw new Error('the webhook did not rebuild the site within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
});
