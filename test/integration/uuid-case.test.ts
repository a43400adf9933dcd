import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertMedia, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, png, uploadMedia } from '../helpers/media.js';
import type { Json } from '../helpers/posts.js';

const upper = (id: string) => id.toUpperCase();

describeEachDialect('a UUID in capitals names the same row as in lower case, in every field and path', (dialect) => {
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
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: Json) => {
    const response = await ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key },
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
    return response.json() as Json;
  };

  it('references in writes are accepted and stored lower-case', async () => {
    const media = await insertMedia(db(), workspaceId);
    const author = await insertAuthor(db(), workspaceId);
    const category = await insertCategory(db(), workspaceId, { slug: 'upper' });
    const tag = await insertTag(db(), workspaceId, { slug: 'upper-tag' });
    const related = await call('POST', '/posts', { title: 'Related' });
    const post = await call('POST', '/posts', {
      title: 'Capitals',
      featuredMediaId: upper(media),
      authorId: upper(author),
      categoryId: upper(category),
      relatedPostIds: [upper(related.id as string)],
      bodyJson: [{ type: 'image', mediaId: upper(media) }],
      structuredBlocks: [{ type: 'image', mediaId: upper(media) }],
    });
    expect(post).toMatchObject({
      featuredMediaId: media,
      authorId: author,
      categoryId: category,
      relatedPosts: [{ id: related.id }],
      bodyJson: [{ mediaId: media, url: expect.any(String) }],
      structuredBlocks: [{ mediaId: media, url: expect.any(String) }],
    });
    const tagged = await call('POST', `/posts/${upper(post.id as string)}/tags`, { tagIds: [upper(tag)] });
    expect(tagged.tags).toEqual([expect.objectContaining({ id: tag })]);

    const avatar = await call('POST', '/authors', { displayName: 'Capital Letters', avatarMediaId: upper(media) });
    expect(avatar.avatarMediaId).toBe(media);
    const child = await call('POST', '/categories', { name: 'Child', parentId: upper(category) });
    expect(child.parentId).toBe(category);
  });

  it('filters and paths find the row', async () => {
    const author = await insertAuthor(db(), workspaceId);
    const post = await call('POST', '/posts', { title: 'Filtered', authorId: author });
    const list = await call('GET', `/posts?authorId=${upper(author)}`);
    expect((list.data as Json[]).map((p) => p.id)).toEqual([post.id]);
    expect((await call('GET', `/posts/${upper(post.id as string)}`)).id).toBe(post.id);
    expect((await call('GET', `/authors/${upper(author)}`)).id).toBe(author);
    const redirect = await call('POST', '/redirects', { fromPath: '/caps', toPath: '/lower' });
    expect((await call('PATCH', `/redirects/${upper(redirect.id as string)}`, { statusCode: 302 })).id).toBe(
      redirect.id,
    );
    const uploaded = (await uploadMedia(ctx, key, [filePart(png(2, 2), 'caps.png')])).json() as { url: string };
    const path = new URL(uploaded.url).pathname;
    const [, , workspace, media, filename] = path.split('/');
    const file = await ctx.app.inject({
      method: 'GET',
      url: `/media/${upper(workspace!)}/${upper(media!)}/${filename}`,
    });
    expect(file.statusCode).toBe(200);
    expect((await call('GET', `/media/${upper(media!)}`)).id).toBe(media);
  });
});
