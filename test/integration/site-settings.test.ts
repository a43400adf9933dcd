import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { ALL_PERMISSIONS, buildTestApp, EXTERNAL, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';
import { expectError } from '../helpers/posts.js';

/*
 * GET /site-settings: what a site needs to build its URLs and publisher as Quire's jsonLd does, read with
 * a key holding site-settings:read; a content GET like the others (ETag, 304, the response cache).
 */

const EMPTY = {
  siteName: null,
  siteUrl: null,
  logoMediaId: null,
  logo: null,
  publisherName: null,
  publisherUrl: null,
  postUrlPattern: null,
  pageUrlPattern: null,
  authorUrlPattern: null,
  categoryUrlPattern: null,
  previewUrlPattern: null,
};

describeEachDialect('GET /site-settings', (dialect) => {
  let ctx: TestContext;
  let workspace: TestWorkspace;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ workspace, key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const get = (apiKey = key, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/site-settings`, headers: { 'x-api-key': apiKey, ...headers } });
  const settings = (flags: Record<string, string>) =>
    COMMANDS['workspace settings']!.run(ctx.runtime, {
      flags: { workspace: workspace.slug, ...flags },
      readStdin: async () => '',
    });

  it('answers the settings as the dashboard and the CLI set them, with the logo embedded', async () => {
    // A new workspace's site name is its name; nothing else is set.
    const fresh = await get();
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toEqual({ ...EMPTY, siteName: expect.any(String) });

    const logo = await insertMedia(ctx.runtime.database.db, workspace.id, { filename: 'logo.png' });
    await settings({
      'site-name': 'Engines Weekly',
      'site-url': 'https://blog.example.com',
      'logo-media-id': logo,
      'publisher-name': 'Engines Ltd',
      'publisher-url': 'https://engines.example',
      'post-url-pattern': '/blog/{slug}',
      'page-url-pattern': '/{slug}',
      'author-url-pattern': '/authors/{slug}',
      'category-url-pattern': '/c/{path}',
    });
    const read = await get();
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      siteName: 'Engines Weekly',
      siteUrl: 'https://blog.example.com',
      logoMediaId: logo,
      logo: expect.objectContaining({
        id: logo,
        workspaceId: workspace.id,
        url: `${ctx.config.publicUrl}/media/${workspace.id}/${logo}/logo.png`,
      }),
      publisherName: 'Engines Ltd',
      publisherUrl: 'https://engines.example',
      postUrlPattern: '/blog/{slug}',
      pageUrlPattern: '/{slug}',
      authorUrlPattern: '/authors/{slug}',
      categoryUrlPattern: '/c/{path}',
      previewUrlPattern: null,
    });
  });

  it('is a content GET: ETag, private no-cache, 304 while unchanged, the new settings once changed', async () => {
    const first = await get();
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(key, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await settings({ 'post-url-pattern': '/posts/{slug}' });
    const changed = await get(key, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json()).toMatchObject({ postUrlPattern: '/posts/{slug}' });
  });

  it('needs site-settings:read, which no other permission implies', async () => {
    const member = await ctx.memberKey(['site-settings:read'], workspace);
    const allowed = await get(member.key);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ siteUrl: 'https://blog.example.com' });

    const others = ALL_PERMISSIONS.filter((permission) => permission !== 'site-settings:read');
    const refused = await ctx.memberKey(others, workspace);
    expectError(await get(refused.key), 403, 'FORBIDDEN');
    // The answer the owner's key left in the response cache is not served to a key that may not read it.
    expectError(await get(refused.key), 403, 'FORBIDDEN');
  });

  it('answers each workspace its own settings', async () => {
    const other = await ctx.ownerKey();
    expect((await get(other.key)).json()).toMatchObject({ siteUrl: null, postUrlPattern: null });
    expect((await get()).json()).toMatchObject({ siteUrl: 'https://blog.example.com' });
  });

  it('is read-only through the API: the owner edits the settings in the dashboard', async () => {
    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: `${EXTERNAL}/site-settings`,
      headers: { 'x-api-key': key },
      payload: { siteName: 'Taken over' },
    });
    expectError(patch, 405, 'METHOD_NOT_ALLOWED');
    expect(patch.headers.allow).toMatch(/GET/);
  });
});
