import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostRow } from '../../src/db/schema.js';
import { commandLine } from '../../src/writes/changes.js';
import { contentWrite } from '../../src/writes/content-write.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  createPost,
  expectError,
  expectIssue,
  getPost,
  heading,
  image,
  ISO,
  listPosts,
  NO_SUCH_ID,
  paragraph,
  postsApi,
  setPostColumns,
  UUID,
  type Json,
  type Post,
} from '../helpers/posts.js';

/** Every field of the specification's Post, and no other. */
const POST_FIELDS = [
  'id',
  'workspaceId',
  'slug',
  'title',
  'excerpt',
  'bodyJson',
  'bodyText',
  'tocItems',
  'readingTimeMin',
  'featuredMediaId',
  'featuredMedia',
  'authorId',
  'author',
  'categoryId',
  'category',
  'status',
  'publishedAt',
  'scheduledAt',
  'isHowTo',
  'summaryForAi',
  'canonicalUrl',
  'viewCount',
  'seo',
  'schemaType',
  'structuredData',
  'structuredBlocks',
  'seoScore',
  'readabilityScore',
  'jsonLd',
  'deletedAt',
  'createdAt',
  'updatedAt',
  'tags',
  'relatedPosts',
].sort();
const SORT_KEYS = ['createdAt', 'updatedAt', 'publishedAt', 'title', 'status', 'seoScore', 'readabilityScore'] as const;
type SortKey = (typeof SORT_KEYS)[number];
const COLUMN: Record<SortKey, keyof PostRow> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  publishedAt: 'published_at',
  title: 'title',
  status: 'status',
  seoScore: 'seo_score',
  readabilityScore: 'readability_score',
};

describeEachDialect('posts: list and read', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const api = () => postsApi(ctx);
  const db = () => ctx.runtime.database.db;
  const ids = (posts: Post[]) => posts.map((post) => post.id);
  const mediaUrl = (workspaceId: string, mediaId: string) =>
    `${ctx.config.publicUrl}/media/${workspaceId}/${mediaId}/picture.png`;

  describe('pagination', () => {
    it('defaults to page 1 of 10, newest first, and leaves orderBy out when no sort was asked for', async () => {
      const { key } = await ctx.ownerKey();
      const created: Post[] = [];
      for (let i = 0; i < 12; i += 1) {
        const post = await createPost(api(), key, { title: `Post ${i}` });
        await setPostColumns(db(), post.id, { created_at: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z` });
        created.push(post);
      }
      const newestFirst = ids(created).reverse();

      const first = await listPosts(api(), key);
      expect(first).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 12, totalPages: 2 });
      expect(Object.keys(first).sort()).toEqual(['data', 'order', 'page', 'pageSize', 'total', 'totalPages']);
      expect(ids(first.data)).toEqual(newestFirst.slice(0, 10));

      const second = await listPosts(api(), key, { page: 2 });
      expect(ids(second.data)).toEqual(newestFirst.slice(10));
      const past = await listPosts(api(), key, { page: 3 });
      expect(past).toMatchObject({ data: [], page: 3, total: 12, totalPages: 2 });

      const sized = await listPosts(api(), key, { pageSize: 5, page: 3 });
      expect(sized).toMatchObject({ page: 3, pageSize: 5, total: 12, totalPages: 3 });
      expect(ids(sized.data)).toEqual(newestFirst.slice(10));
      expect((await listPosts(api(), key, { pageSize: 100 })).data).toHaveLength(12);

      const sorted = await listPosts(api(), key, { orderBy: 'createdAt' });
      expect(sorted).toMatchObject({ orderBy: 'createdAt', order: 'desc' });
    });

    it('an empty workspace answers one empty page', async () => {
      const { key } = await ctx.ownerKey();
      expect(await listPosts(api(), key)).toEqual({
        data: [],
        page: 1,
        pageSize: 10,
        order: 'desc',
        total: 0,
        totalPages: 1,
      });
    });

    it('refuses out-of-range pages and sizes, order without orderBy, unknown sort keys and unknown parameters', async () => {
      const { key } = await ctx.ownerKey();
      expectIssue(await api().list(key, { page: 0 }), '/page');
      expectIssue(await api().list(key, { page: 'two' }), '/page');
      expectIssue(await api().list(key, { pageSize: 0 }), '/pageSize');
      expectIssue(await api().list(key, { pageSize: 101 }), '/pageSize');
      expectIssue(await api().list(key, { order: 'asc' }), '/order');
      expectIssue(await api().list(key, { order: 'up', orderBy: 'title' }), '/order');
      expectIssue(await api().list(key, { orderBy: 'viewCount' }), '/orderBy');
      expectIssue(await api().list(key, { pagesize: 50 }), '/pagesize');
    });
  });

  describe('sorting', () => {
    // Ties on every key, and published_at null on two posts, so the tiebreak and the null rule both show.
    const ROWS: Array<Partial<PostRow>> = [
      {
        title: 'delta',
        status: 'draft',
        seo_score: 50,
        readability_score: 10,
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-02-05T00:00:00.000Z',
        published_at: null,
      },
      {
        title: 'alpha',
        status: 'published',
        seo_score: 70,
        readability_score: 10,
        created_at: '2024-01-03T00:00:00.000Z',
        updated_at: '2024-02-01T00:00:00.000Z',
        published_at: '2024-03-01T00:00:00.000Z',
      },
      {
        title: 'charlie',
        status: 'archived',
        seo_score: 50,
        readability_score: 90,
        created_at: '2024-01-02T00:00:00.000Z',
        updated_at: '2024-02-01T00:00:00.000Z',
        published_at: '2024-03-02T00:00:00.000Z',
      },
      {
        title: 'alpha',
        status: 'draft',
        seo_score: 20,
        readability_score: 40,
        created_at: '2024-01-03T00:00:00.000Z',
        updated_at: '2024-02-03T00:00:00.000Z',
        published_at: null,
      },
      {
        title: 'bravo',
        status: 'published',
        seo_score: 70,
        readability_score: 90,
        created_at: '2024-01-05T00:00:00.000Z',
        updated_at: '2024-02-04T00:00:00.000Z',
        published_at: '2024-03-01T00:00:00.000Z',
      },
      {
        title: 'echo',
        status: 'published',
        seo_score: 0,
        readability_score: 40,
        created_at: '2024-01-04T00:00:00.000Z',
        updated_at: '2024-02-02T00:00:00.000Z',
        published_at: '2024-02-28T00:00:00.000Z',
      },
    ];

    /**
     * The order a user expects: by the key, never-published posts last either way, then by id in the same
     * direction.
     */
    function expected(rows: Array<{ id: string } & Partial<PostRow>>, key: SortKey, order: 'asc' | 'desc'): string[] {
      const column = COLUMN[key];
      const sign = order === 'asc' ? 1 : -1;
      const compare = (a: unknown, b: unknown) => (a === b ? 0 : (a as string) < (b as string) ? -1 : 1);
      return [...rows]
        .sort((a, b) => {
          const [x, y] = [a[column], b[column]];
          if (x === null || y === null) return x === y ? sign * compare(a.id, b.id) : x === null ? 1 : -1;
          return sign * compare(x, y) || sign * compare(a.id, b.id);
        })
        .map((row) => row.id);
    }

    it('sorts by every orderBy key in both orders, with a stable tiebreak on id across pages', async () => {
      const { key } = await ctx.ownerKey();
      const rows: Array<{ id: string } & Partial<PostRow>> = [];
      for (const row of ROWS) {
        const post = await createPost(api(), key, { title: row.title! });
        await setPostColumns(db(), post.id, row);
        rows.push({ id: post.id, ...row });
      }
      for (const orderBy of SORT_KEYS) {
        for (const order of ['asc', 'desc'] as const) {
          const want = expected(rows, orderBy, order);
          const page = await listPosts(api(), key, { orderBy, order, pageSize: 100 });
          expect(page).toMatchObject({ orderBy, order, total: rows.length });
          expect(ids(page.data), `${orderBy} ${order}`).toEqual(want);
          const paged: string[] = [];
          for (let n = 1; n <= 3; n += 1)
            paged.push(...ids((await listPosts(api(), key, { orderBy, order, pageSize: 2, page: n })).data));
          expect(paged, `${orderBy} ${order} in pages of 2`).toEqual(want);
        }
        // orderBy alone sorts descending.
        expect(ids((await listPosts(api(), key, { orderBy, pageSize: 100 })).data)).toEqual(
          expected(rows, orderBy, 'desc'),
        );
      }
    });

    it('without orderBy, equal creation times are broken by id as well', async () => {
      const { key } = await ctx.ownerKey();
      const rows = [];
      for (let i = 0; i < 5; i += 1) {
        const post = await createPost(api(), key, { title: `Same time ${i}` });
        await setPostColumns(db(), post.id, { created_at: '2024-06-01T00:00:00.000Z' });
        rows.push({ id: post.id, created_at: '2024-06-01T00:00:00.000Z' });
      }
      const want = expected(rows, 'createdAt', 'desc');
      expect(ids((await listPosts(api(), key)).data)).toEqual(want);
      const paged = [];
      for (let n = 1; n <= 3; n += 1) paged.push(...ids((await listPosts(api(), key, { pageSize: 2, page: n })).data));
      expect(paged).toEqual(want);
    });
  });

  describe('q', () => {
    it('finds the words of the title, the excerpt or the body text in any case, the last as a beginning', async () => {
      const { key } = await ctx.ownerKey();
      const inTitle = await createPost(api(), key, { title: 'Analytical Engine notes' });
      const inExcerpt = await createPost(api(), key, { title: 'Other', excerpt: 'About the ENGINE room' });
      const inBody = await createPost(api(), key, {
        title: 'Third',
        bodyJson: [heading('Basics'), paragraph('The engine hums')],
      });
      // Code, URLs and alt texts are not part of bodyText, so they are not searched either.
      await createPost(api(), key, {
        title: 'Unrelated',
        bodyJson: [
          { type: 'code', language: 'js', code: 'engine()' },
          { type: 'video_embed', url: 'https://video.example.com/engine' },
        ],
      });
      const search = async (q: string) =>
        ids((await listPosts(api(), key, { q, orderBy: 'title', order: 'asc' })).data);
      const all = [inTitle.id, inExcerpt.id, inBody.id];
      expect(await search('engine')).toEqual(all);
      expect(await search('ENGINE')).toEqual(all);
      expect(await search('eNgIn')).toEqual(all);
      expect(await search('engine room')).toEqual([inExcerpt.id]);
      expect(await search('room engine')).toEqual([inExcerpt.id]);
      expect(await search('ngine')).toEqual([]);
      expect(await search('hums')).toEqual([inBody.id]);
      expect(await search('no such words')).toEqual([]);
      expect((await listPosts(api(), key, { q: 'engine' })).total).toBe(3);
    });

    it('folds Unicode case: É finds é, and an accented title is found in either case', async () => {
      const { key } = await ctx.ownerKey();
      const summer = await createPost(api(), key, { title: 'Été' });
      const coffee = await createPost(api(), key, { title: 'Morning', excerpt: 'Un café noir' });
      const plain = await createPost(api(), key, { title: 'Plain ascii ete' });
      const search = async (q: string) =>
        ids((await listPosts(api(), key, { q, orderBy: 'title', order: 'asc' })).data).sort();
      expect(await search('été')).toEqual([summer.id]);
      expect(await search('ÉTÉ')).toEqual([summer.id]);
      expect(await search('É')).toEqual([summer.id]);
      expect(await search('CAFÉ')).toEqual([coffee.id]);
      expect(await search('Caf')).toEqual([coffee.id]);
      // An accent is part of the letter: e is not é.
      expect(await search('ete')).toEqual([plain.id]);
      // The same letter written decomposed (e + combining acute) is the same search.
      expect(await search('cafe\u0301')).toEqual([coffee.id]);
    });

    it('takes punctuation, % and _ included, as what separates words', async () => {
      const { key } = await ctx.ownerKey();
      const percent = await createPost(api(), key, { title: 'Growth of 100% in a year' });
      const underscore = await createPost(api(), key, {
        title: 'Naming',
        bodyJson: [paragraph('Use snake_case names')],
      });
      const essay = await createPost(api(), key, { title: 'A 1000 word essay' });
      const search = async (q: string) => ids((await listPosts(api(), key, { q })).data);
      // The word ends at the %, so 100 is whole and 1000 is not found.
      expect(await search('100%')).toEqual([percent.id]);
      expect((await search('100')).sort()).toEqual([percent.id, essay.id].sort());
      expect(await search('%')).toEqual([]);
      expect(await search('_')).toEqual([]);
      expect(await search('100_')).toEqual([percent.id]);
      expect(await search('e%e')).toEqual([]);
      expect(await search('snake_case')).toEqual([underscore.id]);
      expect(await search('case snake')).toEqual([underscore.id]);
    });

    it('follows edits: a changed title is found by its new words only', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Before the edit' });
      expect(
        (await api().patch(key, post.id, { title: 'After the change', bodyJson: [paragraph('fresh body')] }))
          .statusCode,
      ).toBe(200);
      expect((await listPosts(api(), key, { q: 'before' })).total).toBe(0);
      expect(ids((await listPosts(api(), key, { q: 'change' })).data)).toEqual([post.id]);
      expect(ids((await listPosts(api(), key, { q: 'fresh' })).data)).toEqual([post.id]);
    });
  });

  describe('filters', () => {
    async function fixture() {
      const { workspace, key } = await ctx.ownerKey();
      const [author1, author2] = [await insertAuthor(db(), workspace.id), await insertAuthor(db(), workspace.id)];
      const [cat1, cat2] = [
        await insertCategory(db(), workspace.id, { slug: 'one' }),
        await insertCategory(db(), workspace.id, { slug: 'two' }),
      ];
      const [tag1, tag2] = [
        await insertTag(db(), workspace.id, { slug: 't1' }),
        await insertTag(db(), workspace.id, { slug: 't2' }),
      ];
      const make = async (body: Json, tagIds: string[], createdAt: string) => {
        const post = await createPost(api(), key, body);
        if (tagIds.length > 0) expect((await api().attach(key, post.id, tagIds)).statusCode).toBe(200);
        await setPostColumns(db(), post.id, { created_at: createdAt });
        return post.id;
      };
      const a = await make(
        { title: 'A findme', authorId: author1, categoryId: cat1, status: 'published' },
        [tag1],
        '2024-05-01T00:00:00.000Z',
      );
      const b = await make(
        { title: 'B findme', authorId: author2, categoryId: cat2 },
        [tag1, tag2],
        '2024-05-02T12:00:00.000Z',
      );
      const c = await make({ title: 'C findme' }, [], '2024-05-03T23:59:59.999Z');
      expect((await api().patch(key, c, { status: 'archived' })).statusCode).toBe(200);
      const d = await make({ title: 'D findme', authorId: author1 }, [tag2], '2024-05-04T00:00:00.000Z');
      // Matches every filter below, and must never come back from any of them.
      const gone = await make(
        { title: 'X findme', authorId: author1, categoryId: cat1, status: 'published' },
        [tag1, tag2],
        '2024-05-02T12:00:00.000Z',
      );
      expect((await api().remove(key, gone)).statusCode).toBe(200);
      const filter = async (query: Record<string, string>) => {
        const page = await listPosts(api(), key, { ...query, pageSize: 100 });
        expect(page.total).toBe(page.data.length);
        return ids(page.data).sort();
      };
      return { key, author1, author2, cat1, cat2, tag1, tag2, a, b, c, d, gone, filter };
    }

    it('status, categoryId, authorId and tagId restrict the list, alone and together', async () => {
      const f = await fixture();
      const sorted = (...list: string[]) => list.sort();
      expect(await f.filter({})).toEqual(sorted(f.a, f.b, f.c, f.d));
      expect(await f.filter({ status: 'published' })).toEqual([f.a]);
      expect(await f.filter({ status: 'draft' })).toEqual(sorted(f.b, f.d));
      expect(await f.filter({ status: 'archived' })).toEqual([f.c]);
      expect(await f.filter({ status: 'scheduled' })).toEqual([]);
      expect(await f.filter({ categoryId: f.cat1 })).toEqual([f.a]);
      expect(await f.filter({ categoryId: f.cat2 })).toEqual([f.b]);
      expect(await f.filter({ categoryId: '' })).toEqual(sorted(f.c, f.d));
      expect(await f.filter({ authorId: f.author1 })).toEqual(sorted(f.a, f.d));
      expect(await f.filter({ authorId: NO_SUCH_ID })).toEqual([]);
      expect(await f.filter({ tagId: f.tag1 })).toEqual(sorted(f.a, f.b));
      expect(await f.filter({ tagId: f.tag2 })).toEqual(sorted(f.b, f.d));
      expect(await f.filter({ tagId: f.tag2, authorId: f.author1 })).toEqual([f.d]);
      expect(await f.filter({ categoryId: '', status: 'draft', q: 'findme' })).toEqual([f.d]);
      expect(await f.filter({ q: 'findme', tagId: f.tag1, status: 'draft' })).toEqual([f.b]);
    });

    it('dateFrom and dateTo bound createdAt inclusively, in any offset', async () => {
      const f = await fixture();
      const sorted = (...list: string[]) => list.sort();
      expect(await f.filter({ dateFrom: '2024-05-02T12:00:00.000Z' })).toEqual(sorted(f.b, f.c, f.d));
      expect(await f.filter({ dateFrom: '2024-05-02T12:00:00.001Z' })).toEqual(sorted(f.c, f.d));
      expect(await f.filter({ dateTo: '2024-05-02T12:00:00.000Z' })).toEqual(sorted(f.a, f.b));
      expect(await f.filter({ dateTo: '2024-05-02T11:59:59.999Z' })).toEqual([f.a]);
      expect(await f.filter({ dateFrom: '2024-05-02T12:00:00.000Z', dateTo: '2024-05-02T12:00:00.000Z' })).toEqual([
        f.b,
      ]);
      expect(await f.filter({ dateFrom: '2024-05-02T14:00:00+02:00', dateTo: '2024-05-03T23:59:59.999Z' })).toEqual(
        sorted(f.b, f.c),
      );
      expect(await f.filter({ dateFrom: '2024-05-05T00:00:00.000Z' })).toEqual([]);
    });

    it('ids in filters are case-insensitive, as UUIDs are', async () => {
      const f = await fixture();
      const sorted = (...list: string[]) => list.sort();
      expect(await f.filter({ authorId: f.author1.toUpperCase() })).toEqual(sorted(f.a, f.d));
      expect(await f.filter({ categoryId: f.cat2.toUpperCase() })).toEqual([f.b]);
      expect(await f.filter({ tagId: f.tag2.toUpperCase() })).toEqual(sorted(f.b, f.d));
    });

    it('soft-deleted posts never come back, whatever the filter or sort', async () => {
      const f = await fixture();
      const queries: Array<Record<string, string>> = [
        {},
        { status: 'published' },
        { categoryId: f.cat1 },
        { authorId: f.author1 },
        { tagId: f.tag1 },
        { tagId: f.tag2 },
        { q: 'x findme' },
        { dateFrom: '2024-05-02T12:00:00.000Z', dateTo: '2024-05-02T12:00:00.000Z' },
        ...SORT_KEYS.map((orderBy) => ({ orderBy, order: 'asc' })),
      ];
      for (const query of queries) expect(await f.filter(query), JSON.stringify(query)).not.toContain(f.gone);
      expect(await f.filter({ q: 'x findme' })).toEqual([]);
    });

    it('refuses malformed filter values', async () => {
      const { key } = await ctx.ownerKey();
      expectIssue(await api().list(key, { status: 'live' }), '/status');
      expectIssue(await api().list(key, { categoryId: 'tech' }), '/categoryId');
      expectIssue(await api().list(key, { authorId: 'someone' }), '/authorId');
      expectIssue(await api().list(key, { tagId: '123' }), '/tagId');
      expectIssue(await api().list(key, { dateFrom: 'yesterday' }), '/dateFrom');
      expectIssue(await api().list(key, { dateTo: '2024-05-02' }), '/dateTo');
      // Valid date-time syntax, but no instant a database can store: the client's mistake, not a 500.
      expectIssue(await api().list(key, { dateFrom: '2016-12-31T23:59:60Z' }), '/dateFrom');
      expectIssue(await api().list(key, { dateTo: '0000-06-01T00:00:00Z' }), '/dateTo');
      expectIssue(await api().list(key, { q: 'x'.repeat(201) }), '/q');
    });
  });

  describe('a single post', () => {
    /**
     * A post with every embedded relation set: author with avatar, a 3-level category, media, tags and related
     * posts.
     */
    async function richPost() {
      const { workspace, key } = await ctx.ownerKey();
      const w = workspace.id;
      const [avatar, featured, bodyMedia, structuredMedia] = [
        await insertMedia(db(), w),
        await insertMedia(db(), w),
        await insertMedia(db(), w),
        await insertMedia(db(), w),
      ];
      const author = await insertAuthor(db(), w, { displayName: 'Grace Hopper', avatarMediaId: avatar });
      const tech = await insertCategory(db(), w, { slug: 'tech', name: 'Technology' });
      const web = await insertCategory(db(), w, { slug: 'web', name: 'Web', parentId: tech });
      const react = await insertCategory(db(), w, { slug: 'react', name: 'React', parentId: web });
      const zeta = await insertTag(db(), w, { slug: 'zeta', name: 'Zeta' });
      const alpha = await insertTag(db(), w, { slug: 'alpha', name: 'Alpha' });
      const related = [];
      for (const title of ['Related one', 'Related two', 'Related three'])
        related.push(await createPost(api(), key, { title, excerpt: `${title} excerpt` }));
      expect(
        (await api().patch(key, related[1]!.id, { featuredMediaId: featured, status: 'published' })).statusCode,
      ).toBe(200);
      const post = await createPost(api(), key, {
        title: 'The rich post',
        excerpt: 'Everything embedded',
        bodyJson: [
          heading('Start'),
          paragraph('Some words here'),
          image(bodyMedia, { alt: 'Body image', caption: 'A caption' }),
        ],
        structuredBlocks: [image(structuredMedia)],
        featuredMediaId: featured,
        authorId: author,
        categoryId: react,
        relatedPostIds: [related[2]!.id, related[0]!.id, related[1]!.id],
      });
      expect((await api().attach(key, post.id, [zeta, alpha])).statusCode).toBe(200);
      return {
        workspace,
        key,
        post,
        avatar,
        featured,
        bodyMedia,
        structuredMedia,
        author,
        tech,
        web,
        react,
        zeta,
        alpha,
        related,
      };
    }

    it('reads the same body by id and by slug, with every Post field of the specification', async () => {
      const { workspace, key, post } = await richPost();
      const byId = await api().get(key, post.id);
      const bySlug = await api().get(key, post.slug);
      expect(byId.statusCode).toBe(200);
      expect(bySlug.body).toBe(byId.body);
      expect((await api().get(key, post.id.toUpperCase())).body).toBe(byId.body);
      const body = byId.json() as Post & Json;
      expect(Object.keys(body).sort()).toEqual(POST_FIELDS);

      expect(body).toMatchObject({
        id: post.id,
        workspaceId: workspace.id,
        slug: 'the-rich-post',
        title: 'The rich post',
        excerpt: 'Everything embedded',
      });
      for (const field of ['id', 'workspaceId', 'featuredMediaId', 'authorId', 'categoryId'])
        expect(body[field], field).toMatch(UUID);
      for (const field of ['slug', 'title', 'excerpt', 'bodyText', 'status', 'schemaType'])
        expect(typeof body[field], field).toBe('string');
      for (const field of ['readingTimeMin', 'viewCount', 'seoScore', 'readabilityScore'])
        expect(Number.isInteger(body[field]), field).toBe(true);
      for (const field of ['bodyJson', 'tocItems', 'structuredBlocks', 'tags', 'relatedPosts'])
        expect(Array.isArray(body[field]), field).toBe(true);
      for (const field of ['createdAt', 'updatedAt']) expect(body[field], field).toMatch(ISO);
      expect(body).toMatchObject({
        status: 'draft',
        publishedAt: null,
        scheduledAt: null,
        deletedAt: null,
        isHowTo: false,
        viewCount: 0,
        schemaType: 'BlogPosting',
      });
      expect(body).toMatchObject({ summaryForAi: null, canonicalUrl: null, seo: null, structuredData: null });
      expect(body.bodyText).toBe('Start\n\nSome words here\n\nA caption');
      expect(body.tocItems).toEqual([{ level: 2, text: 'Start', id: 'start' }]);
      expect(body.readingTimeMin).toBe(1);
      expect(body.jsonLd).toMatchObject({ '@context': 'https://schema.org', '@graph': expect.any(Array) });
    });

    it('embeds author with avatar, category with its path, featured media, tags and related posts in manual order', async () => {
      const f = await richPost();
      const post = await getPost(api(), f.key, f.post.id);
      expect(post.author).toMatchObject({
        id: f.author,
        workspaceId: f.workspace.id,
        displayName: 'Grace Hopper',
        avatarMediaId: f.avatar,
        sameAs: ['https://example.com/ada'],
      });
      expect(post.author!.avatarMedia).toMatchObject({
        id: f.avatar,
        url: mediaUrl(f.workspace.id, f.avatar),
        mimeType: 'image/png',
        width: 640,
        height: 480,
        sizeBytes: 1234,
      });
      expect(post.category).toMatchObject({
        id: f.react,
        slug: 'react',
        name: 'React',
        parentId: f.web,
        path: 'tech/web/react',
      });
      expect(post.featuredMedia).toMatchObject({
        id: f.featured,
        workspaceId: f.workspace.id,
        url: mediaUrl(f.workspace.id, f.featured),
        alt: 'An alt text',
      });
      expect(post.tags.map((tag) => tag.slug).sort()).toEqual(['alpha', 'zeta']);
      for (const tag of post.tags)
        expect(Object.keys(tag).sort()).toEqual(['createdAt', 'id', 'name', 'seo', 'slug', 'workspaceId']);
      expect(post.relatedPosts).toEqual(
        [2, 0, 1].map((i) => {
          const related = f.related[i]!;
          return {
            id: related.id,
            slug: related.slug,
            title: related.title,
            excerpt: related.excerpt,
            status: i === 1 ? 'published' : 'draft',
            featuredMediaId: i === 1 ? f.featured : null,
          };
        }),
      );
      // A list carries the same embeds as the single read.
      const listed = (await listPosts(api(), f.key, { q: 'the rich post' })).data;
      expect(listed).toEqual([post]);
    });

    it('the category path is just the slug at the root, and the chain at every depth', async () => {
      const f = await richPost();
      for (const [categoryId, path] of [
        [f.tech, 'tech'],
        [f.web, 'tech/web'],
        [f.react, 'tech/web/react'],
      ] as const) {
        const post = await createPost(api(), f.key, { title: `In ${path}`, categoryId });
        expect(post.category?.path).toBe(path);
      }
    });

    it('unset relations read null or []', async () => {
      const { key } = await ctx.ownerKey();
      const post = await getPost(api(), key, (await createPost(api(), key, { title: 'Bare' })).id);
      expect(post).toMatchObject({
        featuredMediaId: null,
        featuredMedia: null,
        authorId: null,
        author: null,
        categoryId: null,
        category: null,
        tags: [],
        relatedPosts: [],
      });
      const author = await insertAuthor(db(), post.workspaceId);
      const withAuthor = await getPost(
        api(),
        key,
        (await createPost(api(), key, { title: 'Faceless', authorId: author })).id,
      );
      expect(withAuthor.author).toMatchObject({ id: author, avatarMediaId: null, avatarMedia: null });
    });

    it('image blocks carry the media url on read, and url null once the media row is gone', async () => {
      const f = await richPost();
      const before = await getPost(api(), f.key, f.post.id);
      // The specification's fields, and beside them what a site needs for srcset (issue 24).
      expect(before.bodyJson[2]).toMatchObject({
        type: 'image',
        mediaId: f.bodyMedia,
        alt: 'Body image',
        caption: 'A caption',
        url: mediaUrl(f.workspace.id, f.bodyMedia),
        width: expect.any(Number),
        height: expect.any(Number),
        srcset: expect.objectContaining({ webp: expect.any(Array) }),
      });
      expect(before.structuredBlocks).toMatchObject([
        { type: 'image', mediaId: f.structuredMedia, url: mediaUrl(f.workspace.id, f.structuredMedia) },
      ]);

      // A delete behind the services' back, as a content write (or the response cache rightly keeps
      // answering for the version it last saw).
      await contentWrite(ctx.runtime.database, commandLine(f.workspace.id), async ({ trx, changed }) => {
        const gone = [f.bodyMedia, f.structuredMedia, f.featured, f.avatar];
        await trx.deleteFrom('media').where('id', 'in', gone).execute();
        for (const id of gone) changed({ type: 'media', id, slug: null, action: 'deleted' });
      });
      const after = await getPost(api(), f.key, f.post.id);
      expect(after.bodyJson[2]).toEqual({
        type: 'image',
        mediaId: f.bodyMedia,
        alt: 'Body image',
        caption: 'A caption',
        url: null,
      });
      expect(after.structuredBlocks).toEqual([{ type: 'image', mediaId: f.structuredMedia, url: null }]);
      expect(after).toMatchObject({ featuredMediaId: null, featuredMedia: null });
      expect(after.author).toMatchObject({ avatarMediaId: null, avatarMedia: null });
      expect(after.relatedPosts[2]).toMatchObject({ id: f.related[1]!.id, featuredMediaId: null });
    });

    it('a related post that is deleted drops out of relatedPosts', async () => {
      const f = await richPost();
      expect((await api().remove(f.key, f.related[0]!.id)).statusCode).toBe(200);
      expect((await getPost(api(), f.key, f.post.id)).relatedPosts.map((r) => r.id)).toEqual([
        f.related[2]!.id,
        f.related[1]!.id,
      ]);
    });

    it('builds JSON-LD from the post, its relations and the site settings', async () => {
      const f = await richPost();
      const logo = await insertMedia(db(), f.workspace.id, { filename: 'logo.png' });
      await db()
        .updateTable('workspaces')
        .set({
          site_name: 'Engines Weekly',
          site_url: 'https://blog.example.com',
          logo_media_id: logo,
          post_url_pattern: '/blog/{slug}',
          category_url_pattern: '/c/{path}',
          author_url_pattern: '/by/{slug}',
        })
        .where('id', '=', f.workspace.id)
        .execute();
      const faq = { type: 'faq', items: [{ question: 'Why?', answer: 'Because.' }] };
      const steps = { type: 'list', style: 'ordered', items: ['Open it', 'Close it'] };
      expect(
        (
          await api().patch(f.key, f.post.id, {
            isHowTo: true,
            bodyJson: [paragraph('Intro'), steps, faq],
            structuredData: { '@type': 'Event', name: 'Launch' },
          })
        ).statusCode,
      ).toBe(200);
      const post = await getPost(api(), f.key, f.post.id);
      const graph = (post.jsonLd as { '@graph': Json[] })['@graph'];
      const byType = (type: string) => graph.find((node) => node['@type'] === type);
      const url = 'https://blog.example.com/blog/the-rich-post';
      expect(byType('BlogPosting')).toMatchObject({
        '@id': `${url}#article`,
        headline: 'The rich post',
        description: 'Everything embedded',
        url,
        dateCreated: post.createdAt,
        dateModified: post.updatedAt,
        image: mediaUrl(f.workspace.id, f.featured),
        keywords: 'Alpha, Zeta',
        articleSection: 'React',
        author: {
          '@type': 'Person',
          name: 'Grace Hopper',
          url: 'https://blog.example.com/by/' + post.author!.slug,
          image: mediaUrl(f.workspace.id, f.avatar),
        },
        publisher: {
          '@type': 'Organization',
          name: 'Engines Weekly',
          logo: { '@type': 'ImageObject', url: `${ctx.config.publicUrl}/media/${f.workspace.id}/${logo}/logo.png` },
        },
      });
      expect(byType('BreadcrumbList')!.itemListElement).toEqual([
        { '@type': 'ListItem', position: 1, name: 'Technology', item: 'https://blog.example.com/c/tech' },
        { '@type': 'ListItem', position: 2, name: 'Web', item: 'https://blog.example.com/c/tech/web' },
        { '@type': 'ListItem', position: 3, name: 'React', item: 'https://blog.example.com/c/tech/web/react' },
        { '@type': 'ListItem', position: 4, name: 'The rich post', item: url },
      ]);
      expect(byType('FAQPage')).toEqual({
        '@type': 'FAQPage',
        '@id': `${url}#faq`,
        mainEntity: [{ '@type': 'Question', name: 'Why?', acceptedAnswer: { '@type': 'Answer', text: 'Because.' } }],
      });
      expect(byType('HowTo')).toMatchObject({
        name: 'The rich post',
        step: [
          { '@type': 'HowToStep', position: 1, text: 'Open it' },
          { '@type': 'HowToStep', position: 2, text: 'Close it' },
        ],
      });
      expect(byType('Event')).toEqual({ '@type': 'Event', name: 'Launch' });
    });

    it('another workspace’s post is a 404, by slug and by id, even when the slug exists there', async () => {
      const mine = await ctx.ownerKey();
      const theirs = await ctx.ownerKey();
      const foreign = await createPost(api(), theirs.key, { title: 'Only over there' });
      expectError(await api().get(mine.key, 'only-over-there'), 404, 'NOT_FOUND');
      expectError(await api().get(mine.key, foreign.id), 404, 'NOT_FOUND');
      expectError(await api().get(mine.key, NO_SUCH_ID), 404, 'NOT_FOUND');
      expectError(await api().get(mine.key, 'never-existed'), 404, 'NOT_FOUND');
      // The same slug in both workspaces resolves to each one's own post.
      const own = await createPost(api(), mine.key, { title: 'Only over there' });
      expect((await getPost(api(), mine.key, 'only-over-there')).id).toBe(own.id);
      expect((await getPost(api(), theirs.key, 'only-over-there')).id).toBe(foreign.id);
    });

    it('pages never carry another workspace’s rows', async () => {
      const first = await ctx.ownerKey();
      const second = await ctx.ownerKey();
      const mine = [];
      for (let i = 0; i < 3; i += 1) mine.push((await createPost(api(), first.key, { title: `Shared words ${i}` })).id);
      for (let i = 0; i < 4; i += 1) await createPost(api(), second.key, { title: `Shared words ${i}` });
      for (const query of [{}, { q: 'shared words' }, { orderBy: 'title', order: 'asc' }, { status: 'draft' }]) {
        const page = await listPosts(api(), first.key, { ...query, pageSize: 100 });
        expect(page.total).toBe(3);
        expect(ids(page.data).sort()).toEqual([...mine].sort());
        for (const post of page.data) expect(post.workspaceId).toBe(first.workspace.id);
      }
    });
  });

  describe('permissions', () => {
    it('posts:read alone reads every post with its embedded relations', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const w = workspace.id;
      const author = await insertAuthor(db(), w, { avatarMediaId: await insertMedia(db(), w) });
      const post = await createPost(api(), key, {
        title: 'Readable',
        authorId: author,
        categoryId: await insertCategory(db(), w, { slug: 'cat' }),
        featuredMediaId: await insertMedia(db(), w),
        relatedPostIds: [(await createPost(api(), key, { title: 'Other' })).id],
      });
      expect((await api().attach(key, post.id, [await insertTag(db(), w, { slug: 'tagged' })])).statusCode).toBe(200);
      const owner = await getPost(api(), key, post.id);
      const reader = await ctx.memberKey(['posts:read'], workspace);
      expect(await getPost(api(), reader.key, post.id)).toEqual(owner);
      expect((await listPosts(api(), reader.key, { q: 'readable' })).data).toEqual([owner]);
      expect(owner.author?.avatarMedia).not.toBeNull();
      expect(owner.category).not.toBeNull();
      expect(owner.featuredMedia).not.toBeNull();
      expect(owner.tags).toHaveLength(1);
      expect(owner.relatedPosts).toHaveLength(1);
    });

    it('without posts:read, list and get are 403, posts:write included', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Hidden' });
      for (const permissions of [[], ['posts:write'], ['pages:read', 'media:read']] as const) {
        const member = await ctx.memberKey(permissions, workspace);
        expectError(await api().list(member.key), 403, 'FORBIDDEN');
        expectError(await api().get(member.key, post.id), 403, 'FORBIDDEN');
        // The permission check comes before validation and lookup.
        expectError(await api().list(member.key, { page: 0 }), 403, 'FORBIDDEN');
        expectError(await api().get(member.key, 'no-such-post'), 403, 'FORBIDDEN');
      }
    });
  });
});
