import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { DERIVED_FIELDS_VERSION } from '../../src/blocks/derive.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('quire workspace settings, and the settings in jsonLd', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const settings = (flags: Record<string, string>) =>
    COMMANDS['workspace settings']!.run(ctx.runtime, { flags, readStdin: async () => '' }) as Promise<
      Record<string, string | null>
    >;

  it('sets, prints and clears the site settings that absolute URLs in jsonLd come from', async () => {
    const { workspace, key } = await ctx.ownerKey();
    const post = (
      await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': key },
        payload: { title: 'Hello there', status: 'published' },
      })
    ).json();
    expect(JSON.stringify(post.jsonLd)).not.toContain('https://blog.example');

    const updated = await settings({
      workspace: workspace.slug,
      'site-url': 'https://blog.example',
      'post-url-pattern': '/posts/{slug}',
      'site-name': 'Example',
    });
    expect(updated).toMatchObject({
      siteUrl: 'https://blog.example',
      postUrlPattern: '/posts/{slug}',
      siteName: 'Example',
    });
    expect(await settings({ workspace: workspace.id })).toEqual(updated);

    const read = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/posts/${post.id}`,
      headers: { 'x-api-key': key },
    });
    expect(read.headers['quire-derived-version']).toBe(String(DERIVED_FIELDS_VERSION));
    expect(JSON.stringify(read.json().jsonLd)).toContain('https://blog.example/posts/hello-there');

    expect(await settings({ workspace: workspace.slug, 'post-url-pattern': '' })).toMatchObject({
      postUrlPattern: null,
      siteUrl: 'https://blog.example',
    });
  });

  it('refuses a bad URL or pattern with the field named, and writes nothing', async () => {
    const workspace = await ctx.createWorkspace();
    await expect(settings({ workspace: workspace.slug, 'site-url': 'ftp://x' })).rejects.toMatchObject({ status: 400 });
    await expect(settings({ workspace: workspace.slug, 'post-url-pattern': '/blog/' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(settings({ workspace: workspace.slug, 'logo-media-id': 'nope' })).rejects.toMatchObject({
      status: 400,
    });
    expect(await settings({ workspace: workspace.slug })).toMatchObject({ siteUrl: null, postUrlPattern: null });
  });
});
