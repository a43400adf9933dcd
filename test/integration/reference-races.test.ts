import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { createPost, postsApi, type ErrorBody, type Response } from '../helpers/posts.js';
import { resourceApi } from '../helpers/resources.js';

const ROUNDS = 40;

/**
 * Starts `work` after `turns` turns of the event loop: the delete starts with the write or a little after it,
 * so that on either dialect some rounds find the row gone and others reference it first.
 */
async function afterTurns<T>(turns: number, work: () => Promise<T>): Promise<T> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return work();
}

/**
 * One kind of race: a write naming a row (`write`) sent at the same moment as that row's delete (`remove`).
 * `refused` is the refusal the write must give when the row is gone first, as the check gives it without a
 * race; `settled` looks at what was stored once both have answered.
 */
interface RaceKind {
  name: string;
  target(): Promise<string>;
  write(id: string, round: number): Promise<Response>;
  remove(id: string): Promise<Response>;
  refused: { path: string; message: string };
  settled(id: string, round: number, write: Response, remove: Response): Promise<void>;
}

describeEachDialect('a referenced row deleted while a write names it', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    const owner = await ctx.ownerKey();
    key = owner.key;
    workspaceId = owner.workspace.id;
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const posts = () => postsApi(ctx);
  const removeMedia = (id: string) =>
    ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/media/${id}`, headers: { 'x-api-key': key } });
  const storedPosts = (title: string) => db().selectFrom('posts').selectAll().where('title', '=', title).execute();
  const storedPost = (id: string) =>
    db().selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const postTagIds = async (postId: string) =>
    (await db().selectFrom('post_tags').select('tag_id').where('post_id', '=', postId).execute()).map(
      (row) => row.tag_id,
    );
  const exists = async (table: 'authors' | 'categories' | 'tags' | 'media', id: string) =>
    (await db().selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  /** A write and a delete of what it names resolve as if one ran first: never both, never neither. */
  const oneFirst = (write: Response, remove: Response) =>
    expect([write.statusCode < 300, remove.statusCode]).toEqual(write.statusCode < 300 ? [true, 409] : [false, 200]);

  function kinds(): RaceKind[] {
    let post: { id: string } | undefined;
    const thePost = async () => (post ??= await createPost(posts(), key, { title: 'Raced over' }));
    return [
      {
        name: 'tag attach / tag delete',
        target: async () => insertTag(db(), workspaceId, { slug: `tag-${crypto.randomUUID()}` }),
        write: async (id) => posts().attach(key, (await thePost()).id, [id]),
        remove: (id) => resourceApi(ctx, 'tags').remove(key, id),
        refused: { path: '/tagIds/0', message: 'no tag with this id in this workspace' },
        settled: async (id) => {
          // The tag's delete detaches it from every post, whichever ran first.
          expect(await postTagIds((await thePost()).id)).not.toContain(id);
        },
      },
      {
        name: 'post create with authorId / author delete',
        target: async () => insertAuthor(db(), workspaceId, { slug: `author-${crypto.randomUUID()}` }),
        write: (id, round) => posts().create(key, { title: `Created ${round}`, authorId: id }),
        remove: (id) => resourceApi(ctx, 'authors').remove(key, id),
        refused: { path: '/authorId', message: 'no author with this id in this workspace' },
        settled: async (id, round, write, remove) => {
          oneFirst(write, remove);
          const created = await storedPosts(`Created ${round}`);
          expect(created.map((row) => row.author_id)).toEqual(write.statusCode === 201 ? [id] : []);
        },
      },
      {
        name: 'PATCH authorId / author delete',
        target: async () => insertAuthor(db(), workspaceId, { slug: `author-${crypto.randomUUID()}` }),
        write: async (id) => posts().patch(key, (await thePost()).id, { authorId: id }),
        remove: (id) => resourceApi(ctx, 'authors').remove(key, id),
        refused: { path: '/authorId', message: 'no author with this id in this workspace' },
        settled: async (id, _round, write, remove) => {
          oneFirst(write, remove);
          const stored = await storedPost((await thePost()).id);
          if (write.statusCode === 200) expect(stored.author_id).toBe(id);
          else expect(stored.author_id).not.toBe(id);
        },
      },
      {
        name: 'PATCH categoryId / category delete',
        target: async () => insertCategory(db(), workspaceId, { slug: `category-${crypto.randomUUID()}` }),
        write: async (id) => posts().patch(key, (await thePost()).id, { categoryId: id }),
        remove: (id) => resourceApi(ctx, 'categories').remove(key, id),
        refused: { path: '/categoryId', message: 'no category with this id in this workspace' },
        settled: async (id, _round, write, remove) => {
          oneFirst(write, remove);
          const stored = await storedPost((await thePost()).id);
          if (write.statusCode === 200) expect(stored.category_id).toBe(id);
          else expect(stored.category_id).not.toBe(id);
        },
      },
      {
        name: 'category create with parentId / parent delete',
        target: async () => insertCategory(db(), workspaceId, { slug: `parent-${crypto.randomUUID()}` }),
        write: (id, round) => resourceApi(ctx, 'categories').create(key, { name: `Child ${round}`, parentId: id }),
        remove: (id) => resourceApi(ctx, 'categories').remove(key, id),
        refused: { path: '/parentId', message: 'no category with this id in this workspace' },
        settled: async (id, round, write, remove) => {
          oneFirst(write, remove);
          const children = await db().selectFrom('categories').select('parent_id').where('name', '=', `Child ${round}`);
          expect((await children.execute()).map((row) => row.parent_id)).toEqual(write.statusCode === 201 ? [id] : []);
        },
      },
      {
        name: 'PATCH featuredMediaId / media delete',
        target: async () => insertMedia(db(), workspaceId),
        write: async (id) => posts().patch(key, (await thePost()).id, { featuredMediaId: id }),
        remove: removeMedia,
        refused: { path: '/featuredMediaId', message: 'no media with this id in this workspace' },
        settled: async (id) => {
          expect(await exists('media', id)).toBe(false);
          // The delete clears the post's featured image whichever ran first.
          expect((await storedPost((await thePost()).id)).featured_media_id).toBeNull();
        },
      },
      {
        name: 'PATCH image block / media delete',
        target: async () => insertMedia(db(), workspaceId),
        write: async (id) => posts().patch(key, (await thePost()).id, { bodyJson: [{ type: 'image', mediaId: id }] }),
        remove: removeMedia,
        refused: { path: '/bodyJson/0/mediaId', message: 'no media with this id in this workspace' },
        settled: async (id) => expect(await exists('media', id)).toBe(false),
      },
      {
        name: 'author PATCH avatarMediaId / media delete',
        target: async () => insertMedia(db(), workspaceId),
        write: async (id) => {
          const author = await insertAuthor(db(), workspaceId, { slug: `avatar-${crypto.randomUUID()}` });
          return resourceApi(ctx, 'authors').patch(key, author, { avatarMediaId: id });
        },
        remove: removeMedia,
        refused: { path: '/avatarMediaId', message: 'no media with this id in this workspace' },
        settled: async (id) => {
          const holders = await db().selectFrom('authors').select('id').where('avatar_media_id', '=', id).execute();
          expect(holders).toEqual([]);
        },
      },
      {
        name: 'post create with relatedPostIds / related post delete',
        target: async () => (await createPost(posts(), key, { title: 'Related, then gone' })).id,
        write: (id, round) => posts().create(key, { title: `Relating ${round}`, relatedPostIds: [id] }),
        remove: (id) => posts().remove(key, id),
        refused: { path: '/relatedPostIds/0', message: 'no live post with this id in this workspace' },
        settled: async (_id, round, write) => {
          expect((await storedPosts(`Relating ${round}`)).length).toBe(write.statusCode === 201 ? 1 : 0);
        },
      },
    ];
  }

  it(`${ROUNDS} rounds of each kind: no 500, a refusal names the field, nothing half-written`, async () => {
    const seen: Record<string, number> = {};
    const failed: string[] = [];
    let rounds = 0;
    for (const kind of kinds()) {
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = await kind.target();
        const [write, remove] = await Promise.all([
          kind.write(id, round),
          afterTurns(round % 4, () => kind.remove(id)),
        ]);
        rounds += 1;
        const label = `${write.statusCode}/${remove.statusCode}`;
        seen[label] = (seen[label] ?? 0) + 1;
        if (write.statusCode === 500 || remove.statusCode === 500) {
          failed.push(`${kind.name}: ${label}`);
          continue;
        }
        expect([200, 201, 400], `${kind.name}: ${write.body}`).toContain(write.statusCode);
        expect([200, 409], `${kind.name}: ${remove.body}`).toContain(remove.statusCode);
        if (write.statusCode === 400)
          expect((write.json() as ErrorBody).details?.issues, kind.name).toEqual([{ in: 'body', ...kind.refused }]);
        await kind.settled(id, round, write, remove);
      }
    }
    // The closing note of issue 35 quotes this line.
    process.stdout.write(
      `reference races [${dialect}]: ${rounds} rounds, write/delete statuses ${JSON.stringify(seen)}\n`,
    );
    expect(failed, 'rounds answered 500').toEqual([]);
  }, 240_000);
});
