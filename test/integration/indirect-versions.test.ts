import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { expectError, image, paragraph, type Json } from '../helpers/posts.js';

/*
 * Deletions of other resources that change what a post or page answers: its version (`updatedAt`) moves
 * with them, so a client editing the copy it read before is told with a 409 "stale", and the change feed
 * names the post or page as updated. An author or a category is never deleted under a live post (409).
 */
describeEachDialect('versions moved by writes of other resources', (dialect) => {
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

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: Json, headers = {}) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const created = async (path: string, payload: Json) => {
    const response = await send('POST', path, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; slug: string; updatedAt: string };
  };
  const media = () => insertMedia(ctx.runtime.database.db, workspaceId);
  const cursor = async () => (await send('GET', '/changes')).json().next as string;
  const changedSince = async (after: string) =>
    ((await send('GET', `/changes?after=${after}`)).json().data as Array<Json>).map((e) => [e.event, e.id]);

  /** After `change`, the resource reads a newer version, and a PATCH based on the read before it is stale. */
  async function expectMoved(path: string, before: { updatedAt: string }) {
    const now = (await send('GET', path)).json() as { updatedAt: string };
    expect(now.updatedAt > before.updatedAt, `${now.updatedAt} after ${before.updatedAt}`).toBe(true);
    const stale = await send('PATCH', path, { title: 'Late' }, { 'if-match': `"${before.updatedAt}"` });
    expect(expectError(stale, 409, 'CONFLICT').details).toEqual({ reason: 'stale', version: now.updatedAt });
    const current = await send('PATCH', path, { title: 'On time' }, { 'if-match': `"${now.updatedAt}"` });
    expect(current.statusCode, current.body).toBe(200);
  }

  it("a media deletion that clears a post's featured image moves the post's version", async () => {
    const mediaId = await media();
    const post = await created('/posts', { title: 'Featured', featuredMediaId: mediaId });
    const after = await cursor();
    expect((await send('DELETE', `/media/${mediaId}`)).statusCode).toBe(200);
    expect(await changedSince(after)).toEqual([
      ['media.deleted', mediaId],
      ['post.updated', post.id],
    ]);
    await expectMoved(`/posts/${post.id}`, post);
  });

  it("a media deletion that empties an image block of a post's body moves the post's version", async () => {
    const mediaId = await media();
    const post = await created('/posts', { title: 'Pictured', bodyJson: [paragraph('See:'), image(mediaId)] });
    const after = await cursor();
    expect((await send('DELETE', `/media/${mediaId}`)).statusCode).toBe(200);
    expect((await send('GET', `/posts/${post.id}`)).json().bodyJson[1]).toMatchObject({ mediaId, url: null });
    expect(await changedSince(after)).toEqual([
      ['media.deleted', mediaId],
      ['post.updated', post.id],
    ]);
    await expectMoved(`/posts/${post.id}`, post);
  });

  it("a media deletion that empties an image block of a post's structured blocks moves the post's version", async () => {
    const mediaId = await media();
    const post = await created('/posts', { title: 'Structured', structuredBlocks: [image(mediaId)] });
    const after = await cursor();
    expect((await send('DELETE', `/media/${mediaId}`)).statusCode).toBe(200);
    expect((await send('GET', `/posts/${post.id}`)).json().structuredBlocks[0]).toMatchObject({ mediaId, url: null });
    expect(await changedSince(after)).toEqual([
      ['media.deleted', mediaId],
      ['post.updated', post.id],
    ]);
    await expectMoved(`/posts/${post.id}`, post);
  });

  it("a media deletion that empties an image block of a page's body moves the page's version", async () => {
    const mediaId = await media();
    const page = await created('/pages', { title: 'About', bodyJson: [image(mediaId)] });
    const after = await cursor();
    expect((await send('DELETE', `/media/${mediaId}`)).statusCode).toBe(200);
    expect((await send('GET', `/pages/${page.id}`)).json().bodyJson[0]).toMatchObject({ mediaId, url: null });
    expect(await changedSince(after)).toEqual([
      ['media.deleted', mediaId],
      ['page.updated', page.id],
    ]);
    await expectMoved(`/pages/${page.id}`, page);
  });

  it('a tag deletion moves the version of each post it leaves, and of no other', async () => {
    const tag = await created('/tags', { name: `gone-${Date.now()}` });
    const tagged = await created('/posts', { title: 'Tagged' });
    const untouched = await created('/posts', { title: 'Untagged' });
    const attached = await send('POST', `/posts/${tagged.id}/tags`, { tagIds: [tag.id] });
    const read = attached.json() as { updatedAt: string; tags: unknown[] };
    expect(read.tags).toHaveLength(1);
    const after = await cursor();
    expect((await send('DELETE', `/tags/${tag.id}`)).statusCode).toBe(200);
    expect((await send('GET', `/posts/${tagged.id}`)).json().tags).toEqual([]);
    expect(await changedSince(after)).toEqual([
      ['tag.deleted', tag.id],
      ['post.updated', tagged.id],
    ]);
    await expectMoved(`/posts/${tagged.id}`, read);
    expect((await send('GET', `/posts/${untouched.id}`)).json().updatedAt).toBe(untouched.updatedAt);
  });
});
