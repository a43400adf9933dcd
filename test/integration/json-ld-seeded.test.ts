import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { seedWorkspace } from '../../src/seed/seed.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { describeIssue, validateJsonLd } from '../helpers/json-ld.js';
import { listPosts, postsApi, type Post } from '../helpers/posts.js';

/*
 * The seeded demo site (`quire seed`, 50 posts with their authors and categories), read through the API
 * and run through the structured-data checks (helpers/json-ld.ts, Google's rich-result rules included):
 * zero errors with the site settings unset, and zero once a site URL and the URL patterns are set.
 */

const POSTS = 50;

describeEachDialect('jsonLd of 50 seeded posts', (dialect) => {
  let ctx: TestContext;
  let workspace: { id: string; slug: string };
  let key: string;

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ workspace, key } = await ctx.ownerKey());
    await seedWorkspace(ctx.runtime.database, {
      workspaceId: workspace.id,
      posts: POSTS,
      storage: createMediaStorage(ctx.config),
      anchor: new Date('2026-03-01T00:00:00.000Z'),
    });
  });
  afterAll(() => ctx?.close());

  const settings = (flags: Record<string, string>) =>
    COMMANDS['workspace settings']!.run(ctx.runtime, {
      flags: { workspace: workspace.slug, ...flags },
      readStdin: async () => '',
    });

  /** Every jsonLd of every post, its author and its category, with each error described. */
  async function errorsOfEveryPost(): Promise<{ graphs: number; posts: Post[]; errors: string[] }> {
    const { data: posts, total } = await listPosts(postsApi(ctx), key, { pageSize: POSTS });
    expect(total).toBe(POSTS);
    const graphs: Array<[string, unknown]> = posts.flatMap((post) => [
      [`post ${post.slug}`, post.jsonLd] as [string, unknown],
      ...(post.author ? [[`author of ${post.slug}`, post.author.jsonLd] as [string, unknown]] : []),
      ...(post.category ? [[`category of ${post.slug}`, post.category.jsonLd] as [string, unknown]] : []),
    ]);
    const errors: string[] = [];
    for (const [label, jsonLd] of graphs) {
      for (const issue of await validateJsonLd(jsonLd))
        if (issue.severity === 'ERROR') errors.push(`${label}: ${describeIssue(issue)}`);
    }
    return { graphs: graphs.length, posts, errors };
  }

  it('has no structured-data error with the site settings unset', async () => {
    await settings({
      'site-name': '',
      'site-url': '',
      'publisher-name': '',
      'publisher-url': '',
      'post-url-pattern': '',
      'page-url-pattern': '',
      'author-url-pattern': '',
      'category-url-pattern': '',
    });
    const { graphs, posts, errors } = await errorsOfEveryPost();
    expect(graphs).toBeGreaterThan(2 * POSTS);
    // The seed gives most posts a category and some a HowTo: the nodes that once went wrong are there.
    expect(posts.filter((post) => post.category).length).toBeGreaterThan(POSTS / 2);
    expect(posts.some((post) => post.isHowTo)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('has no structured-data error with a site URL and every URL pattern set', async () => {
    await settings({
      'site-name': 'Seeded Site',
      'site-url': 'https://seeded.example',
      'post-url-pattern': '/blog/{slug}',
      'page-url-pattern': '/{slug}',
      'author-url-pattern': '/authors/{slug}',
      'category-url-pattern': '/c/{path}',
    });
    const { posts, errors } = await errorsOfEveryPost();
    expect(errors).toEqual([]);
    const breadcrumbs = posts.flatMap((post) =>
      (post.jsonLd as { '@graph': Array<Record<string, unknown>> })['@graph'].filter(
        (node) => node['@type'] === 'BreadcrumbList',
      ),
    );
    expect(breadcrumbs.length).toBeGreaterThan(POSTS / 2);
  });
});
