import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { expect } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { EXTERNAL, type TestContext, type TestWorkspace } from './app.js';
import { filePart, png, uploadMedia } from './media.js';

type Json = Record<string, unknown>;

/** A request that must answer `status`, its body parsed. */
async function send(ctx: TestContext, key: string, method: string, url: string, payload?: unknown, status = 201) {
  const response = await ctx.app.inject({
    method: method as 'POST',
    url: `${EXTERNAL}${url}`,
    headers: { 'x-api-key': key },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
  return response.json() as Json & { id: string; slug: string };
}

/**
 * A workspace holding every kind of content a workspace export carries, written through the API: media
 * files, authors with avatars, a category tree, tags, posts of every status with bodies, images, tags and
 * related posts (one deleted), pages, a redirect chain, link-health reports and site settings with a logo.
 */
export async function fillWorkspace(ctx: TestContext, workspace: TestWorkspace, key: string): Promise<void> {
  const upload = async (name: string, fields: Array<{ name: string; data: string }> = []) => {
    const response = await uploadMedia(ctx, key, [filePart(png(4, 3), name), ...fields]);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  };
  const photo = await upload('photo.png', [
    { name: 'alt', data: 'A photo' },
    { name: 'caption', data: 'Café crème' },
  ]);
  // Where its crops are centred: migration 0022's column, carried since archive format 1.3.
  await send(ctx, key, 'PATCH', `/media/${photo.id}`, { focalPoint: { x: 0.25, y: 0.75 } }, 200);
  const logo = await upload('logo.png');
  const avatar = await upload('avatar.png');

  const ada = await send(ctx, key, 'POST', '/authors', {
    displayName: 'Ada Lovelace',
    bio: 'Writes **about** engines.',
    avatarMediaId: avatar.id,
    sameAs: ['https://example.com/ada'],
    person: { jobTitle: 'Analyst', knowsAbout: ['engines'] },
    seo: { title: 'Ada' },
  });
  await send(ctx, key, 'POST', '/authors', { displayName: 'Émile Zola', isActive: false });
  const root = await send(ctx, key, 'POST', '/categories', { name: 'Engines', description: 'All of them' });
  const child = await send(ctx, key, 'POST', '/categories', { name: 'Steam', parentId: root.id, sortOrder: 2 });
  await send(ctx, key, 'POST', '/categories', {
    name: 'Boilers',
    parentId: child.id,
    collectionMetadata: { includeChildCategories: true },
  });
  const tags = [];
  for (const name of ['History', 'Mathematics', 'Ünïcode']) tags.push(await send(ctx, key, 'POST', '/tags', { name }));

  const body = [
    { type: 'heading', level: 2, text: 'The engine' },
    { type: 'paragraph', text: 'It computes *Bernoulli* numbers.' },
    { type: 'image', mediaId: photo.id, alt: 'The engine', caption: 'Drawn in 1843' },
    { type: 'faq', items: [{ question: 'Does it run?', answer: 'Not yet.' }] },
    { type: 'list', style: 'ordered', items: ['**Mix** the flour', 'Bake'] },
  ];
  const first = await send(ctx, key, 'POST', '/posts', {
    title: 'Notes on the engine',
    excerpt: 'What it does',
    bodyJson: body,
    status: 'published',
    publishedAt: '2025-05-01T10:00:00.000Z',
    featuredMediaId: photo.id,
    authorId: ada.id,
    categoryId: child.id,
    isHowTo: true,
    summaryForAi: 'About the engine.',
    seo: { title: 'Engine', focusKeyword: 'engine', og: { imageMediaId: photo.id } },
    structuredData: { about: { '@type': 'Thing', name: 'Engine' } },
  });
  const second = await send(ctx, key, 'POST', '/posts', {
    title: 'A draft',
    bodyJson: [{ type: 'paragraph', text: 'Soon.' }],
    relatedPostIds: [first.id],
  });
  await send(ctx, key, 'POST', `/posts/${first.id}/tags`, { tagIds: tags.map((t) => t.id) }, 200);
  await send(ctx, key, 'POST', `/posts/${second.id}/tags`, { tagIds: [tags[0]!.id] }, 200);
  await send(ctx, key, 'PATCH', `/posts/${first.id}`, { relatedPostIds: [second.id] }, 200);
  const archived = await send(ctx, key, 'POST', '/posts', { title: 'Old news', status: 'published' });
  await send(ctx, key, 'PATCH', `/posts/${archived.id}`, { status: 'archived' }, 200);
  const gone = await send(ctx, key, 'POST', '/posts', { title: 'Gone', relatedPostIds: [first.id] });
  await send(ctx, key, 'DELETE', `/posts/${gone.id}`, undefined, 200);

  await send(ctx, key, 'POST', '/pages', {
    title: 'About',
    bodyJson: [
      { type: 'image', mediaId: logo.id },
      { type: 'paragraph', text: 'Us.' },
    ],
    status: 'published',
    pageType: 'AboutPage',
  });
  const hidden = await send(ctx, key, 'POST', '/pages', { title: 'Hidden' });
  await send(ctx, key, 'DELETE', `/pages/${hidden.id}`, undefined, 200);
  await send(ctx, key, 'POST', '/redirects', { fromPath: '/a', toPath: '/b', statusCode: 302 });
  await send(ctx, key, 'POST', '/redirects', { fromPath: '/b', toPath: 'https://example.com/c?x=1' });
  for (const path of ['/missing', '/missing', '/gone?utm=1'])
    await send(ctx, key, 'POST', '/link-health', { path, referrer: '/index', statusCode: 404 }, 200);

  await COMMANDS['workspace settings']!.run(ctx.runtime, {
    flags: {
      workspace: workspace.slug,
      'site-name': 'Engines Weekly',
      'site-url': 'https://blog.example.com',
      'logo-media-id': logo.id,
      'publisher-name': 'Engines Ltd',
      'post-url-pattern': '/blog/{slug}',
      'category-url-pattern': '/c/{path}',
    },
    readStdin: async () => '',
  });
}

/** Who uploaded a media item names a user and a key of the installation, which an archive does not carry. */
/** Who wrote a row: an installation's users and keys, which a move keeps and an import may not have. */
const UPLOADERS = new Set(['uploadedByUserId', 'uploadedByApiKeyId', 'userId', 'apiKeyId']);

function withoutUploaders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUploaders);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => [name, UPLOADERS.has(name) ? null : withoutUploaders(member)]),
  );
}

const LISTS = ['posts', 'pages', 'media', 'authors', 'categories', 'tags', 'redirects', 'link-health'] as const;

/**
 * Every external read of every resource of the key's workspace, by URL: each list, each item by id and by
 * slug, the revisions of each post and page, each redirect resolved, the site settings, and each media file's
 * bytes (as a sha256).
 */
export async function readEverything(ctx: TestContext, key: string): Promise<Record<string, unknown>> {
  const read: Record<string, unknown> = {};
  const get = async (url: string) => {
    const response = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}${url}`, headers: { 'x-api-key': key } });
    expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
    return (read[url] = withoutUploaders(response.json()));
  };
  for (const list of LISTS) {
    const page = (await get(`/${list}?pageSize=100`)) as {
      data: Array<{ id: string; slug?: string; fromPath?: string; url?: string }>;
    };
    for (const item of page.data) {
      if (list === 'link-health') continue;
      if (list === 'redirects') {
        await get(`/redirects/${item.id}`);
        await get(`/redirects/resolve?path=${encodeURIComponent(item.fromPath!)}`);
        continue;
      }
      await get(`/${list}/${item.id}`);
      if (item.slug) await get(`/${list}/${item.slug}`);
      if (list === 'posts' || list === 'pages') {
        const revisions = (await get(`/${list}/${item.id}/revisions?pageSize=100`)) as { data: Array<{ n: number }> };
        for (const { n } of revisions.data) await get(`/${list}/${item.id}/revisions/${n}`);
      }
      if (list === 'media') {
        const file = await ctx.app.inject({ method: 'GET', url: new URL(item.url!).pathname });
        expect(file.statusCode).toBe(200);
        read[item.url!] = crypto.createHash('sha256').update(file.rawPayload).digest('hex');
      }
    }
  }
  await get('/site-settings');
  return read;
}

/** An archive's tar entries, decompressed, for tests that damage one. */
export async function archiveEntries(file: string): Promise<Array<{ name: string; body: Buffer }>> {
  const extract = tar.extract();
  fs.createReadStream(file).pipe(zlib.createGunzip()).pipe(extract);
  const entries: Array<{ name: string; body: Buffer }> = [];
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const chunk of entry) parts.push(chunk as Buffer);
    entries.push({ name: entry.header.name, body: Buffer.concat(parts) });
  }
  return entries;
}

/** Writes `entries` as a gzip-compressed tar at `file`. */
export async function writeArchiveEntries(file: string, entries: Array<{ name: string; body: Buffer }>): Promise<void> {
  const pack = tar.pack();
  for (const entry of entries) pack.entry({ name: entry.name }, entry.body);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const chunk of pack) parts.push(chunk as Buffer);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(parts)));
}

/** Rewrites an archive with `edit` applied to its entries and its trailer's checksums made to match. */
export async function rewriteArchive(
  file: string,
  out: string,
  edit: (entries: Array<{ name: string; body: Buffer }>) => Array<{ name: string; body: Buffer }>,
): Promise<void> {
  const entries = edit((await archiveEntries(file)).filter((e) => e.name !== 'quire-archive-end.json'));
  const trailer = JSON.parse(
    (await archiveEntries(file)).find((e) => e.name === 'quire-archive-end.json')!.body.toString(),
  ) as { rows: unknown; files: unknown };
  const listed = entries.map((e) => ({
    name: e.name,
    size: e.body.length,
    sha256: crypto.createHash('sha256').update(e.body).digest('hex'),
  }));
  await writeArchiveEntries(file === out ? file : out, [
    ...entries,
    { name: 'quire-archive-end.json', body: Buffer.from(JSON.stringify({ ...trailer, entries: listed })) },
  ]);
}
