import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../../../test/e2e/helpers.js';
import { png } from '../../../test/helpers/media.js';
import { cliJson } from '../../../test/e2e/helpers.js';
import { Quire, QuireError, type Post, type SiteSettings } from '../src/index.js';
import { seededServer } from './helpers.js';

/*
 * The client against a real `quire serve` (the compiled server, as a site would reach it): a workspace
 * seeded by `quire seed` with 30 posts, and the owner's key.
 */

const SEEDED_POSTS = 30;

describe('@quire/client against a real server', () => {
  let server: ServerProcess;
  let quire: Quire;
  let remove: () => void;
  let dataDir: string;

  beforeAll(async () => {
    const seeded = await seededServer(SEEDED_POSTS);
    server = seeded.server;
    remove = seeded.dir.remove;
    dataDir = seeded.dir.dataDir;
    quire = new Quire({ apiKey: seeded.key, baseUrl: server.url });
  }, 90_000);
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    remove?.();
  });

  it('walks every page with the iterator and sees each post exactly once', async () => {
    const { total } = await quire.posts.list({ pageSize: 1 });
    expect(total).toBe(SEEDED_POSTS);
    const seen: string[] = [];
    // 7 per page: five pages, the last one short.
    for await (const post of quire.posts.iterate({ pageSize: 7, orderBy: 'createdAt', order: 'asc' }))
      seen.push(post.id);
    expect(seen).toHaveLength(SEEDED_POSTS);
    expect(new Set(seen).size).toBe(SEEDED_POSTS);
  });

  it('asks for fields, and its result type holds those and id only', async () => {
    const page = await quire.posts.list({ pageSize: 3, fields: ['slug', 'title'] });
    for (const post of page.data) expect(Object.keys(post)).toEqual(['id', 'slug', 'title']);
    const first = page.data[0]!;
    const one = await quire.posts.get(first.slug, { fields: ['excerpt'] });
    expect(Object.keys(one)).toEqual(['id', 'excerpt']);
    // The types narrow too: these would not compile if the result still claimed every field.
    const narrowed: { id: string; slug: string; title: string } = first;
    // @ts-expect-error: bodyJson was not asked for
    expect(first.bodyJson).toBeUndefined();
    expect(narrowed.id).toBe(one.id);
    for await (const post of quire.posts.iterate({ pageSize: 10, fields: ['title'] })) {
      expect(Object.keys(post)).toEqual(['id', 'title']);
      break;
    }
  });

  it('filters and sorts with typed queries: published posts, newest publication first', async () => {
    const page = await quire.posts.list({ status: 'published', orderBy: 'publishedAt', order: 'desc', pageSize: 5 });
    expect(page).toMatchObject({ page: 1, pageSize: 5, order: 'desc', orderBy: 'publishedAt' });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((post) => post.status === 'published')).toBe(true);
    const dates = page.data.map((post) => post.publishedAt!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('gets a post by slug and by id, with its relations embedded', async () => {
    const [first] = (await quire.posts.list({ pageSize: 1 })).data;
    const bySlug = await quire.posts.get(first!.slug);
    const byId = await quire.posts.get(first!.id);
    expect(bySlug.id).toBe(first!.id);
    expect(byId).toEqual(bySlug);
    expect(bySlug.jsonLd).toMatchObject({ '@context': 'https://schema.org' });
    expect(Array.isArray(bySlug.tags)).toBe(true);
  });

  it('returns data from every list method', async () => {
    await quire.pages.create({
      title: 'About us',
      pageType: 'AboutPage',
      bodyJson: [{ type: 'paragraph', text: 'We bake.' }],
    });
    await quire.redirects.create({ fromPath: '/old-about', toPath: '/about' });
    await quire.linkHealth.report({ path: '/missing', statusCode: 404 });
    const lists = {
      posts: await quire.posts.list(),
      pages: await quire.pages.list(),
      media: await quire.media.list(),
      authors: await quire.authors.list(),
      categories: await quire.categories.list(),
      tags: await quire.tags.list(),
      redirects: await quire.redirects.list(),
      linkHealth: await quire.linkHealth.list(),
      apiKeys: await quire.apiKeys.list(),
    };
    for (const [name, list] of Object.entries(lists)) {
      expect(list.data.length, name).toBeGreaterThan(0);
      expect(list.total, name).toBeGreaterThanOrEqual(list.data.length);
    }
    let tags = 0;
    for await (const tag of quire.tags.iterate({ pageSize: 2 })) tags += tag.name ? 1 : 0;
    expect(tags).toBe(lists.tags.total);
  });

  it('creates, updates, tags and deletes a post', async () => {
    const created: Post = await quire.posts.create({
      title: 'Written by the client',
      bodyJson: [
        { type: 'heading', level: 2, text: 'First steps' },
        { type: 'paragraph', text: 'One two three.' },
      ],
    });
    expect(created).toMatchObject({
      status: 'draft',
      slug: 'written-by-the-client',
      tocItems: [{ level: 2, text: 'First steps', id: 'first-steps' }],
    });

    const published = await quire.posts.update(created.slug, { status: 'published', excerpt: 'Short.' });
    expect(published).toMatchObject({ id: created.id, status: 'published', excerpt: 'Short.' });
    expect(published.publishedAt).not.toBeNull();

    const tag = await quire.tags.create({ name: 'Client made' });
    expect((await quire.posts.attachTags(created.id, [tag.id])).tags.map((t) => t.id)).toEqual([tag.id]);
    expect((await quire.posts.detachTags(created.id, [tag.id])).tags).toEqual([]);

    const deleted = await quire.posts.delete(created.id);
    expect(deleted.deletedAt).not.toBeNull();
    await expect(quire.posts.get(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('updates a post or page only from the version it read, when asked to (ifMatch)', async () => {
    const post = await quire.posts.create({ title: 'Edited by two' });
    const first = await quire.posts.update(post.id, { excerpt: 'First.' }, { ifMatch: post.updatedAt });
    expect(first.excerpt).toBe('First.');
    await expect(quire.posts.update(post.id, { excerpt: 'Stale.' }, { ifMatch: post.updatedAt })).rejects.toMatchObject(
      { code: 'CONFLICT', status: 409, details: { reason: 'stale', version: first.updatedAt } },
    );
    expect((await quire.posts.get(post.id)).excerpt).toBe('First.');

    const page = await quire.pages.create({ title: 'Also versioned' });
    await quire.pages.update(page.id, { title: 'Moved on' });
    await expect(quire.pages.update(page.id, { title: 'Stale' }, { ifMatch: page.updatedAt })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('updates a post or page only from the copy it read, by its ETag, when asked to (ifMatchRead)', async () => {
    const post = await quire.posts.create({ title: 'Read, then edited' });
    const read = await quire.posts.get(post.id);
    const first = await quire.posts.update(post.id, { excerpt: 'First.' }, { ifMatchRead: true });
    expect(first.excerpt).toBe('First.');
    // The copy held is still the one read before that write: this one is stale.
    await expect(quire.posts.update(post.id, { excerpt: 'Stale.' }, { ifMatchRead: true })).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
      details: { reason: 'stale', version: first.updatedAt },
    });
    expect(read.excerpt).toBe('');
    const again = await quire.posts.get(post.id);
    expect((await quire.posts.update(post.id, { excerpt: 'Second.' }, { ifMatchRead: true })).excerpt).toBe('Second.');
    expect(again.excerpt).toBe('First.');

    const page = await quire.pages.create({ title: 'Never read' });
    await expect(quire.pages.update(page.id, { title: 'Blind' }, { ifMatchRead: true })).rejects.toThrow(
      /no copy of \/pages\/.* read with get\(\)/,
    );
    expect((await quire.pages.get(page.id)).title).toBe('Never read');
    await quire.pages.get(page.id);
    await quire.pages.update(page.id, { title: 'Moved on' });
    await expect(quire.pages.update(page.id, { title: 'Stale' }, { ifMatchRead: true })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('keeps the pending changes of a live post until apply, names the set it read, and shares it for review', async () => {
    const post = await quire.posts.create({ title: 'Live from the client', status: 'published' });
    await expect(quire.posts.pending.get(post.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const first = await quire.posts.pending.save(
      post.id,
      { baseVersion: post.updatedAt, changes: { title: 'Not live yet' } },
      { ifNoneExists: true },
    );
    expect(first).toMatchObject({ resourceId: post.id, stale: false, changes: { title: 'Not live yet' } });
    await expect(
      quire.posts.pending.save(post.id, { baseVersion: post.updatedAt, changes: {} }, { ifNoneExists: true }),
    ).rejects.toMatchObject({ status: 409, details: { reason: 'pending_changed', version: first.updatedAt } });
    expect((await quire.posts.get(post.id)).title).toBe('Live from the client');
    const applied = await quire.posts.pending.apply(post.id, {}, { ifMatch: first.updatedAt });
    expect(applied.title).toBe('Not live yet');
    await expect(quire.posts.pending.discard(post.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const link = await quire.posts.reviewLinks.create(post.id, { note: 'For the editor' });
    expect(link.url).toMatch(/\/review\/quire_review_/);
    expect((await quire.posts.reviewLinks.list(post.id)).data.map((l) => l.id)).toEqual([link.id]);
    expect((await quire.posts.reviewLinks.revoke(post.id, link.id)).note).toBe('For the editor');
    await expect(quire.posts.reviewLinks.revoke(post.id, link.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists, reads and restores the revisions of a post, and follows the change feed', async () => {
    const start = await quire.changes.list({ limit: 1000 });
    let cursor = start.next;
    for (let more = start.hasMore; more;) {
      const page = await quire.changes.list({ after: cursor, limit: 1000 });
      cursor = page.next;
      more = page.hasMore;
    }
    const post = await quire.posts.create({ title: 'Revised by the client' });
    await quire.posts.update(post.id, { title: 'Revised twice' });
    const revisions = await quire.posts.revisions.list(post.slug, { pageSize: 5 });
    expect(revisions.data.map((r) => [r.n, r.action, r.title])).toEqual([
      [2, 'updated', 'Revised twice'],
      [1, 'created', 'Revised by the client'],
    ]);
    expect((await quire.posts.revisions.get(post.id, 1)).fields.title).toBe('Revised by the client');
    expect((await quire.posts.revisions.restore(post.id, 1)).title).toBe('Revised by the client');
    await expect(quire.pages.revisions.get(post.id, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const changes = await quire.changes.list({ after: cursor });
    expect(changes.data.map((e) => [e.event, e.id])).toEqual([
      ['post.created', post.id],
      ['post.updated', post.id],
      ['post.updated', post.id],
    ]);
    await expect(quire.changes.list({ after: 'nonsense' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      details: { issues: [{ path: '/after' }] },
    });
  });

  it('uploads a file as multipart and resolves redirects', async () => {
    const media = await quire.media.upload(png(4, 3), { filename: 'dot.png', alt: 'A dot' });
    expect(media).toMatchObject({ mimeType: 'image/png', width: 4, height: 3, alt: 'A dot', filename: 'dot.png' });
    const file = await fetch(media.url);
    expect(file.status).toBe(200);

    const resolved = await quire.redirects.resolve('/old-about');
    expect(resolved).toMatchObject({ fromPath: '/old-about', finalPath: '/about', hops: 1 });
  });

  it('manages keys: create, reveal, revoke', async () => {
    const created = await quire.apiKeys.create({ name: 'Temporary' });
    expect(created.key).toMatch(/^quire_live_/);
    expect((await quire.apiKeys.reveal(created.id)).key).toBe(created.key);
    expect((await quire.apiKeys.revoke(created.id)).status).toBe('Revoked');
    await expect(new Quire({ apiKey: created.key, baseUrl: server.url }).posts.list()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });
  });

  it('manages a webhook endpoint: create with its secret, reveal, rotate, deliveries, delete', async () => {
    // Disabled: this server is not allowed private targets, and nothing is to be sent to the example host.
    const created = await quire.webhooks.create({
      url: 'https://hooks.example.com/quire',
      eventTypes: ['post.published'],
      enabled: false,
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(await quire.webhooks.get(created.id)).not.toHaveProperty('secret');
    expect((await quire.webhooks.list()).data.map((webhook) => webhook.id)).toContain(created.id);
    expect((await quire.webhooks.revealSecret(created.id)).secret).toBe(created.secret);
    const rotated = await quire.webhooks.rotateSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect((await quire.webhooks.update(created.id, { description: 'CDN purge' })).description).toBe('CDN purge');
    expect((await quire.webhooks.deliveries(created.id)).total).toBe(0);
    await expect(quire.webhooks.sendTest(created.id)).rejects.toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    await expect(quire.webhooks.create({ url: 'http://127.0.0.1/hook' })).rejects.toMatchObject({
      status: 400,
      details: { issues: [expect.objectContaining({ path: '/url' })] },
    });
    expect((await quire.webhooks.delete(created.id)).id).toBe(created.id);
    await expect(quire.webhooks.get(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reads the site settings, as the CLI (or the dashboard) last set them', async () => {
    const before: SiteSettings = await quire.siteSettings.get();
    expect(before).toMatchObject({ siteName: 'Client Site', siteUrl: null, postUrlPattern: null, logo: null });
    await cliJson(
      [
        'workspace',
        'settings',
        '--workspace',
        'client-site',
        '--site-url',
        'https://site.example',
        '--post-url-pattern',
        '/blog/{slug}',
      ],
      { QUIRE_DATA_DIR: dataDir },
    );
    expect(await quire.siteSettings.get()).toMatchObject({
      siteUrl: 'https://site.example',
      postUrlPattern: '/blog/{slug}',
    });
  });

  it('reads the OpenAPI document it was generated from', async () => {
    const document = (await quire.openApiDocument()) as { openapi: string; info: { title: string } };
    expect(document.openapi).toBe('3.1.0');
  });

  it('throws QuireError with code, status, message and the request id on a 404', async () => {
    const error = await quire.posts.get('no-such-post').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QuireError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, details: null });
    expect((error as QuireError).message).toMatch(/not found/i);
    expect((error as QuireError).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries validation issues in details on a 400', async () => {
    const error = (await quire.posts
      .create({ title: 'x', status: 'scheduled' })
      .catch((caught: unknown) => caught)) as QuireError;
    expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    const unknownField = (await quire.posts
      .create({ title: 'x', colour: 'red' } as never)
      .catch((caught: unknown) => caught)) as QuireError;
    expect(unknownField.details).toEqual({
      issues: [{ in: 'body', path: '/colour', message: 'colour is not a known field' }],
    });
  });
});
