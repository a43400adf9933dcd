import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  createPost,
  expectError,
  expectIssue,
  getPost,
  image,
  ISO,
  listPosts,
  NO_SUCH_ID,
  paragraph,
  postsApi,
  type ErrorBody,
  type Json,
  type Post,
} from '../helpers/posts.js';

describeEachDialect('posts: status, references, delete, tags and permissions', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const api = () => postsApi(ctx);
  const db = () => ctx.runtime.database.db;

  describe('status moves', () => {
    const move = async (key: string, id: string, status: string) => {
      const response = await api().patch(key, id, { status });
      expect(response.statusCode, `→ ${status}: ${response.body}`).toBe(200);
      return response.json() as Post;
    };

    it('draft → published → draft → archived → draft → published; publishedAt is stamped once and kept', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Moving' });
      const published = await move(key, post.id, 'published');
      expect(published.publishedAt).toMatch(ISO);
      const stamp = published.publishedAt;
      expect(await move(key, post.id, 'draft')).toMatchObject({ status: 'draft', publishedAt: stamp });
      expect(await move(key, post.id, 'archived')).toMatchObject({ status: 'archived', publishedAt: stamp });
      expect(await move(key, post.id, 'draft')).toMatchObject({ status: 'draft', publishedAt: stamp });
      expect(await move(key, post.id, 'published')).toMatchObject({ status: 'published', publishedAt: stamp });
      expect(await move(key, post.id, 'archived')).toMatchObject({ status: 'archived' });
      expect((await getPost(api(), key, post.id)).status).toBe('archived');
    });

    it('a publishedAt sent with the move wins over the stamp; one no database can store is a 400', async () => {
      const { key } = await ctx.ownerKey();
      const post = await createPost(api(), key, { title: 'Dated' });
      for (const publishedAt of [
        '2016-12-31T23:59:60Z',
        '0000-01-01T00:00:00Z',
        '0001-01-01T00:30:00+01:00',
        '9999-12-31T23:00:00-02:00',
      ]) {
        expectIssue(await api().patch(key, post.id, { status: 'published', publishedAt }), '/publishedAt');
        expectIssue(await api().create(key, { title: 'Dated too', publishedAt }), '/publishedAt');
      }
      expect(await getPost(api(), key, post.id)).toEqual(post);
      const response = await api().patch(key, post.id, {
        status: 'published',
        publishedAt: '2022-02-02T02:02:02.000Z',
      });
      expect(response.json()).toMatchObject({ status: 'published', publishedAt: '2022-02-02T02:02:02.000Z' });
    });

    it('archived → published and any move to scheduled are refused, and change nothing', async () => {
      const { key } = await ctx.ownerKey();
      const archived = await createPost(api(), key, { title: 'Archived' });
      await move(key, archived.id, 'archived');
      const before = await getPost(api(), key, archived.id);
      expectIssue(
        await api().patch(key, archived.id, { status: 'published', title: 'Changed' }),
        '/status',
        /archived/,
      );
      expect(await getPost(api(), key, archived.id)).toEqual(before);

      for (const status of ['draft', 'published', 'archived']) {
        const post = await createPost(api(), key, { title: `From ${status}` });
        if (status !== 'draft') await move(key, post.id, status);
        const current = await getPost(api(), key, post.id);
        expectIssue(await api().patch(key, post.id, { status: 'scheduled' }), '/status', /scheduled/);
        expectIssue(await api().patch(key, post.id, { status: 'live' }), '/status');
        expect(await getPost(api(), key, post.id)).toEqual(current);
      }
    });

    it('writing the current status again is a no-op', async () => {
      const { key } = await ctx.ownerKey();
      for (const status of ['draft', 'published', 'archived']) {
        const post = await createPost(api(), key, { title: `Stay ${status}` });
        if (status !== 'draft') await move(key, post.id, status);
        const current = await getPost(api(), key, post.id);
        expect(await move(key, post.id, status)).toMatchObject({ status, publishedAt: current.publishedAt });
      }
    });
  });

  describe('references', () => {
    /** Rows of each referenceable kind, in the workspace of `key` and in another one. */
    async function fixture() {
      const mine = await ctx.ownerKey();
      const theirs = await ctx.ownerKey();
      const own = {
        media: await insertMedia(db(), mine.workspace.id),
        author: await insertAuthor(db(), mine.workspace.id),
        category: await insertCategory(db(), mine.workspace.id, { slug: 'mine' }),
        post: (await createPost(api(), mine.key, { title: 'Own related' })).id,
      };
      const foreign = {
        media: await insertMedia(db(), theirs.workspace.id),
        author: await insertAuthor(db(), theirs.workspace.id),
        category: await insertCategory(db(), theirs.workspace.id, { slug: 'theirs' }),
        post: (await createPost(api(), theirs.key, { title: 'Their post' })).id,
      };
      const post = await createPost(api(), mine.key, {
        title: 'Referencing',
        bodyJson: [paragraph('Text'), image(own.media)],
        featuredMediaId: own.media,
        authorId: own.author,
        categoryId: own.category,
        relatedPostIds: [own.post],
      });
      return { key: mine.key, own, foreign, post };
    }

    /** Each field with a bad id, and where the 400 must point. */
    function badRequests(
      own: Json,
      bad: { media: string; author: string; category: string; post: string },
    ): Array<[Json, string]> {
      return [
        [{ featuredMediaId: bad.media }, '/featuredMediaId'],
        [{ authorId: bad.author }, '/authorId'],
        [{ categoryId: bad.category }, '/categoryId'],
        [{ relatedPostIds: [own.post, bad.post] }, '/relatedPostIds/1'],
        [{ bodyJson: [paragraph('x'), image(own.media as string), image(bad.media)] }, '/bodyJson/2/mediaId'],
        [{ structuredBlocks: [image(bad.media)] }, '/structuredBlocks/0/mediaId'],
      ];
    }

    it('an id of another workspace or of no row at all is a 400 naming the field, and nothing is written', async () => {
      const { key, own, foreign, post } = await fixture();
      const missing = { media: NO_SUCH_ID, author: NO_SUCH_ID, category: NO_SUCH_ID, post: NO_SUCH_ID };
      for (const bad of [foreign, missing]) {
        for (const [fields, path] of badRequests(own, bad)) {
          // Valid changes in the same request must not be half-applied.
          expectIssue(
            await api().patch(key, post.id, { title: 'Half written', excerpt: 'no', relatedPostIds: [], ...fields }),
            path,
            /no .* with this id/,
          );
          expect(await getPost(api(), key, post.id), JSON.stringify(fields)).toEqual(post);
          expectIssue(await api().create(key, { title: 'Never created', ...fields }), path);
        }
      }
      expect((await listPosts(api(), key, { q: 'never created' })).total).toBe(0);
      expect((await listPosts(api(), key)).total).toBe(2);
    });

    it('names every bad reference of one request at once', async () => {
      const { key, own, foreign, post } = await fixture();
      const response = await api().patch(
        key,
        post.id,
        Object.assign({}, ...badRequests(own, foreign).map(([fields]) => fields)) as Json,
      );
      expect(response.statusCode).toBe(400);
      const paths = (response.json() as ErrorBody).details!.issues!.map((issue) => issue.path).sort();
      expect(paths).toEqual([
        '/authorId',
        '/bodyJson/2/mediaId',
        '/categoryId',
        '/featuredMediaId',
        '/relatedPostIds/1',
        '/structuredBlocks/0/mediaId',
      ]);
    });

    it('ids are case-insensitive, as UUIDs are, and are stored in lowercase', async () => {
      const { key, own, post } = await fixture();
      const upper = (id: string) => id.toUpperCase();
      const response = await api().patch(key, post.id, {
        featuredMediaId: upper(own.media),
        authorId: upper(own.author),
        categoryId: upper(own.category),
        relatedPostIds: [upper(own.post)],
        bodyJson: [image(upper(own.media))],
        structuredBlocks: [image(upper(own.media))],
      });
      expect(response.statusCode, response.body).toBe(200);
      const edited = response.json() as Post;
      expect(edited).toMatchObject({
        featuredMediaId: own.media,
        authorId: own.author,
        categoryId: own.category,
        relatedPosts: [{ id: own.post }],
      });
      expect(edited.bodyJson).toMatchObject([{ type: 'image', mediaId: own.media, url: edited.featuredMedia!.url }]);
      expect(edited.structuredBlocks).toEqual(edited.bodyJson);
      // The same post twice, once in each case, is still the same post twice.
      expectIssue(
        await api().patch(key, post.id, { relatedPostIds: [own.post, upper(own.post)] }),
        '/relatedPostIds',
        /duplicate/,
      );
    });

    it('a deleted post cannot be related, nor can a post be related to itself', async () => {
      const { key, own, post } = await fixture();
      const doomed = await createPost(api(), key, { title: 'Doomed' });
      expect((await api().remove(key, doomed.id)).statusCode).toBe(200);
      expectIssue(await api().patch(key, post.id, { relatedPostIds: [own.post, doomed.id] }), '/relatedPostIds/1');
      expectIssue(await api().patch(key, post.id, { relatedPostIds: [post.id] }), '/relatedPostIds/0', /itself/);
      expect(await getPost(api(), key, post.id)).toEqual(post);
    });

    it('an image whose media was deleted after it was saved survives a round trip; a new unknown media id does not', async () => {
      const { key, own, post } = await fixture();
      await db().deleteFrom('media').where('id', '=', own.media).execute();
      const read = await getPost(api(), key, post.id);
      expect(read.bodyJson[1]).toEqual({ type: 'image', mediaId: own.media, url: null });
      expect(read.featuredMediaId).toBeNull();

      const edited = read.bodyJson.map((block) => (block.type === 'paragraph' ? { ...block, text: 'Edited' } : block));
      const response = await api().patch(key, post.id, {
        bodyJson: [...edited, image(own.media, { caption: 'Still here' })],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as Post).bodyJson).toEqual([
        ...edited,
        { type: 'image', mediaId: own.media, caption: 'Still here', url: null },
      ]);
      expect((await getPost(api(), key, post.id)).bodyText).toBe('Edited\n\nStill here');

      expectIssue(await api().patch(key, post.id, { bodyJson: [...edited, image(NO_SUCH_ID)] }), '/bodyJson/2/mediaId');
      // Held by bodyJson does not make it acceptable elsewhere: structuredBlocks never held it.
      expectIssue(
        await api().patch(key, post.id, { structuredBlocks: [image(own.media)] }),
        '/structuredBlocks/0/mediaId',
      );
      expectIssue(await api().create(key, { title: 'Copy', bodyJson: [image(own.media)] }), '/bodyJson/0/mediaId');
      expectIssue(await api().patch(key, post.id, { featuredMediaId: own.media }), '/featuredMediaId');
    });
  });

  describe('delete', () => {
    it('answers the pre-delete snapshot with deletedAt set; the post is then gone from every read and write', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const tag = await insertTag(db(), workspace.id, { slug: 'kept' });
      const created = await createPost(api(), key, {
        title: 'Short lived',
        excerpt: 'ephemeral',
        bodyJson: [paragraph('body')],
        featuredMediaId: await insertMedia(db(), workspace.id),
      });
      expect((await api().attach(key, created.id, [tag])).statusCode).toBe(200);
      const before = await getPost(api(), key, created.id);
      const response = await api().remove(key, created.slug);
      expect(response.statusCode).toBe(200);
      const snapshot = response.json() as Post;
      expect(snapshot.deletedAt).toMatch(ISO);
      expect(snapshot).toEqual({ ...before, deletedAt: snapshot.deletedAt });

      for (const idOrSlug of [created.id, created.slug]) {
        expectError(await api().get(key, idOrSlug), 404, 'NOT_FOUND');
        expectError(await api().patch(key, idOrSlug, { title: 'Revived' }), 404, 'NOT_FOUND');
        expectError(await api().remove(key, idOrSlug), 404, 'NOT_FOUND');
        expectError(await api().attach(key, idOrSlug, [tag]), 404, 'NOT_FOUND');
        expectError(await api().detach(key, idOrSlug, [tag]), 404, 'NOT_FOUND');
      }
      for (const query of [{}, { q: 'ephemeral' }, { tagId: tag }, { status: 'draft' }, { orderBy: 'publishedAt' }]) {
        expect((await listPosts(api(), key, query)).total, JSON.stringify(query)).toBe(0);
      }
    });

    it('frees the slug, for an explicit one and for the next derived one', async () => {
      const { key } = await ctx.ownerKey();
      const slugs = [];
      for (let i = 0; i < 3; i += 1) slugs.push(await createPost(api(), key, { title: 'Reused' }));
      expect(slugs.map((post) => post.slug)).toEqual(['reused', 'reused-2', 'reused-3']);
      expect((await api().remove(key, 'reused-2')).statusCode).toBe(200);
      expect((await createPost(api(), key, { title: 'Reused' })).slug).toBe('reused-2');
      expect((await api().remove(key, 'reused')).statusCode).toBe(200);
      const explicit = await createPost(api(), key, { title: 'Another', slug: 'reused' });
      expect((await getPost(api(), key, 'reused')).id).toBe(explicit.id);
      expect((await listPosts(api(), key)).total).toBe(3);
    });

    it('a post of another workspace cannot be deleted or edited', async () => {
      const mine = await ctx.ownerKey();
      const theirs = await ctx.ownerKey();
      const foreign = await createPost(api(), theirs.key, { title: 'Not yours' });
      expectError(await api().remove(mine.key, foreign.id), 404, 'NOT_FOUND');
      expectError(await api().remove(mine.key, foreign.slug), 404, 'NOT_FOUND');
      expectError(await api().patch(mine.key, foreign.id, { title: 'Mine now' }), 404, 'NOT_FOUND');
      expectError(await api().attach(mine.key, foreign.id, [NO_SUCH_ID]), 404, 'NOT_FOUND');
      expect(await getPost(api(), theirs.key, foreign.id)).toEqual(foreign);
    });
  });

  describe('tags', () => {
    async function tagged() {
      const { workspace, key } = await ctx.ownerKey();
      const tags = [];
      for (let i = 0; i < 51; i += 1)
        tags.push(await insertTag(db(), workspace.id, { slug: `tag-${String(i).padStart(2, '0')}` }));
      const post = await createPost(api(), key, { title: 'Taggable' });
      return { workspace, key, tags, post };
    }
    const slugsOf = (response: { json(): unknown }) => (response.json() as Post).tags.map((tag) => tag.slug).sort();

    it('attach and detach are idempotent and answer the refreshed post', async () => {
      const { key, tags, post } = await tagged();
      const attached = await api().attach(key, post.id, [tags[0], tags[1]]);
      expect(attached.statusCode).toBe(200);
      expect(attached.json()).toMatchObject({ id: post.id, title: 'Taggable' });
      expect(slugsOf(attached)).toEqual(['tag-00', 'tag-01']);
      expect(slugsOf(await api().attach(key, post.slug, [tags[1], tags[2], tags[2]]))).toEqual([
        'tag-00',
        'tag-01',
        'tag-02',
      ]);
      expect(slugsOf(await api().attach(key, post.id, [tags[0]]))).toEqual(['tag-00', 'tag-01', 'tag-02']);

      expect(slugsOf(await api().detach(key, post.id, [tags[1]]))).toEqual(['tag-00', 'tag-02']);
      expect(slugsOf(await api().detach(key, post.id, [tags[1], tags[3]]))).toEqual(['tag-00', 'tag-02']);
      const read = await getPost(api(), key, post.id);
      expect(read.tags.map((tag) => tag.slug).sort()).toEqual(['tag-00', 'tag-02']);
      expect(read.tags[0]).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        seo: null,
        createdAt: expect.stringMatching(ISO),
      });
      expect(slugsOf(await api().detach(key, post.id, [tags[0], tags[2]]))).toEqual([]);
    });

    it('takes 1 to 50 ids; 0 or 51 and malformed bodies are a 400', async () => {
      const { key, tags, post } = await tagged();
      expect(slugsOf(await api().attach(key, post.id, tags.slice(0, 50)))).toHaveLength(50);
      expectIssue(await api().attach(key, post.id, tags), '/tagIds');
      expectIssue(await api().attach(key, post.id, []), '/tagIds');
      expectIssue(await api().detach(key, post.id, tags), '/tagIds');
      expectIssue(await api().detach(key, post.id, []), '/tagIds');
      expectIssue(await api().attach(key, post.id, ['not-a-uuid']), '/tagIds/0');
      expectIssue(await api().attach(key, post.id, 'one'), '/tagIds');
      expectIssue(
        await ctx.app.inject({
          method: 'POST',
          url: `/api/v1/external/posts/${post.id}/tags`,
          headers: { 'x-api-key': key },
          payload: { tagIds: [tags[0]], extra: 1 },
        }),
        '/extra',
      );
      expect((await getPost(api(), key, post.id)).tags).toHaveLength(50);
    });

    it('a tag of another workspace, or no tag at all, is a 400 and nothing is attached or detached', async () => {
      const { key, tags, post } = await tagged();
      const other = await ctx.ownerKey();
      const foreign = await insertTag(db(), other.workspace.id, { slug: 'foreign' });
      expect((await api().attach(key, post.id, [tags[0]])).statusCode).toBe(200);
      const before = await getPost(api(), key, post.id);
      expectIssue(await api().attach(key, post.id, [tags[1], foreign]), '/tagIds/1', /no tag/);
      expectIssue(await api().attach(key, post.id, [NO_SUCH_ID]), '/tagIds/0');
      expectIssue(await api().detach(key, post.id, [tags[0], foreign]), '/tagIds/1');
      expect(await getPost(api(), key, post.id)).toEqual(before);
      expectError(await api().attach(key, 'no-such-post', [tags[0]]), 404, 'NOT_FOUND');
    });

    it('tag ids are case-insensitive', async () => {
      const { key, tags, post } = await tagged();
      expect(slugsOf(await api().attach(key, post.id, [tags[0]!.toUpperCase(), tags[0]]))).toEqual(['tag-00']);
      expect(slugsOf(await api().detach(key, post.id, [tags[0]!.toUpperCase()]))).toEqual([]);
    });
  });

  describe('permissions', () => {
    it('posts:write is needed for every write; posts:read alone is refused and changes nothing', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const tag = await insertTag(db(), workspace.id, { slug: 't' });
      const post = await createPost(api(), key, { title: 'Guarded' });
      for (const permissions of [['posts:read'], [], ['pages:write', 'tags:write']] as const) {
        const member = await ctx.memberKey(permissions, workspace);
        expectError(await api().create(member.key, { title: 'Sneaky' }), 403, 'FORBIDDEN');
        expectError(await api().patch(member.key, post.id, { title: 'Sneaky' }), 403, 'FORBIDDEN');
        expectError(await api().remove(member.key, post.id), 403, 'FORBIDDEN');
        expectError(await api().attach(member.key, post.id, [tag]), 403, 'FORBIDDEN');
        expectError(await api().detach(member.key, post.id, [tag]), 403, 'FORBIDDEN');
        // The permission check comes before validation and lookup.
        expectError(await api().create(member.key, { nonsense: true }), 403, 'FORBIDDEN');
        expectError(await api().patch(member.key, 'no-such-post', { title: 'x' }), 403, 'FORBIDDEN');
      }
      expect(await getPost(api(), key, post.id)).toEqual(post);
      expect((await listPosts(api(), key)).total).toBe(1);
    });

    it('posts:write writes but does not read', async () => {
      const { workspace, key } = await ctx.ownerKey();
      const tag = await insertTag(db(), workspace.id, { slug: 't' });
      const writer = await ctx.memberKey(['posts:write'], workspace);
      const created = await createPost(api(), writer.key, { title: 'Written blind' });
      expect((await api().patch(writer.key, created.id, { excerpt: 'edited' })).statusCode).toBe(200);
      expect((await api().attach(writer.key, created.id, [tag])).statusCode).toBe(200);
      expectError(await api().get(writer.key, created.id), 403, 'FORBIDDEN');
      expectError(await api().list(writer.key), 403, 'FORBIDDEN');
      expect(await getPost(api(), key, created.id)).toMatchObject({ excerpt: 'edited', tags: [{ id: tag }] });
      expect((await api().remove(writer.key, created.id)).statusCode).toBe(200);
      expect((await listPosts(api(), key)).total).toBe(0);
    });
  });
});
