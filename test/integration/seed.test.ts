import fs from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BLOCK_TYPES, type StoredBlock } from '@quire/blocks';
import { BodyWrite } from '../../src/blocks/blocks.schemas.js';
import { deriveBody } from '../../src/blocks/derive.js';
import type { PostRow } from '../../src/db/schema.js';
import { validatorCompiler } from '../../src/http/validation.js';
import { Person } from '../../src/modules/seo/seo.schemas.js';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { Seo } from '../../src/modules/seo/seo.schemas.js';
import { searchWords } from '../../src/shared/search-words.js';
import { pngSize } from '../../src/seed/png.js';
import { seedWorkspace, type SeedSummary } from '../../src/seed/seed.js';
import { buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { scoreColumns } from '../../src/modules/posts/posts.scores.js';

const ANCHOR = new Date('2026-03-01T00:00:00.000Z');
const TWO_YEARS_MS = 730 * 86_400_000;
const N = 60;

// What the API would accept on a write: seeded content must be content a client could have sent.
const validBody = validatorCompiler({ schema: Type.Object({ bodyJson: BodyWrite }), httpPart: 'body' });
const validSeo = validatorCompiler({ schema: Seo, httpPart: 'body' });
const validPerson = validatorCompiler({ schema: Person, httpPart: 'body' });

describeEachDialect('quire seed', (dialect) => {
  let ctx: TestContext;
  let seeded: { workspace: TestWorkspace; key: string; summary: SeedSummary };
  let posts: PostRow[];

  const db = () => ctx.runtime.database.db;
  async function seed(count: number) {
    const { workspace, key } = await ctx.ownerKey();
    const summary = await seedWorkspace(ctx.runtime.database, {
      workspaceId: workspace.id,
      posts: count,
      storage: createMediaStorage(ctx.config),
      anchor: ANCHOR,
    });
    return { workspace, key, summary };
  }
  const postsOf = (workspaceId: string) =>
    db()
      .selectFrom('posts')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('slug')
      .execute();
  const mediaOf = (workspaceId: string) =>
    db().selectFrom('media').selectAll().where('workspace_id', '=', workspaceId).execute();

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    seeded = await seed(N);
    posts = await postsOf(seeded.workspace.id);
  });
  afterAll(() => ctx?.close());

  it('reports and stores 12 authors, 30 categories, 50 tags, 30 media and N posts', async () => {
    expect(seeded.summary).toMatchObject({
      workspaceId: seeded.workspace.id,
      posts: N,
      authors: 12,
      categories: 30,
      tags: 50,
      media: 30,
    });
    expect(seeded.summary.seconds).toBeGreaterThan(0);
    for (const [table, count] of [
      ['authors', 12],
      ['categories', 30],
      ['tags', 50],
      ['media', 30],
      ['posts', N],
    ] as const) {
      const rows = await db().selectFrom(table).select('id').where('workspace_id', '=', seeded.workspace.id).execute();
      expect(rows.length, table).toBe(count);
    }
  });

  it('builds a three-level category tree: 3 roots, 9 children, 18 grandchildren', async () => {
    const rows = await db()
      .selectFrom('categories')
      .selectAll()
      .where('workspace_id', '=', seeded.workspace.id)
      .execute();
    const roots = rows.filter((c) => c.parent_id === null);
    const children = rows.filter((c) => roots.some((r) => r.id === c.parent_id));
    const grandchildren = rows.filter((c) => children.some((p) => p.id === c.parent_id));
    expect([roots.length, children.length, grandchildren.length]).toEqual([3, 9, 18]);
    expect(new Set(rows.map((c) => c.slug)).size).toBe(30);
  });

  it('writes a real PNG for every media row, where the row says, with the width and height it says', async () => {
    const media = await mediaOf(seeded.workspace.id);
    for (const row of media) {
      expect(row.storage_path).toBe(`${seeded.workspace.id}/${row.id}/${row.filename}`);
      expect(row.mime_type).toBe('image/png');
      expect(row.alt).toBeTruthy();
      const file = fs.readFileSync(path.join(ctx.config.dataDir, 'media', row.storage_path));
      expect(pngSize(file)).toEqual({ width: row.width, height: row.height });
      expect(Number(row.size_bytes)).toBe(file.length);
    }
  });

  it('gives every author an avatar, person data, sameAs URLs and a bio', async () => {
    const media = new Set((await mediaOf(seeded.workspace.id)).map((m) => m.id));
    const authors = await db()
      .selectFrom('authors')
      .selectAll()
      .where('workspace_id', '=', seeded.workspace.id)
      .execute();
    for (const author of authors) {
      expect(media.has(author.avatar_media_id!)).toBe(true);
      const person = JSON.parse(author.person!) as Record<string, unknown>;
      expect(validPerson(person), JSON.stringify(person)).toBe(true);
      expect(person).toMatchObject({
        jobTitle: expect.any(String),
        worksFor: expect.any(String),
        knowsAbout: expect.any(Array),
      });
      expect((JSON.parse(author.same_as) as string[]).every((url) => url.startsWith('https://'))).toBe(true);
      expect(author.bio!.length).toBeGreaterThan(40);
    }
  });

  it('uses every block type, never schedules, and mixes published, draft and archived', () => {
    const types = new Set(posts.flatMap((p) => (JSON.parse(p.body_json) as StoredBlock[]).map((b) => b.type)));
    expect([...types].sort()).toEqual([...BLOCK_TYPES].sort());
    const statuses = new Set(posts.map((p) => p.status));
    expect(statuses).toEqual(new Set(['published', 'draft', 'archived']));
    for (const post of posts) {
      expect(post.scheduled_at).toBeNull();
      expect(post.published_at === null).toBe(post.status === 'draft');
      expect(post.created_at <= post.updated_at).toBe(true);
      if (post.published_at)
        expect(Date.parse(post.published_at)).toBeGreaterThanOrEqual(ANCHOR.getTime() - TWO_YEARS_MS);
      expect(Date.parse(post.updated_at)).toBeLessThanOrEqual(ANCHOR.getTime());
      expect(post.schema_type).toBe('BlogPosting');
      // Seeded posts are scored exactly as a write through the API would score them.
      expect([post.seo_score, post.readability_score]).toEqual(Object.values(scoreColumns(post)));
    }
  });

  it('points images, featured media, authors, categories, tags and related posts at rows of the workspace', async () => {
    const ws = seeded.workspace.id;
    const ids = async (table: 'media' | 'authors' | 'categories' | 'tags') =>
      new Set((await db().selectFrom(table).select('id').where('workspace_id', '=', ws).execute()).map((r) => r.id));
    const [media, authors, categories, tags] = await Promise.all([
      ids('media'),
      ids('authors'),
      ids('categories'),
      ids('tags'),
    ]);
    const postIds = new Set(posts.map((p) => p.id));
    for (const post of posts) {
      for (const block of JSON.parse(post.body_json) as StoredBlock[])
        if (block.type === 'image') expect(media.has(block.mediaId)).toBe(true);
      if (post.featured_media_id !== null) expect(media.has(post.featured_media_id)).toBe(true);
      if (post.author_id !== null) expect(authors.has(post.author_id)).toBe(true);
      if (post.category_id !== null) expect(categories.has(post.category_id)).toBe(true);
    }
    expect(posts.filter((p) => p.featured_media_id && p.author_id && p.category_id).length).toBeGreaterThan(N / 2);
    const postTags = await db().selectFrom('post_tags').selectAll().where('workspace_id', '=', ws).execute();
    expect(postTags.every((row) => tags.has(row.tag_id) && postIds.has(row.post_id))).toBe(true);
    const perPost = new Map<string, number>();
    for (const row of postTags) perPost.set(row.post_id, (perPost.get(row.post_id) ?? 0) + 1);
    expect(Math.max(...perPost.values())).toBeLessThanOrEqual(5);
    const related = await db().selectFrom('related_posts').selectAll().where('workspace_id', '=', ws).execute();
    expect(related.length).toBeGreaterThan(0);
    expect(
      related.every(
        (row) => postIds.has(row.post_id) && postIds.has(row.related_post_id) && row.post_id !== row.related_post_id,
      ),
    ).toBe(true);
  });

  it('stores the derived columns exactly as deriveBody and searchWords compute them', () => {
    for (const post of posts) {
      const blocks = JSON.parse(post.body_json) as StoredBlock[];
      expect(validBody({ bodyJson: blocks }), post.slug).toBe(true);
      const ids = blocks.flatMap((b) => (b.type === 'heading' ? [b.id] : []));
      expect(new Set(ids).size).toBe(ids.length);
      const derived = deriveBody(blocks);
      expect(derived.blocks).toEqual(blocks);
      expect(post.body_text).toBe(derived.bodyText);
      expect(post.word_count).toBe(derived.wordCount);
      expect(post.reading_time_min).toBe(derived.readingTimeMin);
      expect(JSON.parse(post.toc_items)).toEqual(derived.tocItems);
      expect(post.search_head).toBe(searchWords(post.title, post.excerpt));
      expect(post.search_text).toBe(searchWords(post.body_text));
      if (post.seo !== null) expect(validSeo(JSON.parse(post.seo)), post.seo).toBe(true);
    }
    expect(
      posts.filter((p) => p.seo !== null && (JSON.parse(p.seo) as { focusKeyword?: string }).focusKeyword).length,
    ).toBeGreaterThan(N / 2);
  });

  it('reads back through the external API with the owner key', async () => {
    const list = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/posts?pageSize=100`,
      headers: { 'x-api-key': seeded.key },
    });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json() as { total: number; data: Array<{ slug: string }> };
    expect(body.total).toBe(N);
    expect(body.data).toHaveLength(N);
    const one = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/posts/${posts[0]!.slug}`,
      headers: { 'x-api-key': seeded.key },
    });
    expect(one.statusCode, one.body).toBe(200);
  });

  it('refuses a workspace that already has content, and leaves it as it was', async () => {
    const attempt = seedWorkspace(ctx.runtime.database, {
      workspaceId: seeded.workspace.id,
      posts: 5,
      storage: createMediaStorage(ctx.config),
      anchor: ANCHOR,
    });
    await expect(attempt).rejects.toThrow(/already has content \(60 posts, 12 authors, 30 categories, 50 tags\)/);
    expect(await mediaOf(seeded.workspace.id)).toHaveLength(30);
    expect(fs.readdirSync(path.join(ctx.config.dataDir, 'media', seeded.workspace.id))).toHaveLength(30);
  });

  it('seeds the same content for the same N into another workspace, with ids of its own', async () => {
    const again = await seed(N);
    const other = await postsOf(again.workspace.id);
    const project = async (rows: PostRow[], workspaceId: string) => {
      const filenames = new Map((await mediaOf(workspaceId)).map((m) => [m.id, m.filename]));
      // Media ids differ by workspace; the file each image shows does not.
      return rows.map((p) => ({
        title: p.title,
        slug: p.slug,
        excerpt: p.excerpt,
        status: p.status,
        body: (JSON.parse(p.body_json) as StoredBlock[]).map((b) =>
          b.type === 'image' ? { ...b, mediaId: filenames.get(b.mediaId) } : b,
        ),
      }));
    };
    expect(await project(other, again.workspace.id)).toEqual(await project(posts, seeded.workspace.id));
    expect(other.some((p) => posts.some((q) => q.id === p.id))).toBe(false);
  });

  it('gives bodies a median of about 1,200 words', async () => {
    const { workspace } = await seed(200);
    const counts = (await postsOf(workspace.id)).map((p) => p.word_count).sort((a, b) => a - b);
    const median = (counts[99]! + counts[100]!) / 2;
    expect(median).toBeGreaterThanOrEqual(1000);
    expect(median).toBeLessThanOrEqual(1400);
    expect(counts[0]).toBeLessThan(800);
    expect(counts[199]).toBeGreaterThan(2000);
  });
});
