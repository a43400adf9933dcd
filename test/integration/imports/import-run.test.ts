import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { htmlToBlocks } from '@quire/blocks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport, type ImportRunOptions } from '../../../src/modules/imports/import-run.js';
import type { ImportEntry, ImportItem, ImportSource, MediaRef } from '../../../src/modules/imports/import-source.js';
import { buildTestApp, ownerActor, type TestContext, type TestWorkspace } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/database.js';
import { png } from '../../helpers/media.js';

/** A source made of the items given: what a reader of any format hands the runner. */
function sourceOf(items: () => ImportItem[], media: Record<string, string> = {}): ImportSource {
  return {
    format: 'wordpress',
    site: 'https://old.example',
    async *items() {
      yield* items();
    },
    locateMedia: (src) => {
      const file = media[src];
      return file ? { key: src, origin: { kind: 'file', path: file } } : null;
    },
    entryCount: async () => items().filter((item) => item.type === 'post' || item.type === 'page').length,
    sourceNotes: () => [],
    close: async () => {},
  };
}

function post(sourceId: string, html: string, extra: Partial<ImportEntry> = {}): ImportEntry {
  return {
    type: 'post',
    sourceId,
    title: `Post ${sourceId}`,
    slug: `post-${sourceId}`,
    status: 'published',
    publishedAt: '2020-05-01T10:00:00Z',
    body: { convert: (options) => htmlToBlocks(html, options), fingerprint: html },
    authorSourceIds: ['ann'],
    categorySourceIds: ['child'],
    tagSourceIds: ['t1', 't2'],
    oldPaths: [`/2020/05/post-${sourceId}/`],
    notes: [],
    ...extra,
  };
}

const TAXONOMY: ImportItem[] = [
  {
    type: 'author',
    sourceId: 'ann',
    displayName: 'Ann Writer',
    slug: 'ann',
    bio: 'Writes.',
    sameAs: ['https://ann.example', 'mailto:x@y'],
  },
  { type: 'author', sourceId: 'bob', displayName: 'Bob', sameAs: [] },
  { type: 'category', sourceId: 'parent', name: 'Parent', slug: 'parent' },
  { type: 'category', sourceId: 'child', name: 'Child', slug: 'child', parentSourceId: 'parent' },
  { type: 'tag', sourceId: 't1', name: 'One', slug: 'one' },
  { type: 'tag', sourceId: 't2', name: 'Two', slug: 'two' },
];

describeEachDialect('the import runner', (dialect) => {
  let ctx: TestContext;
  let images: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    images = await mkdtemp(path.join(tmpdir(), 'quire-import-test-'));
    await writeFile(path.join(images, 'a.png'), png(40, 30));
    await writeFile(path.join(images, 'a-copy.png'), png(40, 30));
  });
  afterAll(() => ctx.close());

  const options = (workspace: TestWorkspace, extra: Partial<ImportRunOptions> = {}): ImportRunOptions => ({
    actor: { ...ownerActor(workspace), permissions: new Set() },
    dryRun: false,
    strict: false,
    media: { maxBytes: 10_000_000, allowPrivate: false, downloadTimeoutMs: 5_000 },
    ...extra,
  });
  const run = (workspace: TestWorkspace, source: ImportSource, extra: Partial<ImportRunOptions> = {}) =>
    runImport(ctx.runtime.database, ctx.runtime.services, source, options(workspace, extra));
  const count = async (
    table: 'posts' | 'pages' | 'media' | 'content_events' | 'post_revisions' | 'import_ledger' | 'redirects' | 'tags',
    workspaceId: string,
  ) =>
    Number(
      (
        await ctx.runtime.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('writes every item through the write path, and a second run changes nothing', async () => {
    const workspace = await ctx.createWorkspace();
    const items = () => [
      ...TAXONOMY,
      post(
        '1',
        '<h2>Hi</h2><p>Some <b>bold</b> text.</p><img src="https://old.example/a.png" alt="A"><table><tr><td>x</td></tr></table>',
        {
          featuredImage: {
            key: 'https://old.example/a-copy.png',
            origin: { kind: 'file', path: path.join(images, 'a-copy.png') },
            alt: 'Cover',
          } as MediaRef,
          authorSourceIds: ['ann', 'bob'],
          seo: { title: 'SEO title', description: 'SEO description', focusKeyword: 'hi', robots: { index: false } },
        },
      ),
      post('2', '<p>Second</p>', { status: 'draft', publishedAt: null }),
      post('later', '<p>Not yet</p>', { publishedAt: '2999-01-01T00:00:00Z' }),
      { ...post('3', '<p>About us</p>'), type: 'page' as const },
    ];
    const source = sourceOf(items, { 'https://old.example/a.png': path.join(images, 'a.png') });
    const first = await run(workspace, source);
    expect(first.counts).toMatchObject({
      author: { created: 2 },
      category: { created: 2 },
      tag: { created: 2 },
      post: { created: 3 },
      page: { created: 1 },
    });
    const later = first.items.find((entry) => entry.sourceId === 'later')!;
    expect(later.approximated.map((note) => note.excerpt)).toEqual([
      'published for 2999-01-01T00:00:00Z, still to come: imported as a draft',
    ]);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/external/posts/post-1`,
      headers: { 'x-api-key': (await ctx.createKey(workspace, workspace.owner)).key },
    });
    const answer = read.json<{
      author: { slug: string };
      category: { slug: string; parentId: string | null };
      tags: Array<{ slug: string }>;
      bodyJson: Array<{ type: string; mediaId?: string }>;
      seo: unknown;
      featuredMediaId: string;
    }>();
    expect(answer.author.slug).toBe('ann');
    expect(answer.category.slug).toBe('child');
    expect(answer.category.parentId).not.toBeNull();
    expect(answer.tags.map((tag) => tag.slug).sort()).toEqual(['one', 'two']);
    expect(answer.bodyJson.map((block) => block.type)).toEqual(['heading', 'paragraph', 'image', 'paragraph']);
    expect(answer.seo).toMatchObject({ title: 'SEO title', robots: { index: false } });
    // The body's image and the featured one are the same bytes under two URLs: one upload.
    expect(answer.featuredMediaId).toBe(answer.bodyJson[2]!.mediaId);
    expect(await count('media', workspace.id)).toBe(1);
    const item = first.items.find((entry) => entry.sourceId === '1')!;
    expect(item.approximated.map((note) => note.element)).toEqual(expect.arrayContaining(['author', 'table']));
    expect(item.converted).toMatchObject({ heading: 1, paragraph: 2, image: 1 });

    const events = await count('content_events', workspace.id);
    const revisions = await count('post_revisions', workspace.id);
    const again = await run(workspace, source);
    expect(again.counts).toMatchObject({ post: { unchanged: 3 }, page: { unchanged: 1 }, tag: { unchanged: 2 } });
    expect(await count('content_events', workspace.id)).toBe(events);
    expect(await count('post_revisions', workspace.id)).toBe(revisions);
    expect(await count('posts', workspace.id)).toBe(3);
  });

  it('updates what changed since the last run, and brings back what was deleted in Quire', async () => {
    const workspace = await ctx.createWorkspace();
    let text = 'First words';
    const source = sourceOf(() => [...TAXONOMY, post('1', `<p>${text}</p>`), post('2', '<p>Two</p>')]);
    await run(workspace, source);
    text = 'Second words';
    const key = (await ctx.createKey(workspace, workspace.owner)).key;
    await ctx.app.inject({ method: 'DELETE', url: '/api/v1/external/posts/post-2', headers: { 'x-api-key': key } });
    const events = await count('content_events', workspace.id);
    const second = await run(workspace, source);
    expect(second.counts.post).toEqual({ updated: 1, created: 1 });
    // The update's event, and the creation's two (created, published as it was created), nothing else.
    expect(await count('content_events', workspace.id)).toBe(events + 3);
    const read = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/external/posts/post-1',
      headers: { 'x-api-key': key },
    });
    expect(read.json().bodyText).toContain('Second words');
  });

  it('writes nothing on a dry run, and reports what it would do', async () => {
    const workspace = await ctx.createWorkspace();
    const report = await run(
      workspace,
      sourceOf(() => [...TAXONOMY, post('1', '<p>x</p>')]),
      { dryRun: true },
    );
    expect(report.dryRun).toBe(true);
    expect(report.counts).toMatchObject({ post: { created: 1 }, author: { created: 2 } });
    for (const table of ['posts', 'tags', 'import_ledger', 'content_events', 'media'] as const)
      expect(await count(table, workspace.id)).toBe(0);
  });

  it('fails a post whose slug another post holds, on a dry run as on the import', async () => {
    const workspace = await ctx.createWorkspace();
    await ctx.runtime.services.posts.create(ownerActor(workspace), { title: 'Mine', slug: 'post-1' });
    const source = sourceOf(() => [...TAXONOMY, post('1', '<p>x</p>'), post('2', '<p>y</p>')]);
    for (const dryRun of [true, false]) {
      const report = await run(workspace, source, { dryRun });
      expect(report.counts.post).toEqual({ failed: 1, created: 1 });
      expect(report.items.find((item) => item.sourceId === '1')?.message).toBe(
        'The slug "post-1" is taken by another post',
      );
    }
  });

  it('stops downloading from a site that does not answer, and says so for each file', async () => {
    const workspace = await ctx.createWorkspace();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const image = (n: number): MediaRef => ({
      key: `img-${n}.png`,
      origin: { kind: 'url', url: `http://127.0.0.1:${port}/img-${n}.png` },
    });
    const source = sourceOf(() => [
      ...TAXONOMY,
      ...Array.from({ length: 20 }, (_, n) => n + 1).map((n) =>
        post(String(n), '<p>x</p>', { featuredImage: image(n) }),
      ),
    ]);
    const report = await run(workspace, source, {
      media: { maxBytes: 1_000_000, allowPrivate: true, downloadTimeoutMs: 2_000 },
    });
    expect(report.counts.post).toEqual({ created: 20 });
    const reasons = report.items
      .filter((item) => item.type === 'post')
      .map((item) => item.dropped.map((note) => note.excerpt).join());
    // The entries prepared ahead download at once; once three failed in a row, the rest are not tried.
    const tried = reasons.filter((reason) => !reason.includes('not tried'));
    expect(tried.length).toBeGreaterThanOrEqual(3);
    expect(tried.length).toBeLessThan(20);
    expect(tried.every((reason) => /ECONNREFUSED/.test(reason))).toBe(true);
    expect(reasons.at(-1)).toMatch(/not tried: 127\.0\.0\.1:\d+ gave no answer to 3 downloads in a row/);
  });

  it('drops what neither database stores (U+0000, a lone surrogate) from redirects and media texts too', async () => {
    const workspace = await ctx.createWorkspace();
    await ctx.runtime.database.db
      .updateTable('workspaces')
      .set({ post_url_pattern: '/blog/{slug}' })
      .where('id', '=', workspace.id)
      .execute();
    const cover: MediaRef = {
      key: 'cover.png',
      origin: { kind: 'file', path: path.join(images, 'a.png') },
      alt: 'A\u0000lt \ud800text',
    };
    const source = sourceOf(() => [
      ...TAXONOMY,
      post('1', '<p>x</p>', { oldPaths: ['/old\u0000-path/'], featuredImage: cover }),
    ]);
    const report = await run(workspace, source);
    expect(report.counts).toMatchObject({ post: { created: 1 }, redirect: { created: 1 } });
    const media = await ctx.runtime.database.db
      .selectFrom('media')
      .select('alt')
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    expect(media.alt).toBe('Alt text');
    const redirect = await ctx.runtime.database.db
      .selectFrom('redirects')
      .select('from_path')
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    expect(redirect.from_path).toBe('/old-path');
    expect((await run(workspace, source)).counts).toMatchObject({ post: { unchanged: 1 }, redirect: { unchanged: 1 } });
  });

  it('reports an item that fails and goes on; --strict writes nothing when one would fail', async () => {
    const workspace = await ctx.createWorkspace();
    const items = () => [
      ...TAXONOMY,
      post('bad', '<p>x</p>', { publishedAt: 'yesterday' }),
      { type: 'failure' as const, item: 'post 7 "Broken"', message: 'the body is not valid JSON' },
      post('good', '<p>y</p>'),
    ];
    await expect(run(workspace, sourceOf(items), { strict: true })).rejects.toThrow(/--strict: 2 item\(s\) would fail/);
    expect(await count('posts', workspace.id)).toBe(0);
    expect(await count('tags', workspace.id)).toBe(0);

    const report = await run(workspace, sourceOf(items));
    const bad = report.items.find((item) => item.sourceId === 'bad')!;
    expect(bad).toMatchObject({ action: 'failed', quireId: null });
    expect(bad.message).toMatch(/\/publishedAt/);
    expect(report.items.find((item) => item.type === 'item')).toMatchObject({
      action: 'failed',
      message: 'the body is not valid JSON',
    });
    expect(await count('posts', workspace.id)).toBe(1);
    expect(await count('import_ledger', workspace.id)).toBe(6 + 1);
  });

  it('takes over a tag the workspace has under the same slug', async () => {
    const workspace = await ctx.createWorkspace();
    await ctx.runtime.services.tags.create(ownerActor(workspace), { name: 'One', slug: 'one' });
    const report = await run(
      workspace,
      sourceOf(() => TAXONOMY),
    );
    expect(report.counts.tag).toEqual({ adopted: 1, created: 1 });
    expect(await count('tags', workspace.id)).toBe(2);
    expect(report.items.filter((item) => item.type === 'tag')).toEqual([]);
  });

  it('redirects old URLs to where the URL pattern puts each post, once the workspace has a pattern', async () => {
    const workspace = await ctx.createWorkspace();
    const source = sourceOf(() => [
      ...TAXONOMY,
      post('1', '<p>x</p>', { oldPaths: ['/2020/05/post-1/', '/?p=1', '/blog/post-1'] }),
    ]);
    const without = await run(workspace, source);
    expect(without.sourceNotes.join('\n')).toMatch(/no post URL pattern/);
    expect(await count('redirects', workspace.id)).toBe(0);

    await ctx.runtime.database.db
      .updateTable('workspaces')
      .set({ post_url_pattern: '/blog/{slug}' })
      .where('id', '=', workspace.id)
      .execute();
    const withPattern = await run(workspace, source);
    expect(withPattern.counts.redirect).toEqual({ created: 1 });
    expect(withPattern.sourceNotes.join('\n')).toMatch(/query string/);
    const redirect = await ctx.runtime.database.db
      .selectFrom('redirects')
      .select(['from_path', 'to_path', 'status_code'])
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    expect(redirect).toMatchObject({ from_path: '/2020/05/post-1', to_path: '/blog/post-1', status_code: 301 });
    expect((await run(workspace, source)).counts.redirect).toEqual({ unchanged: 1 });
  });
});
