import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Media } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, png, uploadMedia } from '../helpers/media.js';
import { expectError, image, NO_SUCH_ID, paragraph, type Json } from '../helpers/posts.js';

describeEachDialect('GET /media/{id}/usage', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const call = async (key: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: Json) => {
    const response = await ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload }),
    });
    return response;
  };
  const created = async (key: string, path: string, payload: Json) => {
    const response = await call(key, 'POST', path, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; slug: string };
  };
  const upload = async (key: string, name: string) => {
    const response = await uploadMedia(ctx, key, [filePart(png(8, 8), name)]);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Media;
  };

  it('names the posts, pages and authors that use it, and the logo; deleted posts and other media do not count', async () => {
    const { workspace, key } = await ctx.ownerKey();
    const used = await upload(key, 'used.png');
    const other = await upload(key, 'other.png');
    const featured = await created(key, '/posts', { title: 'B featured', featuredMediaId: used.id });
    const inBody = await created(key, '/posts', {
      title: 'A in the body',
      bodyJson: [paragraph('Look'), image(other.id), image(used.id, { alt: 'Used' })],
    });
    await created(key, '/posts', { title: 'Another image', bodyJson: [image(other.id)] });
    const gone = await created(key, '/posts', { title: 'Deleted', featuredMediaId: used.id });
    expect((await call(key, 'DELETE', `/posts/${gone.id}`)).statusCode).toBe(200);
    const page = await created(key, '/pages', { title: 'About', bodyJson: [image(used.id)] });
    const author = await created(key, '/authors', { displayName: 'Ada', avatarMediaId: used.id });
    await ctx.runtime.database.db
      .updateTable('workspaces')
      .set({ logo_media_id: used.id })
      .where('id', '=', workspace.id)
      .execute();

    const usage = await call(key, 'GET', `/media/${used.id}/usage`);
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json()).toEqual({
      posts: {
        total: 2,
        items: [
          { id: inBody.id, slug: inBody.slug, title: 'A in the body' },
          { id: featured.id, slug: featured.slug, title: 'B featured' },
        ],
      },
      pages: { total: 1, items: [{ id: page.id, slug: page.slug, title: 'About' }] },
      authors: { total: 1, items: [{ id: author.id, slug: author.slug, title: 'Ada' }] },
      logo: true,
    });
    const unused = await upload(key, 'unused.png');
    expect((await call(key, 'GET', `/media/${unused.id}/usage`)).json()).toEqual({
      posts: { total: 0, items: [] },
      pages: { total: 0, items: [] },
      authors: { total: 0, items: [] },
      logo: false,
    });
  });

  it('needs media:read, and is a 404 for an absent media item or one of another workspace', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const media = await upload(key, 'mine.png');
    const reader = await ctx.memberKey(['media:read'], workspace);
    expect((await call(reader.key, 'GET', `/media/${media.id}/usage`)).statusCode).toBe(200);
    const postsOnly = await ctx.memberKey(['posts:read'], workspace);
    expectError(await call(postsOnly.key, 'GET', `/media/${media.id}/usage`), 403, 'FORBIDDEN');
    const stranger = await ctx.ownerKey();
    expectError(await call(stranger.key, 'GET', `/media/${media.id}/usage`), 404, 'NOT_FOUND');
    expectError(await call(key, 'GET', `/media/${NO_SUCH_ID}/usage`), 404, 'NOT_FOUND');
  });
});
