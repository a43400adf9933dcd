import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../../../test/e2e/helpers.js';
import { png } from '../../../test/helpers/media.js';
import { Quire, QuireContent, QuireError, type Post, type PublicMedia } from '../src/index.js';
import { countingFetch, seededServer } from './helpers.js';

/*
 * The content client against a real `quire serve` (the compiled server): a workspace seeded by `quire seed`, a
 * content key made with the admin API, and the admin client to write what the content client should (not) see.
 */

const SEEDED_POSTS = 12;

describe('QuireContent against a real server', () => {
  let server: ServerProcess;
  let remove: () => void;
  let admin: Quire;
  let adminKey: string;
  let contentKey: string;
  let content: QuireContent;

  /** An admin API call the admin client has no method for (content keys, preview tokens). */
  async function adminPost<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${server.url}/api/v1/external${path}`, {
      method: 'POST',
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return (await response.json()) as T;
  }

  beforeAll(async () => {
    const seeded = await seededServer(SEEDED_POSTS);
    server = seeded.server;
    remove = seeded.dir.remove;
    adminKey = seeded.key;
    admin = new Quire({ apiKey: adminKey, baseUrl: server.url });
    contentKey = (await adminPost<{ key: string }>('/content-keys', { name: 'Site' })).key;
    content = new QuireContent({ contentKey, baseUrl: server.url });
  }, 90_000);
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    remove?.();
  });

  it('iterates the published posts only, newest published first', async () => {
    const published = (await admin.posts.list({ status: 'published', pageSize: 1 })).total;
    expect(published).toBeGreaterThan(0);
    expect(published).toBeLessThan((await admin.posts.list({ pageSize: 1 })).total + 1);
    const seen: Post[] = [];
    for await (const post of content.posts.iterate({ pageSize: 5 })) seen.push(post);
    expect(seen).toHaveLength(published);
    expect(seen.every((post) => post.status === 'published')).toBe(true);
    const dates = seen.map((post) => post.publishedAt!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('gets a post by slug with fields, and a draft as NOT_FOUND', async () => {
    const [first] = (await content.posts.list({ pageSize: 1, fields: ['slug', 'title'] })).data;
    expect(Object.keys(first!)).toEqual(['id', 'slug', 'title']);
    const whole = await content.posts.get(first!.slug);
    expect(whole.id).toBe(first!.id);
    const cut = await content.posts.get(first!.id, { fields: ['excerpt'] });
    expect(Object.keys(cut)).toEqual(['id', 'excerpt']);
    // @ts-expect-error: title was not asked for
    expect(cut.title).toBeUndefined();

    const draft = await admin.posts.create({ title: 'Not yet' });
    const missing = await content.posts.get(draft.id).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(QuireError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('reads pages, authors, tags, categories, redirects and the site settings', async () => {
    const page = await admin.pages.create({ title: 'About', status: 'published' });
    expect((await content.pages.get(page.slug)).id).toBe(page.id);
    expect((await content.pages.list()).data.map((item) => item.id)).toContain(page.id);

    const author = (await admin.authors.list({ pageSize: 1 })).data[0]!;
    expect((await content.authors.get(author.slug)).id).toBe(author.id);
    expect((await content.authors.list()).total).toBe((await admin.authors.list()).total);

    const tag = await admin.tags.create({ name: 'Engines' });
    expect((await content.tags.get(tag.slug)).name).toBe('Engines');
    let tags = 0;
    for await (const _tag of content.tags.iterate()) tags += 1;
    expect(tags).toBe((await admin.tags.list()).total);

    const category = await admin.categories.create({ name: 'Machines' });
    expect((await content.categories.get(category.id)).slug).toBe(category.slug);
    expect((await content.categories.list({ pageSize: 100 })).data.map((item) => item.id)).toContain(category.id);

    const redirect = await admin.redirects.create({ fromPath: '/old', toPath: '/new' });
    const redirects = [];
    for await (const item of content.redirects.iterate()) redirects.push(item);
    expect(redirects.map((item) => item.id)).toContain(redirect.id);

    expect(await content.siteSettings.get()).toEqual(await admin.siteSettings.get());
  });

  it('reads feeds and the sitemap index as documents, and the body as HTML on request', async () => {
    const newest = (await content.posts.list({ pageSize: 3 })).data;
    const rss = await content.feeds.get('rss.xml', { limit: 3 });
    expect(rss.startsWith('<?xml')).toBe(true);
    expect(rss.match(/<item>/g)).toHaveLength(3);
    for (const post of newest) expect(rss).toContain(`<title><![CDATA[${post.title}]]></title>`);
    const json = JSON.parse(await content.feeds.get('feed.json', { limit: 1 })) as {
      version: string;
      items: unknown[];
    };
    expect(json).toMatchObject({ version: 'https://jsonfeed.org/version/1.1', items: [expect.anything()] });
    expect(await content.sitemaps.index()).toContain('<sitemapindex');
    await expect(content.sitemaps.get('secrets.xml')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await content.posts.get(newest[0]!.id, { formats: 'html' })).bodyHtml).toMatch(/^</);
    expect(await content.posts.get(newest[0]!.id)).not.toHaveProperty('bodyHtml');
    const html = await content.posts.list({ pageSize: 1, formats: 'html' });
    expect(html.data[0]!.bodyHtml).toMatch(/^</);
  });

  it('gets a media file without who uploaded it or where it is stored', async () => {
    const uploaded = await admin.media.upload(png(4, 3), { filename: 'dot.png', alt: 'A dot' });
    const media: PublicMedia = await content.media.get(uploaded.id);
    expect(media).toMatchObject({ id: uploaded.id, url: uploaded.url, alt: 'A dot' });
    expect(media).not.toHaveProperty('storagePath');
    expect(media).not.toHaveProperty('uploadedByUserId');
  });

  it('previews a draft post and page with their tokens, and refuses a token for another', async () => {
    const post = await admin.posts.create({ title: 'Draft to preview' });
    const page = await admin.pages.create({ title: 'Draft page' });
    const postToken = (await adminPost<{ token: string }>(`/posts/${post.id}/preview`, {})).token;
    const pageToken = (await adminPost<{ token: string }>(`/pages/${page.id}/preview`, {})).token;
    const previewed = await content.preview.post(post.id, postToken);
    expect(previewed).toMatchObject({ id: post.id, status: 'draft', title: 'Draft to preview' });
    expect(await content.preview.post(post.id, postToken, { fields: ['title'] })).toEqual({
      id: post.id,
      title: 'Draft to preview',
    });
    expect((await content.preview.page(page.id, pageToken)).title).toBe('Draft page');
    const refused = await content.preview.post(post.id, pageToken).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('sends the key as ?key= (no header) and revalidates by ETag: an unchanged answer comes back as a 304', async () => {
    const counting = countingFetch();
    const urls: string[] = [];
    const headers: Headers[] = [];
    const watched = new QuireContent({
      contentKey,
      baseUrl: server.url,
      fetch: (input, init) => {
        urls.push(String(input));
        headers.push(new Headers(init?.headers));
        return counting.fetch(input, init);
      },
    });
    const first = await watched.posts.list({ pageSize: 2 });
    const second = await watched.posts.list({ pageSize: 2 });
    expect(second).toEqual(first);
    expect(counting.statuses).toEqual([200, 304]);
    expect(counting.ifNoneMatch[1]).toMatch(/^"/);
    const url = new URL(urls[0]!);
    expect(url.pathname).toBe('/api/v1/content/posts');
    expect(url.searchParams.get('key')).toBe(contentKey);
    expect(headers[0]!.has('x-api-key')).toBe(false);

    // Another last character, whatever the key's was: a key ending in `x` would stay itself.
    const altered = `${contentKey.slice(0, -1)}${contentKey.endsWith('x') ? 'y' : 'x'}`;
    const wrong = new QuireContent({ contentKey: altered, baseUrl: server.url });
    await expect(wrong.posts.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    // An admin key is no content key.
    const admins = new QuireContent({ contentKey: adminKey, baseUrl: server.url });
    await expect(admins.siteSettings.get()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('answers a browser on another origin: CORS headers on the GET, the ETag exposed, and a preflight', async () => {
    const origin = 'https://site.example';
    const url = `${server.url}/api/v1/content/posts?key=${contentKey}`;
    // What a browser adds to a cross-origin GET: an Origin header, and it hands the answer to the script only
    // when the CORS headers allow that origin.
    const answer = await fetch(url, { headers: { origin } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/\bETag\b/);
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/i);
  });
});
