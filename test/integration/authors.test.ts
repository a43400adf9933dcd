import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Author } from '../../src/modules/authors/authors.schemas.js';
import { buildTestApp, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { createPost, expectError, expectIssue, getPost, ISO, NO_SUCH_ID, postsApi, UUID } from '../helpers/posts.js';
import { bodyOf, contentVersion, queriesOf, resourceApi, type Page } from '../helpers/resources.js';

type Node = Record<string, unknown>;
/** JSON-LD is typed as a free-form object; tests read it as one. */
const ld = (jsonLd: object) => jsonLd as Node;
const graphOf = (author: Author) => ld(author.jsonLd)['@graph'] as Node[];
const personOf = (author: Author) => graphOf(author).find((node) => node['@type'] === 'Person');

describeEachDialect('authors', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, workspace } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const api = () => resourceApi(ctx, 'authors');
  const db = () => ctx.runtime.database.db;
  const create = async (body: Record<string, unknown>, as = key) => bodyOf<Author>(await api().create(as, body), 201);
  const get = async (idOrSlug: string, as = key) => bodyOf<Author>(await api().get(as, idOrSlug), 200);
  const list = async (query: Record<string, string | number | boolean>, as = key) =>
    bodyOf<Page<Author>>(await api().list(as, query), 200);

  describe('create', () => {
    it('answers 201 with the defaults, a derived slug and a JSON-LD Person', async () => {
      const author = await create({ displayName: 'Grace Hopper' });
      expect(author).toMatchObject({
        workspaceId: workspace.id,
        slug: 'grace-hopper',
        displayName: 'Grace Hopper',
        bio: null,
        credentials: null,
        avatarMediaId: null,
        avatarMedia: null,
        sameAs: [],
        isActive: true,
        seo: null,
        person: null,
      });
      expect(author.id).toMatch(UUID);
      expect(author.createdAt).toMatch(ISO);
      expect(author.updatedAt).toBe(author.createdAt);
      expect(ld(author.jsonLd)['@context']).toBe('https://schema.org');
      expect(personOf(author)).toMatchObject({ '@type': 'Person', name: 'Grace Hopper' });
      expect(await get(author.id)).toEqual(author);
      expect(await get('grace-hopper')).toEqual(author);
    });

    it('stores every writable field and embeds the avatar with its url', async () => {
      const mediaId = await insertMedia(db(), workspace.id, { filename: 'ada.png' });
      const body = {
        displayName: 'Ada Lovelace',
        slug: 'countess',
        bio: 'Wrote the first program.',
        credentials: 'Mathematician',
        avatarMediaId: mediaId,
        sameAs: ['https://example.com/ada', 'https://social.example/@ada'],
        isActive: false,
        seo: { title: 'Ada', robots: { index: false } },
        person: { jobTitle: 'Analyst', worksFor: 'Analytical Engines', knowsAbout: ['engines'] },
      };
      const author = await create(body);
      const { displayName, slug, bio, credentials, avatarMediaId, sameAs, isActive, seo, person } = author;
      expect({ displayName, slug, bio, credentials, avatarMediaId, sameAs, isActive, seo, person }).toEqual(body);
      expect(author.avatarMedia).toMatchObject({ id: mediaId, workspaceId: workspace.id });
      expect(author.avatarMedia!.url).toMatch(new RegExp(`/media/${workspace.id}/${mediaId}/ada\\.png$`));
      expect(personOf(author)).toMatchObject({
        name: 'Ada Lovelace',
        description: 'Wrote the first program.',
        image: author.avatarMedia!.url,
        sameAs: body.sameAs,
        jobTitle: 'Analyst',
        worksFor: { '@type': 'Organization', name: 'Analytical Engines' },
      });
    });

    it('builds absolute URLs in the JSON-LD from the site settings', async () => {
      const site = await ctx.createWorkspace();
      const siteKey = (await ctx.createKey(site, site.owner)).key;
      await db()
        .updateTable('workspaces')
        .set({ site_url: 'https://blog.example', author_url_pattern: '/authors/{slug}' })
        .where('id', '=', site.id)
        .execute();
      const author = await create({ displayName: 'Linus' }, siteKey);
      expect(graphOf(author)).toContainEqual(
        expect.objectContaining({ '@type': 'ProfilePage', url: 'https://blog.example/authors/linus' }),
      );
      expect(personOf(author)).toMatchObject({
        '@id': 'https://blog.example/authors/linus#person',
        url: 'https://blog.example/authors/linus',
      });
    });

    it('derives slugs with -2, -3 suffixes, from any script', async () => {
      const slugs = [];
      for (let i = 0; i < 3; i += 1) slugs.push((await create({ displayName: 'Émile Zöla' })).slug);
      expect(slugs).toEqual(['emile-zola', 'emile-zola-2', 'emile-zola-3']);
    });

    it('refuses an explicit slug that is taken (409) but not one taken in another workspace', async () => {
      await create({ displayName: 'First', slug: 'taken-author' });
      const before = await contentVersion(ctx, workspace.id);
      const body = expectError(
        await api().create(key, { displayName: 'Second', slug: 'taken-author' }),
        409,
        'CONFLICT',
      );
      expect(body.details).toMatchObject({ field: 'slug' });
      expect(await contentVersion(ctx, workspace.id)).toBe(before);
      const other = await ctx.ownerKey();
      expect((await create({ displayName: 'Elsewhere', slug: 'taken-author' }, other.key)).slug).toBe('taken-author');
    });
  });

  describe('validation', () => {
    it('names the field at fault', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, '/displayName'],
        [{ displayName: '' }, '/displayName'],
        [{ displayName: '   ' }, '/displayName'],
        [{ displayName: 'x'.repeat(101) }, '/displayName'],
        [{ displayName: 'A', slug: 'Not A Slug' }, '/slug'],
        [{ displayName: 'A', slug: crypto.randomUUID() }, '/slug'],
        [{ displayName: 'A', sameAs: ['not a uri'] }, '/sameAs/0'],
        [{ displayName: 'A', sameAs: Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`) }, '/sameAs'],
        [{ displayName: 'A', isActive: 'yes' }, '/isActive'],
        [{ displayName: 'A', avatarMediaId: 'not-a-uuid' }, '/avatarMediaId'],
        [{ displayName: 'A', seo: { title: 'x', colour: 'red' } }, '/seo/colour'],
        [{ displayName: 'A', person: { shoeSize: 44 } }, '/person/shoeSize'],
        [{ displayName: 'A', nickname: 'Al' }, '/nickname'],
      ];
      for (const [body, path] of cases) expectIssue(await api().create(key, body), path);
    });

    it('refuses read-only fields by name', async () => {
      for (const field of ['id', 'workspaceId', 'jsonLd', 'avatarMedia', 'createdAt', 'updatedAt']) {
        expectIssue(await api().create(key, { displayName: 'A', [field]: null }), `/${field}`, /read-only/);
      }
      const author = await create({ displayName: 'Read Only' });
      expectIssue(await api().patch(key, author.id, { jsonLd: {} }), '/jsonLd', /read-only/);
      expectIssue(await api().patch(key, author.id, {}), '');
    });

    it('refuses an avatar that is not media of this workspace, and writes nothing', async () => {
      const foreign = await ctx.ownerKey();
      const foreignMedia = await insertMedia(db(), foreign.workspace.id);
      const before = await contentVersion(ctx, workspace.id);
      for (const avatarMediaId of [foreignMedia, NO_SUCH_ID]) {
        expectIssue(await api().create(key, { displayName: 'Avatar Thief', avatarMediaId }), '/avatarMediaId');
      }
      expect((await list({ q: 'avatar thief' })).total).toBe(0);
      const author = await create({ displayName: 'Avatar Owner' });
      expectIssue(
        await api().patch(key, author.id, { avatarMediaId: foreignMedia, displayName: 'Renamed' }),
        '/avatarMediaId',
      );
      expect((await get(author.id)).displayName).toBe('Avatar Owner');
      expect(await contentVersion(ctx, workspace.id)).toBe(before + 1);
    });
  });

  describe('permissions', () => {
    it('reads need authors:read and writes authors:write; neither implies the other', async () => {
      const author = await create({ displayName: 'Guarded' });
      const reader = await ctx.memberKey(['authors:read'], workspace);
      const writer = await ctx.memberKey(['authors:write'], workspace);
      const poster = await ctx.memberKey(['posts:read', 'posts:write'], workspace);
      expect((await api().list(reader.key)).statusCode).toBe(200);
      expect((await api().get(reader.key, author.id)).statusCode).toBe(200);
      for (const denied of [writer.key, poster.key]) {
        expectError(await api().list(denied), 403, 'FORBIDDEN');
        expectError(await api().get(denied, author.id), 403, 'FORBIDDEN');
      }
      for (const denied of [reader.key, poster.key]) {
        expectError(await api().create(denied, { displayName: 'Nope' }), 403, 'FORBIDDEN');
        expectError(await api().patch(denied, author.id, { displayName: 'Nope' }), 403, 'FORBIDDEN');
        expectError(await api().remove(denied, author.id), 403, 'FORBIDDEN');
      }
      expect((await api().patch(writer.key, author.id, { bio: 'Edited by a writer' })).statusCode).toBe(200);
      expect((await api().remove(writer.key, author.id)).statusCode).toBe(200);
    });
  });

  describe('not found', () => {
    it('404 for a missing author and for another workspace’s, by id and by slug', async () => {
      const foreign = await ctx.ownerKey();
      const theirs = await create({ displayName: 'Foreign Author', slug: 'foreign-author' }, foreign.key);
      for (const idOrSlug of [NO_SUCH_ID, 'no-such-author', theirs.id, theirs.slug]) {
        expectError(await api().get(key, idOrSlug), 404, 'NOT_FOUND');
        expectError(await api().patch(key, idOrSlug, { bio: 'x' }), 404, 'NOT_FOUND');
        expectError(await api().remove(key, idOrSlug), 404, 'NOT_FOUND');
      }
      expect((await get(theirs.id, foreign.key)).bio).toBeNull();
    });
  });

  describe('list', () => {
    let listKey: string;
    let names: string[];
    beforeAll(async () => {
      const owner = await ctx.ownerKey();
      listKey = owner.key;
      names = ['Zoë Émile', 'Ångström Ann', '100% Pure', 'Under_Score', 'Bob Plain'];
      for (const [index, displayName] of names.entries()) {
        const author = await create({ displayName, isActive: displayName !== 'Bob Plain' }, listKey);
        // Distinct creation times, so "newest first" has one right answer.
        await db()
          .updateTable('authors')
          .set({ created_at: `2024-01-0${index + 1}T00:00:00.000Z` })
          .where('id', '=', author.id)
          .execute();
      }
    });
    const listed = async (query: Record<string, string | number | boolean>) =>
      (await list(query, listKey)).data.map((a) => a.displayName);

    it('is newest first by default, omits orderBy, and shows only this workspace', async () => {
      const page = await list({}, listKey);
      expect(page).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 5, totalPages: 1 });
      expect(page).not.toHaveProperty('orderBy');
      expect(page.data.map((a) => a.displayName)).toEqual([...names].reverse());
    });

    it('sorts by displayName, and pages', async () => {
      const owner = await ctx.ownerKey();
      for (const displayName of ['Carol', 'Eve', 'Alice', 'Dave', 'Bob']) await create({ displayName }, owner.key);
      const page = await list({ orderBy: 'displayName', order: 'asc', pageSize: 2, page: 2 }, owner.key);
      expect(page).toMatchObject({
        page: 2,
        pageSize: 2,
        order: 'asc',
        orderBy: 'displayName',
        total: 5,
        totalPages: 3,
      });
      expect(page.data.map((a) => a.displayName)).toEqual(['Carol', 'Dave']);
      expect(
        (await list({ orderBy: 'displayName', order: 'desc', pageSize: 3 }, owner.key)).data.map((a) => a.displayName),
      ).toEqual(['Eve', 'Dave', 'Carol']);
      const past = await list({ page: 9 }, listKey);
      expect(past.data).toEqual([]);
      expect(past.total).toBe(5);
    });

    it('q is case-insensitive for any script, literal for % and _, and matches the slug', async () => {
      expect(await listed({ q: 'ÉMILE' })).toEqual(['Zoë Émile']);
      expect(await listed({ q: 'ångström' })).toEqual(['Ångström Ann']);
      expect(await listed({ q: '%' })).toEqual(['100% Pure']);
      expect(await listed({ q: '_' })).toEqual(['Under_Score']);
      expect(await listed({ q: 'angstrom-ann' })).toEqual(['Ångström Ann']);
      expect(await listed({ q: 'nobody' })).toEqual([]);
    });

    it('filters on isActive', async () => {
      expect(await listed({ isActive: false })).toEqual(['Bob Plain']);
      expect((await list({ isActive: true }, listKey)).total).toBe(4);
      expectIssue(await api().list(listKey, { isActive: 'maybe' }), '/isActive');
    });

    it('refuses bad pagination', async () => {
      expectIssue(await api().list(listKey, { pageSize: 0 }), '/pageSize');
      expectIssue(await api().list(listKey, { pageSize: 101 }), '/pageSize');
      expectIssue(await api().list(listKey, { page: 0 }), '/page');
      expectIssue(await api().list(listKey, { order: 'asc' }), '/order');
      expectIssue(await api().list(listKey, { orderBy: 'bio' }), '/orderBy');
      expectIssue(await api().list(listKey, { pagesize: 5 }), '/pagesize');
    });

    it('costs the same number of queries for 10 rows as for 50, avatars included', async () => {
      const owner = await ctx.ownerKey();
      for (let i = 0; i < 50; i += 1) {
        const avatarMediaId = await insertMedia(db(), owner.workspace.id);
        await create({ displayName: `Bulk ${i}`, avatarMediaId }, owner.key);
      }
      let small: Page<Author> | undefined;
      let large: Page<Author> | undefined;
      const ten = await queriesOf(ctx, async () => (small = await list({ pageSize: 10 }, owner.key)));
      const fifty = await queriesOf(ctx, async () => (large = await list({ pageSize: 50 }, owner.key)));
      expect(small!.data).toHaveLength(10);
      expect(large!.data).toHaveLength(50);
      expect(large!.data.every((a) => a.avatarMedia?.url)).toBe(true);
      expect(fifty).toBe(ten);
    });
  });

  describe('update', () => {
    it('changes only the fields sent; a new displayName keeps the slug', async () => {
      const mediaId = await insertMedia(db(), workspace.id);
      const author = await create({
        displayName: 'Old Name',
        bio: 'Kept',
        avatarMediaId: mediaId,
        sameAs: ['https://example.com/x'],
      });
      const updated = bodyOf<Author>(
        await api().patch(key, 'old-name', { displayName: 'New Name', credentials: 'PhD' }),
        200,
      );
      expect(updated).toMatchObject({
        id: author.id,
        slug: 'old-name',
        displayName: 'New Name',
        bio: 'Kept',
        credentials: 'PhD',
        avatarMediaId: mediaId,
      });
      expect(updated.updatedAt >= author.updatedAt).toBe(true);
      expect(updated.createdAt).toBe(author.createdAt);
      expect(personOf(updated)?.name).toBe('New Name');
      expect((await list({ q: 'new name' })).data.map((a) => a.id)).toEqual([author.id]);

      const cleared = bodyOf<Author>(
        await api().patch(key, author.id, { avatarMediaId: null, bio: null, person: null, seo: null }),
        200,
      );
      expect(cleared).toMatchObject({ avatarMediaId: null, avatarMedia: null, bio: null, person: null, seo: null });
    });

    it('a new slug is checked like on create: 409 when taken, its own slug is fine', async () => {
      await create({ displayName: 'Holder', slug: 'held-slug' });
      const author = await create({ displayName: 'Mover' });
      expectError(await api().patch(key, author.id, { slug: 'held-slug' }), 409, 'CONFLICT');
      expect((await api().patch(key, author.id, { slug: 'mover' })).statusCode).toBe(200);
      const moved = bodyOf<Author>(await api().patch(key, author.id, { slug: 'moved-on' }), 200);
      expect(moved.slug).toBe('moved-on');
      expect((await get('moved-on')).id).toBe(author.id);
      expectError(await api().get(key, 'mover'), 404, 'NOT_FOUND');
    });
  });

  describe('delete', () => {
    it('answers 200 with the author as it was; it is gone afterwards', async () => {
      const author = await create({ displayName: 'Short Lived' });
      const deleted = bodyOf<Author>(await api().remove(key, 'short-lived'), 200);
      expect(deleted).toEqual(author);
      expectError(await api().get(key, author.id), 404, 'NOT_FOUND');
    });

    it('409 while attached to a live post, naming how many; allowed once only soft-deleted posts hold it', async () => {
      const author = await create({ displayName: 'Prolific' });
      const posts = postsApi(ctx);
      const first = await createPost(posts, key, { title: 'One', authorId: author.id });
      const second = await createPost(posts, key, { title: 'Two', authorId: author.id });
      const before = await contentVersion(ctx, workspace.id);
      const refused = expectError(await api().remove(key, author.id), 409, 'CONFLICT');
      expect(refused.details).toMatchObject({ posts: 2 });
      expect(await contentVersion(ctx, workspace.id)).toBe(before);
      expect((await get(author.id)).id).toBe(author.id);

      expect((await posts.remove(key, first.id)).statusCode).toBe(200);
      expect(expectError(await api().remove(key, author.id), 409, 'CONFLICT').details).toMatchObject({ posts: 1 });
      expect((await posts.remove(key, second.id)).statusCode).toBe(200);
      expect((await api().remove(key, author.id)).statusCode).toBe(200);
      const rows = await db()
        .selectFrom('posts')
        .select('author_id')
        .where('id', 'in', [first.id, second.id])
        .execute();
      expect(rows.map((row) => row.author_id)).toEqual([null, null]);
    });
  });

  it('every write bumps the content version once; posts embedding the author see a rename at once', async () => {
    const version = () => contentVersion(ctx, workspace.id);
    const start = await version();
    const author = await create({ displayName: 'Embedded Writer' });
    expect(await version()).toBe(start + 1);
    const posts = postsApi(ctx);
    const post = await createPost(posts, key, { title: 'Embedding', authorId: author.id });
    expect(post.author?.displayName).toBe('Embedded Writer');

    const afterPost = await version();
    await api().patch(key, author.id, { displayName: 'Renamed Writer', slug: 'renamed-writer' });
    expect(await version()).toBe(afterPost + 1);
    const read = await getPost(posts, key, post.id);
    expect(read.author).toMatchObject({ id: author.id, displayName: 'Renamed Writer', slug: 'renamed-writer' });
    const articleAuthor = (ld(read.jsonLd)['@graph'] as Node[])[0]!.author as Node;
    expect(articleAuthor.name).toBe('Renamed Writer');

    await posts.remove(key, post.id);
    const beforeDelete = await version();
    await api().remove(key, author.id);
    expect(await version()).toBe(beforeDelete + 1);
  });
});
