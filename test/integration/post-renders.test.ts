import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { postHandlesRepository } from '../../src/modules/posts/read/post-handles.js';
import { createPostReads } from '../../src/modules/posts/read/post-reads.js';
import { postRendersRepository, renderFormat } from '../../src/modules/posts/read/post-renders.js';
import { buildTestApp, EXTERNAL, ownerActor, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { createPost, getPost, image, listPosts, paragraph, postsApi, type Json, type Post } from '../helpers/posts.js';

/*
 * Reads answer from each post's stored render (read/post-renders.ts). Every write that changes what a post
 * shows must make the next read show it, with the response cache off so that nothing else could.
 */
describeEachDialect('posts: stored renders are never stale', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspace: TestWorkspace;
  let post: Post;
  let related: Post;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_RESPONSE_CACHE_MB: '0' } });
    ({ key, workspace } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const api = () => postsApi(ctx);
  const db = () => ctx.runtime.database.db;
  const send = async (method: 'PATCH' | 'DELETE', path: string, payload?: Json) => {
    const response = await ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key },
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const storedRenders = async () =>
    (await db().selectFrom('post_renders').select('post_id').where('workspace_id', '=', workspace.id).execute()).length;

  /** The post as a read by id, by slug and in a list shows it; the three must agree. */
  async function read(): Promise<Post> {
    const byId = await getPost(api(), key, post.id);
    expect(await getPost(api(), key, byId.slug)).toEqual(byId);
    expect((await listPosts(api(), key, { pageSize: 100 })).data.find((one) => one.id === post.id)).toEqual(byId);
    return byId;
  }

  beforeEach(async () => {
    const w = workspace.id;
    const parent = await insertCategory(db(), w, { slug: `parent-${crypto.randomUUID()}` });
    related = await createPost(api(), key, { title: 'Related', featuredMediaId: await insertMedia(db(), w) });
    post = await createPost(api(), key, {
      title: 'Shown',
      authorId: await insertAuthor(db(), w, {
        slug: `author-${crypto.randomUUID()}`,
        avatarMediaId: await insertMedia(db(), w),
      }),
      categoryId: await insertCategory(db(), w, { slug: `leaf-${crypto.randomUUID()}`, parentId: parent }),
      featuredMediaId: await insertMedia(db(), w),
      bodyJson: [paragraph('Text'), image(await insertMedia(db(), w))],
      relatedPostIds: [related.id],
    });
    await api().attach(key, post.id, [
      await insertTag(db(), w, { slug: `tag-${crypto.randomUUID()}`, name: 'Before' }),
    ]);
    // Stored now: the reads below must see past it.
    post = await read();
  });

  it('stores a render on the first read and answers the same bytes from it', async () => {
    const before = await storedRenders();
    const first = await api().get(key, post.id);
    const second = await api().get(key, post.id);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(await storedRenders()).toBe(before);
    const render = await db()
      .selectFrom('post_renders')
      .select('json')
      .where('post_id', '=', post.id)
      .executeTakeFirstOrThrow();
    // SQLite keeps the render as the bytes sent; PostgreSQL's text column gives a string back.
    expect(Buffer.isBuffer(render.json)).toBe(dialect === 'sqlite');
    expect(render.json.toString()).toBe(first.body);
  });

  it('a write to the post itself', async () => {
    await send('PATCH', `/posts/${post.id}`, { title: 'Renamed', bodyJson: [paragraph('New words here')] });
    const shown = await read();
    expect(shown).toMatchObject({ title: 'Renamed', bodyText: 'New words here' });
    expect(JSON.stringify(shown.jsonLd)).toContain('"headline":"Renamed"');
  });

  it('attaching and detaching a tag', async () => {
    const tag = await insertTag(db(), workspace.id, { slug: `tag-${crypto.randomUUID()}`, name: 'Added' });
    await api().attach(key, post.id, [tag]);
    expect((await read()).tags.map((one) => one.name)).toEqual(['Added', 'Before']);
    await api().detach(key, post.id, [tag]);
    expect((await read()).tags.map((one) => one.name)).toEqual(['Before']);
  });

  it('a write to a related post, and its deletion', async () => {
    await send('PATCH', `/posts/${related.id}`, { title: 'Related, renamed', status: 'published' });
    expect((await read()).relatedPosts).toEqual([
      expect.objectContaining({ id: related.id, title: 'Related, renamed', status: 'published' }),
    ]);
    await send('DELETE', `/posts/${related.id}`);
    expect((await read()).relatedPosts).toEqual([]);
  });

  it('a change of the posts it lists, and writes to each of them, listed or not at the time', async () => {
    const other = await createPost(api(), key, { title: 'Other' });
    await send('PATCH', `/posts/${post.id}`, { relatedPostIds: [other.id] });
    expect((await read()).relatedPosts).toEqual([expect.objectContaining({ id: other.id, title: 'Other' })]);
    await send('PATCH', `/posts/${other.id}`, { title: 'Other, renamed' });
    expect((await read()).relatedPosts).toEqual([expect.objectContaining({ id: other.id, title: 'Other, renamed' })]);
    await send('PATCH', `/posts/${related.id}`, { title: 'Related, while not listed' });
    await send('PATCH', `/posts/${post.id}`, { relatedPostIds: [related.id, other.id] });
    expect((await read()).relatedPosts.map((one) => one.title)).toEqual([
      'Related, while not listed',
      'Other, renamed',
    ]);
    await send('PATCH', `/posts/${related.id}`, { title: 'Related, listed again' });
    expect((await read()).relatedPosts.map((one) => one.title)).toEqual(['Related, listed again', 'Other, renamed']);
  });

  it('a write to a tag, an author, a category or a media row it embeds', async () => {
    await send('PATCH', `/tags/${post.tags[0]!.id}`, { name: 'After' });
    expect((await read()).tags[0]!.name).toBe('After');

    await send('PATCH', `/authors/${post.authorId}`, { displayName: 'Renamed Author' });
    expect((await read()).author!.displayName).toBe('Renamed Author');

    await send('PATCH', `/categories/${post.category!.parentId}`, { slug: 'moved' });
    expect((await read()).category!.path).toMatch(/^moved\//);

    await send('PATCH', `/media/${post.featuredMediaId}`, { alt: 'A new description' });
    expect((await read()).featuredMedia!.alt).toBe('A new description');

    const imageBlock = post.bodyJson.find((block) => block.type === 'image') as { mediaId: string };
    await send('DELETE', `/media/${imageBlock.mediaId}`);
    expect((await read()).bodyJson.find((block) => block.type === 'image')).toMatchObject({ url: null });
  });

  it('a change of the site settings', async () => {
    await COMMANDS['workspace settings']!.run(ctx.runtime, {
      flags: { workspace: workspace.slug, 'site-url': 'https://blog.example', 'post-url-pattern': '/p/{slug}' },
      readStdin: async () => '',
    });
    expect(JSON.stringify((await read()).jsonLd)).toContain(`"https://blog.example/p/${post.slug}"`);
  });

  it('a render built from rows read before a write is never served after it', async () => {
    const format = renderFormat(ctx.config.publicUrl);
    const handle = await postHandlesRepository.findHandle(db(), workspace.id, { format, deflated: false }, post.id);
    await send('PATCH', `/posts/${post.id}`, { title: 'Written meanwhile' });
    // The slow reader stores what it built under the labels it read first.
    await postRendersRepository.store(db(), ctx.runtime.database.dialect, workspace.id, format, [
      { handle: handle!, json: Buffer.from('{"stale":true}') },
    ]);
    expect((await read()).title).toBe('Written meanwhile');
  });

  it('nor one built before a write to a related post', async () => {
    const format = renderFormat(ctx.config.publicUrl);
    const handle = await postHandlesRepository.findHandle(db(), workspace.id, { format, deflated: false }, post.id);
    await send('PATCH', `/posts/${related.id}`, { title: 'Related, meanwhile' });
    await postRendersRepository.store(db(), ctx.runtime.database.dialect, workspace.id, format, [
      { handle: handle!, json: Buffer.from('{"stale":true}') },
    ]);
    expect((await read()).relatedPosts).toEqual([
      expect.objectContaining({ id: related.id, title: 'Related, meanwhile' }),
    ]);
  });

  it('a server with another public URL builds its own', async () => {
    const other = createPostReads(ctx.runtime.database, 'https://cdn.example');
    const actor = ownerActor(workspace);
    const shown = JSON.parse((await other.get(actor, post.id)).toString()) as Post;
    expect(shown.featuredMedia!.url).toMatch(/^https:\/\/cdn\.example\//);
    expect((await read()).featuredMedia!.url).toMatch(new RegExp(`^${ctx.config.publicUrl}/`));
  });
});

describe('renderFormat', () => {
  it('differs with the public URL', () => {
    expect(renderFormat('https://a.example')).not.toBe(renderFormat('https://b.example'));
    expect(renderFormat('https://a.example')).toBe(renderFormat('https://a.example'));
  });
});
