import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tag } from '../../src/modules/tags/tags.schemas.js';
import { buildTestApp, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  createPost,
  expectError,
  expectIssue,
  getPost,
  ISO,
  listPosts,
  NO_SUCH_ID,
  postsApi,
  UUID,
} from '../helpers/posts.js';
import { bodyOf, contentVersion, queriesOf, resourceApi, type Page } from '../helpers/resources.js';

describeEachDialect('tags', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, workspace } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const api = () => resourceApi(ctx, 'tags');
  const db = () => ctx.runtime.database.db;
  const create = async (body: Record<string, unknown>, as = key) => bodyOf<Tag>(await api().create(as, body), 201);
  const get = async (idOrSlug: string, as = key) => bodyOf<Tag>(await api().get(as, idOrSlug), 200);
  const list = async (query: Record<string, string | number | boolean>, as = key) =>
    bodyOf<Page<Tag>>(await api().list(as, query), 200);

  describe('create', () => {
    it('answers 201 with a derived slug; readable by id and by slug', async () => {
      const tag = await create({ name: 'TypeScript' });
      expect(tag).toEqual({
        id: expect.stringMatching(UUID),
        workspaceId: workspace.id,
        slug: 'typescript',
        name: 'TypeScript',
        seo: null,
        createdAt: expect.stringMatching(ISO),
      });
      expect(await get(tag.id)).toEqual(tag);
      expect(await get('typescript')).toEqual(tag);
      const withSeo = await create({
        name: 'Rust',
        slug: 'rust-lang',
        seo: { title: 'Rust posts', secondaryKeywords: ['cargo'] },
      });
      expect(withSeo).toMatchObject({ slug: 'rust-lang', seo: { title: 'Rust posts', secondaryKeywords: ['cargo'] } });
    });

    it('derives slugs with -2, -3 suffixes, from any script; an explicit taken slug is a 409', async () => {
      const slugs = [];
      for (let i = 0; i < 3; i += 1) slugs.push((await create({ name: 'Señor Ñandú' })).slug);
      expect(slugs).toEqual(['senor-nandu', 'senor-nandu-2', 'senor-nandu-3']);
      const before = await contentVersion(ctx, workspace.id);
      expect(
        expectError(await api().create(key, { name: 'Other', slug: 'senor-nandu' }), 409, 'CONFLICT').details,
      ).toMatchObject({ field: 'slug' });
      expect(await contentVersion(ctx, workspace.id)).toBe(before);
      const other = await ctx.ownerKey();
      expect((await create({ name: 'Elsewhere', slug: 'senor-nandu' }, other.key)).slug).toBe('senor-nandu');
    });

    it('names the field at fault', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, '/name'],
        [{ name: '' }, '/name'],
        [{ name: '\t' }, '/name'],
        [{ name: 'x'.repeat(101) }, '/name'],
        [{ name: 42 }, '/name'],
        [{ name: 'A', slug: 'UPPER' }, '/slug'],
        [{ name: 'A', slug: 'x'.repeat(201) }, '/slug'],
        [{ name: 'A', slug: crypto.randomUUID() }, '/slug'],
        [{ name: 'A', seo: { canonicalUrl: 'not a url' } }, '/seo/canonicalUrl'],
        [{ name: 'A', description: 'tags have none' }, '/description'],
      ];
      for (const [body, path] of cases) expectIssue(await api().create(key, body), path);
      for (const field of ['id', 'workspaceId', 'createdAt', 'updatedAt']) {
        expectIssue(await api().create(key, { name: 'A', [field]: 'x' }), `/${field}`, /read-only/);
      }
      const tag = await create({ name: 'Patched Badly' });
      expectIssue(await api().patch(key, tag.id, {}), '');
      expectIssue(await api().patch(key, tag.id, { name: '' }), '/name');
      expect((await get(tag.id)).name).toBe('Patched Badly');
    });
  });

  describe('permissions and lookup', () => {
    it('reads need tags:read and writes tags:write; neither implies the other', async () => {
      const tag = await create({ name: 'Guarded' });
      const reader = await ctx.memberKey(['tags:read'], workspace);
      const writer = await ctx.memberKey(['tags:write'], workspace);
      const poster = await ctx.memberKey(['posts:read', 'posts:write'], workspace);
      expect((await api().list(reader.key)).statusCode).toBe(200);
      expect((await api().get(reader.key, tag.id)).statusCode).toBe(200);
      for (const denied of [writer.key, poster.key]) {
        expectError(await api().list(denied), 403, 'FORBIDDEN');
        expectError(await api().get(denied, tag.slug), 403, 'FORBIDDEN');
      }
      for (const denied of [reader.key, poster.key]) {
        expectError(await api().create(denied, { name: 'Nope' }), 403, 'FORBIDDEN');
        expectError(await api().patch(denied, tag.id, { name: 'Nope' }), 403, 'FORBIDDEN');
        expectError(await api().remove(denied, tag.id), 403, 'FORBIDDEN');
      }
      expect((await api().patch(writer.key, tag.id, { name: 'Guarded Still' })).statusCode).toBe(200);
      expect((await api().remove(writer.key, tag.id)).statusCode).toBe(200);
    });

    it('404 for a missing tag and for another workspace’s, by id and by slug', async () => {
      const foreign = await ctx.ownerKey();
      const theirs = await create({ name: 'Foreign Tag' }, foreign.key);
      for (const idOrSlug of [NO_SUCH_ID, 'no-such-tag', theirs.id, theirs.slug]) {
        expectError(await api().get(key, idOrSlug), 404, 'NOT_FOUND');
        expectError(await api().patch(key, idOrSlug, { name: 'Mine Now' }), 404, 'NOT_FOUND');
        expectError(await api().remove(key, idOrSlug), 404, 'NOT_FOUND');
      }
      expect((await get(theirs.id, foreign.key)).name).toBe('Foreign Tag');
    });
  });

  describe('list', () => {
    let listKey: string;
    const names = ['Ökonomie', 'C#', '50%', 'snake_case', 'Go'];
    beforeAll(async () => {
      listKey = (await ctx.ownerKey()).key;
      for (const [index, name] of names.entries()) {
        const tag = await create({ name }, listKey);
        await db()
          .updateTable('tags')
          .set({ created_at: `2024-01-0${index + 1}T00:00:00.000Z` })
          .where('id', '=', tag.id)
          .execute();
      }
    });
    const listed = async (query: Record<string, string | number | boolean>) =>
      (await list(query, listKey)).data.map((t) => t.name);

    it('is newest first by default, omits orderBy, and shows only this workspace', async () => {
      const page = await list({}, listKey);
      expect(page).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 5, totalPages: 1 });
      expect(page).not.toHaveProperty('orderBy');
      expect(page.data.map((t) => t.name)).toEqual([...names].reverse());
      expect(await listed({ orderBy: 'createdAt', order: 'asc' })).toEqual(names);
    });

    it('sorts by name and pages', async () => {
      const page = await list({ orderBy: 'name', order: 'asc', q: 'o', pageSize: 1, page: 2 }, listKey);
      expect(page).toMatchObject({ orderBy: 'name', order: 'asc', total: 2, totalPages: 2, page: 2, pageSize: 1 });
      expect(page.data.map((t) => t.name)).toEqual(['Ökonomie']);
      expect((await list({ page: 7 }, listKey)).data).toEqual([]);
    });

    it('q is case-insensitive for any script, literal for % and _, and matches the slug', async () => {
      expect(await listed({ q: 'ÖKO' })).toEqual(['Ökonomie']);
      expect(await listed({ q: '%' })).toEqual(['50%']);
      expect(await listed({ q: '_' })).toEqual(['snake_case']);
      expect(await listed({ q: 'snake-case' })).toEqual(['snake_case']);
      expect(await listed({ q: 'c#' })).toEqual(['C#']);
    });

    it('refuses bad pagination', async () => {
      expectIssue(await api().list(listKey, { pageSize: 0 }), '/pageSize');
      expectIssue(await api().list(listKey, { pageSize: 101 }), '/pageSize');
      expectIssue(await api().list(listKey, { order: 'asc' }), '/order');
      expectIssue(await api().list(listKey, { orderBy: 'updatedAt' }), '/orderBy');
      expectIssue(await api().list(listKey, { isActive: true }), '/isActive');
    });

    it('costs the same number of queries for 10 rows as for 50', async () => {
      const owner = await ctx.ownerKey();
      for (let i = 0; i < 50; i += 1) await create({ name: `Bulk ${i}` }, owner.key);
      let large: Page<Tag> | undefined;
      const ten = await queriesOf(ctx, () => list({ pageSize: 10 }, owner.key));
      const fifty = await queriesOf(ctx, async () => (large = await list({ pageSize: 50 }, owner.key)));
      expect(large!.data).toHaveLength(50);
      expect(fifty).toBe(ten);
    });
  });

  describe('update and delete', () => {
    it('changes only the fields sent; a new name keeps the slug; posts show the rename on their next read', async () => {
      const tag = await create({ name: 'Old Tag', seo: { title: 'Kept' } });
      const posts = postsApi(ctx);
      const post = await createPost(posts, key, { title: 'Tagged Post' });
      expect((await posts.attach(key, post.id, [tag.id])).statusCode).toBe(200);

      const before = await contentVersion(ctx, workspace.id);
      const updated = bodyOf<Tag>(await api().patch(key, 'old-tag', { name: 'New Tag' }), 200);
      expect(updated).toEqual({ ...tag, name: 'New Tag' });
      expect(await contentVersion(ctx, workspace.id)).toBe(before + 1);
      expect((await getPost(posts, key, post.id)).tags).toEqual([updated]);
      expect((await list({ q: 'new tag' })).data.map((t) => t.id)).toEqual([tag.id]);

      await create({ name: 'Holder', slug: 'held-tag' });
      expectError(await api().patch(key, tag.id, { slug: 'held-tag' }), 409, 'CONFLICT');
      expect(bodyOf<Tag>(await api().patch(key, tag.id, { slug: 'fresh-tag' }), 200).slug).toBe('fresh-tag');
      expect((await get('fresh-tag')).id).toBe(tag.id);
    });

    it('delete answers 200 with the tag as it was and detaches it from every post', async () => {
      const tag = await create({ name: 'Doomed' });
      const keeper = await create({ name: 'Keeper' });
      const posts = postsApi(ctx);
      const first = await createPost(posts, key, { title: 'First Tagged' });
      const second = await createPost(posts, key, { title: 'Second Tagged' });
      for (const post of [first, second])
        expect((await posts.attach(key, post.id, [tag.id, keeper.id])).statusCode).toBe(200);
      expect((await listPosts(posts, key, { tagId: tag.id })).total).toBe(2);

      const before = await contentVersion(ctx, workspace.id);
      expect(bodyOf<Tag>(await api().remove(key, 'doomed'), 200)).toEqual(tag);
      // One content event for the tag, and one for each post it leaves (their versions moved).
      expect(await contentVersion(ctx, workspace.id)).toBe(before + 3);
      expectError(await api().get(key, tag.id), 404, 'NOT_FOUND');
      for (const post of [first, second])
        expect((await getPost(posts, key, post.id)).tags.map((t) => t.id)).toEqual([keeper.id]);
      expect((await listPosts(posts, key, { tagId: tag.id })).total).toBe(0);
      const links = await db().selectFrom('post_tags').select('post_id').where('tag_id', '=', tag.id).execute();
      expect(links).toEqual([]);
    });

    it('create bumps the content version once', async () => {
      const before = await contentVersion(ctx, workspace.id);
      await create({ name: 'Counted' });
      expect(await contentVersion(ctx, workspace.id)).toBe(before + 1);
    });
  });
});
