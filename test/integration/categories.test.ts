import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '../../src/modules/categories/categories.schemas.js';
import { buildTestApp, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { createPost, expectError, expectIssue, getPost, ISO, NO_SUCH_ID, postsApi, UUID } from '../helpers/posts.js';
import { bodyOf, contentVersion, queriesOf, resourceApi, type Page } from '../helpers/resources.js';

type Node = Record<string, unknown>;
/** JSON-LD is typed as a free-form object; tests read it as one. */
const ld = (jsonLd: object) => jsonLd as Node;
const nodeOf = (category: Category, type: string) =>
  (ld(category.jsonLd)['@graph'] as Node[]).find((node) => node['@type'] === type);

describeEachDialect('categories', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key, workspace } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const api = () => resourceApi(ctx, 'categories');
  const db = () => ctx.runtime.database.db;
  const create = async (body: Record<string, unknown>, as = key) => bodyOf<Category>(await api().create(as, body), 201);
  const get = async (idOrSlug: string, as = key) => bodyOf<Category>(await api().get(as, idOrSlug), 200);
  const patch = async (idOrSlug: string, body: Record<string, unknown>, as = key) =>
    bodyOf<Category>(await api().patch(as, idOrSlug, body), 200);
  const list = async (query: Record<string, string | number | boolean>, as = key) =>
    bodyOf<Page<Category>>(await api().list(as, query), 200);

  /** root → child → leaf, with unique slugs for this test. */
  async function tree(as = key) {
    const tag = crypto.randomBytes(3).toString('hex');
    const root = await create({ name: `Root ${tag}` }, as);
    const child = await create({ name: `Child ${tag}`, parentId: root.id }, as);
    const leaf = await create({ name: `Leaf ${tag}`, parentId: child.id }, as);
    return { root, child, leaf };
  }

  describe('create', () => {
    it('answers 201 with the defaults, a derived slug, its path and a JSON-LD CollectionPage', async () => {
      const category = await create({ name: 'Databases' });
      expect(category).toMatchObject({
        workspaceId: workspace.id,
        slug: 'databases',
        name: 'Databases',
        description: null,
        path: 'databases',
        parentId: null,
        sortOrder: 0,
        isActive: true,
        seo: null,
        collectionMetadata: { includeChildCategories: false, sortPostsBy: 'publishedAt' },
      });
      expect(category.id).toMatch(UUID);
      expect(category.createdAt).toMatch(ISO);
      expect(category.updatedAt).toBe(category.createdAt);
      expect(ld(category.jsonLd)['@context']).toBe('https://schema.org');
      expect(nodeOf(category, 'CollectionPage')).toMatchObject({ name: 'Databases' });
      expect(await get(category.id)).toEqual(category);
      expect(await get('databases')).toEqual(category);
    });

    it('stores every writable field', async () => {
      const parent = await create({ name: 'Engineering' });
      const body = {
        name: 'Query Planning',
        slug: 'planning',
        description: 'How planners pick a plan.',
        parentId: parent.id,
        sortOrder: -3,
        isActive: false,
        seo: { title: 'Planning', description: 'Plans' },
        collectionMetadata: { includeChildCategories: true },
      };
      const category = await create(body);
      expect(category).toMatchObject({
        ...body,
        path: 'engineering/planning',
        collectionMetadata: { includeChildCategories: true, sortPostsBy: 'publishedAt' },
      });
      expect(nodeOf(category, 'CollectionPage')).toMatchObject({
        name: 'Query Planning',
        description: 'How planners pick a plan.',
      });
    });

    it('builds the JSON-LD URLs and breadcrumbs from the site settings and the path', async () => {
      const site = await ctx.createWorkspace();
      const siteKey = (await ctx.createKey(site, site.owner)).key;
      await db()
        .updateTable('workspaces')
        .set({ site_url: 'https://blog.example', category_url_pattern: '/c/{path}' })
        .where('id', '=', site.id)
        .execute();
      const { leaf, root, child } = await tree(siteKey);
      const url = `https://blog.example/c/${leaf.path}`;
      expect(nodeOf(leaf, 'CollectionPage')).toMatchObject({ '@id': url, url });
      const crumbs = nodeOf(leaf, 'BreadcrumbList')!.itemListElement as Node[];
      expect(crumbs.map((item) => item.name)).toEqual([root.name, child.name, leaf.name]);
      expect(crumbs[2]!.item).toBe(url);
    });

    it('derives slugs with -2, -3 suffixes; an explicit taken slug is a 409', async () => {
      const slugs = [];
      for (let i = 0; i < 3; i += 1) slugs.push((await create({ name: 'Café Culture' })).slug);
      expect(slugs).toEqual(['cafe-culture', 'cafe-culture-2', 'cafe-culture-3']);
      const before = await contentVersion(ctx, workspace.id);
      expect(
        expectError(await api().create(key, { name: 'Other', slug: 'cafe-culture' }), 409, 'CONFLICT').details,
      ).toMatchObject({ field: 'slug' });
      expect(await contentVersion(ctx, workspace.id)).toBe(before);
    });

    it('refuses a parent that is missing or in another workspace (400 /parentId), writing nothing', async () => {
      const foreign = await ctx.ownerKey();
      const theirs = await create({ name: 'Theirs' }, foreign.key);
      for (const parentId of [theirs.id, NO_SUCH_ID]) {
        expectIssue(await api().create(key, { name: 'Orphan Attempt', parentId }), '/parentId');
      }
      expect((await list({ q: 'orphan attempt' })).total).toBe(0);
    });
  });

  describe('validation', () => {
    it('names the field at fault', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, '/name'],
        [{ name: ' ' }, '/name'],
        [{ name: 'x'.repeat(101) }, '/name'],
        [{ name: 'A', slug: 'Bad Slug' }, '/slug'],
        [{ name: 'A', slug: crypto.randomUUID() }, '/slug'],
        [{ name: 'A', description: 'x'.repeat(1001) }, '/description'],
        [{ name: 'A', parentId: 'root' }, '/parentId'],
        [{ name: 'A', sortOrder: 1.5 }, '/sortOrder'],
        [{ name: 'A', sortOrder: '1' }, '/sortOrder'],
        [{ name: 'A', collectionMetadata: { sortPostsBy: 'random' } }, '/collectionMetadata/sortPostsBy'],
        [{ name: 'A', collectionMetadata: { pinned: true } }, '/collectionMetadata/pinned'],
        [{ name: 'A', seo: { robots: { index: 'no' } } }, '/seo/robots/index'],
        [{ name: 'A', colour: 'red' }, '/colour'],
      ];
      for (const [body, path] of cases) expectIssue(await api().create(key, body), path);
      for (const field of ['id', 'path', 'jsonLd', 'createdAt', 'workspaceId']) {
        expectIssue(await api().create(key, { name: 'A', [field]: 'x' }), `/${field}`, /read-only/);
      }
      const category = await create({ name: 'Validated' });
      expectIssue(await api().patch(key, category.id, {}), '');
      expectIssue(await api().patch(key, category.id, { path: 'x/y' }), '/path', /read-only/);
    });
  });

  describe('permissions and lookup', () => {
    it('reads need categories:read and writes categories:write; neither implies the other', async () => {
      const category = await create({ name: 'Guarded' });
      const reader = await ctx.memberKey(['categories:read'], workspace);
      const writer = await ctx.memberKey(['categories:write'], workspace);
      const poster = await ctx.memberKey(['posts:read', 'posts:write'], workspace);
      expect((await api().list(reader.key)).statusCode).toBe(200);
      expect((await api().get(reader.key, category.slug)).statusCode).toBe(200);
      for (const denied of [writer.key, poster.key]) {
        expectError(await api().list(denied), 403, 'FORBIDDEN');
        expectError(await api().get(denied, category.id), 403, 'FORBIDDEN');
      }
      for (const denied of [reader.key, poster.key]) {
        expectError(await api().create(denied, { name: 'Nope' }), 403, 'FORBIDDEN');
        expectError(await api().patch(denied, category.id, { name: 'Nope' }), 403, 'FORBIDDEN');
        expectError(await api().remove(denied, category.id), 403, 'FORBIDDEN');
      }
      expect((await api().patch(writer.key, category.id, { sortOrder: 5 })).statusCode).toBe(200);
      expect((await api().remove(writer.key, category.id)).statusCode).toBe(200);
    });

    it('404 for a missing category and for another workspace’s, by id and by slug', async () => {
      const foreign = await ctx.ownerKey();
      const theirs = await create({ name: 'Foreign Category' }, foreign.key);
      for (const idOrSlug of [NO_SUCH_ID, 'no-such-category', theirs.id, theirs.slug]) {
        expectError(await api().get(key, idOrSlug), 404, 'NOT_FOUND');
        expectError(await api().patch(key, idOrSlug, { sortOrder: 1 }), 404, 'NOT_FOUND');
        expectError(await api().remove(key, idOrSlug), 404, 'NOT_FOUND');
      }
      expect((await get(theirs.id, foreign.key)).name).toBe('Foreign Category');
    });
  });

  describe('the path', () => {
    it('is the ancestor chain of slugs, root first, and follows a renamed ancestor at once', async () => {
      const { root, child, leaf } = await tree();
      expect([root.path, child.path, leaf.path]).toEqual([
        root.slug,
        `${root.slug}/${child.slug}`,
        `${root.slug}/${child.slug}/${leaf.slug}`,
      ]);

      const renamed = `renamed-${crypto.randomBytes(3).toString('hex')}`;
      await patch(root.id, { slug: renamed, name: 'Renamed Root' });
      expect((await get(leaf.id)).path).toBe(`${renamed}/${child.slug}/${leaf.slug}`);
      const listed = await list({ parentId: child.id });
      expect(listed.data.map((c) => c.path)).toEqual([`${renamed}/${child.slug}/${leaf.slug}`]);
    });

    it('moving a category moves its subtree; null makes it a root', async () => {
      const { root, child, leaf } = await tree();
      const other = await create({ name: `Other ${crypto.randomBytes(3).toString('hex')}` });
      const moved = await patch(child.slug, { parentId: other.id });
      expect(moved.path).toBe(`${other.slug}/${child.slug}`);
      expect((await get(leaf.id)).path).toBe(`${other.slug}/${child.slug}/${leaf.slug}`);
      expect((await patch(child.id, { parentId: null })).path).toBe(child.slug);
      expect((await get(leaf.id)).path).toBe(`${child.slug}/${leaf.slug}`);
      expect((await get(root.id)).path).toBe(root.slug);
    });

    it('refuses a move under itself or under a descendant (400 /parentId), writing nothing', async () => {
      const { root, child, leaf } = await tree();
      const before = await contentVersion(ctx, workspace.id);
      for (const parentId of [root.id, child.id, leaf.id]) {
        expectIssue(await api().patch(key, root.id, { parentId, name: 'Cyclic' }), '/parentId');
      }
      expectIssue(await api().patch(key, child.id, { parentId: leaf.id }), '/parentId', /cycle/);
      expect(await contentVersion(ctx, workspace.id)).toBe(before);
      expect(await get(root.id)).toEqual(root);
      expect((await get(leaf.id)).path).toBe(leaf.path);
    });

    it('of two crossing moves sent at once, one wins and the other is refused as a cycle', async () => {
      for (let round = 0; round < 5; round += 1) {
        const [a, b] = [await create({ name: `Cross A ${round}` }), await create({ name: `Cross B ${round}` })];
        const answers = await Promise.all([
          api().patch(key, a.id, { parentId: b.id }),
          api().patch(key, b.id, { parentId: a.id }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
        const [storedA, storedB] = [await get(a.id), await get(b.id)];
        expect([storedA.parentId, storedB.parentId].filter((id) => id !== null)).toHaveLength(1);
      }
    });

    it('refuses a parent from another workspace on update', async () => {
      const foreign = await ctx.ownerKey();
      const theirs = await create({ name: 'Foreign Parent' }, foreign.key);
      const mine = await create({ name: 'Stays Home' });
      expectIssue(await api().patch(key, mine.id, { parentId: theirs.id }), '/parentId');
      expect((await get(mine.id)).parentId).toBeNull();
    });
  });

  describe('list', () => {
    let listKey: string;
    let ids: Record<string, string>;
    beforeAll(async () => {
      listKey = (await ctx.ownerKey()).key;
      ids = {};
      const specs: Array<[string, string | null, number]> = [
        ['Ünïcode Ärt', null, 3],
        ['100% Juice', null, 1],
        ['Snake_Case', 'Ünïcode Ärt', 2],
        ['Plain', 'Ünïcode Ärt', 0],
      ];
      for (const [index, [name, parent, sortOrder]] of specs.entries()) {
        const category = await create({ name, sortOrder, ...(parent ? { parentId: ids[parent] } : {}) }, listKey);
        ids[name] = category.id;
        await db()
          .updateTable('categories')
          .set({ created_at: `2024-01-0${index + 1}T00:00:00.000Z` })
          .where('id', '=', category.id)
          .execute();
      }
    });
    const names = async (query: Record<string, string | number | boolean>) =>
      (await list(query, listKey)).data.map((c) => c.name);

    it('is newest first by default, omits orderBy, and shows only this workspace', async () => {
      const page = await list({}, listKey);
      expect(page).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 4, totalPages: 1 });
      expect(page).not.toHaveProperty('orderBy');
      expect(page.data.map((c) => c.name)).toEqual(['Plain', 'Snake_Case', '100% Juice', 'Ünïcode Ärt']);
      expect(page.data.map((c) => c.path)).toEqual([
        'unicode-art/plain',
        'unicode-art/snake-case',
        '100-juice',
        'unicode-art',
      ]);
    });

    it('filters by parent; an empty parentId lists the roots', async () => {
      expect(await names({ parentId: ids['Ünïcode Ärt']!, orderBy: 'sortOrder', order: 'asc' })).toEqual([
        'Plain',
        'Snake_Case',
      ]);
      expect(await names({ parentId: '', orderBy: 'sortOrder', order: 'asc' })).toEqual(['100% Juice', 'Ünïcode Ärt']);
      expect(await names({ parentId: NO_SUCH_ID })).toEqual([]);
      expectIssue(await api().list(listKey, { parentId: 'roots' }), '/parentId');
    });

    it('q is case-insensitive for any script, literal for % and _, and matches the slug', async () => {
      expect(await names({ q: 'üNÏCODE' })).toEqual(['Ünïcode Ärt']);
      expect(await names({ q: '%' })).toEqual(['100% Juice']);
      expect(await names({ q: '_' })).toEqual(['Snake_Case']);
      expect(await names({ q: 'snake-case' })).toEqual(['Snake_Case']);
    });

    it('sorts and pages; bad pagination is refused', async () => {
      const page = await list({ orderBy: 'sortOrder', order: 'desc', pageSize: 3, page: 1 }, listKey);
      expect(page).toMatchObject({ orderBy: 'sortOrder', order: 'desc', total: 4, totalPages: 2 });
      expect(page.data.map((c) => c.sortOrder)).toEqual([3, 2, 1]);
      expect(
        await names({ orderBy: 'name', order: 'asc', pageSize: 2, page: 2, parentId: ids['Ünïcode Ärt']! }),
      ).toEqual([]);
      expect(await names({ orderBy: 'name', order: 'asc', parentId: ids['Ünïcode Ärt']! })).toEqual([
        'Plain',
        'Snake_Case',
      ]);
      expect((await list({ page: 3, pageSize: 2 }, listKey)).data).toEqual([]);
      expectIssue(await api().list(listKey, { pageSize: 0 }), '/pageSize');
      expectIssue(await api().list(listKey, { pageSize: 101 }), '/pageSize');
      expectIssue(await api().list(listKey, { order: 'desc' }), '/order');
      expectIssue(await api().list(listKey, { orderBy: 'path' }), '/orderBy');
    });

    it('costs the same number of queries for 10 rows as for 50, paths three levels deep included', async () => {
      const owner = await ctx.ownerKey();
      const roots = [await create({ name: 'Top A' }, owner.key), await create({ name: 'Top B' }, owner.key)];
      for (let i = 0; i < 50; i += 1) {
        const middle = await create({ name: `Middle ${i}`, parentId: roots[i % 2]!.id }, owner.key);
        await create({ name: `Bottom ${i}`, parentId: middle.id }, owner.key);
      }
      let small: Page<Category> | undefined;
      let large: Page<Category> | undefined;
      const ten = await queriesOf(ctx, async () => (small = await list({ pageSize: 10 }, owner.key)));
      const fifty = await queriesOf(ctx, async () => (large = await list({ pageSize: 50 }, owner.key)));
      expect(small!.data).toHaveLength(10);
      expect(large!.data).toHaveLength(50);
      expect(large!.data.filter((c) => c.name.startsWith('Bottom')).every((c) => c.path.split('/').length === 3)).toBe(
        true,
      );
      expect(fifty).toBe(ten);
    });
  });

  describe('update and delete', () => {
    it('changes only the fields sent; a new name keeps the slug; collectionMetadata is replaced whole', async () => {
      const category = await create({
        name: 'Before',
        description: 'Kept',
        collectionMetadata: { includeChildCategories: true, sortPostsBy: 'title' },
      });
      const updated = await patch('before', { name: 'After', collectionMetadata: { sortPostsBy: 'createdAt' } });
      expect(updated).toMatchObject({ id: category.id, slug: 'before', name: 'After', description: 'Kept' });
      expect(updated.collectionMetadata).toEqual({ includeChildCategories: false, sortPostsBy: 'createdAt' });
      expect(updated.updatedAt >= category.updatedAt).toBe(true);
      expect((await list({ q: 'after' })).data.map((c) => c.id)).toContain(category.id);
      await create({ name: 'Slug Holder', slug: 'held' });
      expectError(await api().patch(key, category.id, { slug: 'held' }), 409, 'CONFLICT');
      expect((await api().patch(key, category.id, { slug: 'before' })).statusCode).toBe(200);
    });

    it('delete answers 200 with the category as it was; 409 while it has children', async () => {
      const { root, child, leaf } = await tree();
      const refused = expectError(await api().remove(key, root.id), 409, 'CONFLICT');
      expect(refused.details).toMatchObject({ children: 1 });
      expect(bodyOf<Category>(await api().remove(key, leaf.slug), 200)).toEqual(leaf);
      expectError(await api().get(key, leaf.id), 404, 'NOT_FOUND');
      expect((await api().remove(key, child.id)).statusCode).toBe(200);
      expect((await api().remove(key, root.id)).statusCode).toBe(200);
    });

    it('409 while a live post uses it; allowed once only soft-deleted posts do', async () => {
      const category = await create({ name: 'Busy' });
      const posts = postsApi(ctx);
      const post = await createPost(posts, key, { title: 'In Busy', categoryId: category.id });
      const before = await contentVersion(ctx, workspace.id);
      expect(expectError(await api().remove(key, category.id), 409, 'CONFLICT').details).toMatchObject({
        posts: 1,
        children: 0,
      });
      expect(await contentVersion(ctx, workspace.id)).toBe(before);
      expect((await posts.remove(key, post.id)).statusCode).toBe(200);
      expect((await api().remove(key, category.id)).statusCode).toBe(200);
      const row = await db()
        .selectFrom('posts')
        .select('category_id')
        .where('id', '=', post.id)
        .executeTakeFirstOrThrow();
      expect(row.category_id).toBeNull();
    });
  });

  it('every write bumps the content version once; posts embedding the category see a renamed ancestor at once', async () => {
    const version = () => contentVersion(ctx, workspace.id);
    const start = await version();
    const { root, child, leaf } = await tree();
    expect(await version()).toBe(start + 3);
    const posts = postsApi(ctx);
    const post = await createPost(posts, key, { title: 'Filed Deep', categoryId: leaf.id });
    expect(post.category?.path).toBe(leaf.path);

    const afterPost = await version();
    await patch(child.id, { slug: `moved-${child.slug}`, name: 'Renamed Child' });
    expect(await version()).toBe(afterPost + 1);
    const read = await getPost(posts, key, post.id);
    expect(read.category).toMatchObject({ id: leaf.id, path: `${root.slug}/moved-${child.slug}/${leaf.slug}` });

    await posts.remove(key, post.id);
    const beforeDelete = await version();
    await api().remove(key, leaf.id);
    expect(await version()).toBe(beforeDelete + 1);
  });
});
