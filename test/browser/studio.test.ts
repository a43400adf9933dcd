import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EXTERNAL, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { png } from '../helpers/media.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  screenshot,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { body, saved, tabTo, workspaceApi } from './studio-helpers.js';

const OWNER = 'writer@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;

type Json = Record<string, unknown>;

suite(`the writer's studio: write, publish, round-trip, keyboard, axe${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-studio-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let workspace: { id: string; slug: string };
  let key: string;
  let ids: { author: string; child: string; earlier: string };
  let written: { id: string; bodyJson: Json[] };

  const external = async (path: string): Promise<Json> => {
    const response = await server.fetch(`${EXTERNAL}${path}`, { headers: { 'X-API-Key': key } });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    // bypassCSP: axe is injected as a script tag, which the dashboard's CSP (self only) would refuse.
    page = await (await browser.newContext({ ...desktop, bypassCSP: true })).newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Studio Times');
    const api = workspaceApi(page, workspace.id);
    // The people and places a post points at (the library screens that make them are another issue's).
    const author = await api.post('/authors', { displayName: 'Ada Writer' });
    const parent = await api.post('/categories', { name: 'Guides' });
    const child = await api.post('/categories', { name: 'Beginners', parentId: parent.body.id });
    const earlier = await api.post('/posts', { title: 'Earlier post', status: 'published' });
    key = (await api.post('/api-keys', { name: 'Reader' })).body.key as string;
    ids = { author: author.body.id as string, child: child.body.id as string, earlier: earlier.body.id as string };
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('writes a post with an uploaded featured image, tags, category, author and a related post, and publishes exactly that body', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
    await page.getByRole('link', { name: 'New post' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'New post' }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Everything the studio writes');
    await page.getByLabel('Excerpt', { exact: true }).fill('Every block, once.');

    // Every block type is typed in studio-writing.test.ts; here the body is one formatted paragraph.
    await body(page).click();
    await page.keyboard.type('Studio ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('first');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' words.');

    const details = page.getByRole('region', { name: 'Details' });
    await details.getByRole('button', { name: 'Choose featured image' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image' });
    await picker
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png(8, 6) });
    await picker.waitFor({ state: 'detached' });
    await details.getByLabel('Author', { exact: true }).selectOption(ids.author);
    await details.getByLabel('Category', { exact: true }).selectOption(ids.child);
    await details.getByLabel('New tag', { exact: true }).fill('Studio');
    await details.getByRole('button', { name: 'Add tag' }).click();
    await details.getByRole('checkbox', { name: 'Studio' }).waitFor();
    expect(await details.getByRole('checkbox', { name: 'Studio' }).isChecked()).toBe(true);
    await details.getByLabel('Find a post', { exact: true }).fill('Earlier');
    await details.getByRole('button', { name: 'Search', exact: true }).click();
    await details.getByRole('button', { name: 'Add “Earlier post”' }).click();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('.studio-head .badge', { hasText: 'published' }).waitFor({ timeout: 15_000 });
    await saved(page);
    const id = page.url().match(/posts\/([0-9a-f-]{36})\/edit/)?.[1];
    expect(id).toBeTruthy();

    const post = await external(`/posts/${id}`);
    expect(post.bodyJson).toEqual([{ type: 'paragraph', text: 'Studio **first** words.' }]);
    expect(post).toMatchObject({
      title: 'Everything the studio writes',
      slug: 'everything-the-studio-writes',
      excerpt: 'Every block, once.',
      status: 'published',
      featuredMediaId: expect.any(String),
      authorId: ids.author,
      categoryId: ids.child,
    });
    expect((post.tags as Json[]).map((t) => t.name)).toEqual(['Studio']);
    expect((post.relatedPosts as Json[]).map((p) => p.id)).toEqual([ids.earlier]);
    // The live score is the saved one: one scoring module for both.
    const scores = page.getByRole('region', { name: 'SEO' });
    await scores.getByText(`SEO score ${post.seoScore as number}`).waitFor();
    await scores.getByText(`Readability ${post.readabilityScore as number}`).waitFor();
    written = { id: id!, bodyJson: post.bodyJson as Json[] };
  }, 120_000);

  it('opens and saves without a change: the same bodyJson, and no new revision', async () => {
    const before = await external(`/posts/${written.id}`);
    const revisions = (await external(`/posts/${written.id}/revisions`)).total;
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${written.id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit post' }).waitFor();
    await body(page).locator('p').first().waitFor();
    // A published post's save is its bar's main button.
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await saved(page);
    const after = await external(`/posts/${written.id}`);
    expect(after.bodyJson).toEqual(written.bodyJson);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect((await external(`/posts/${written.id}/revisions`)).total).toBe(revisions);
  });

  it('passes axe and fits 375 and 1440 px, writing and in the preview', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${written.id}/edit`);
      await body(page).locator('p').first().click();
      await screenshot(page, `studio-editor-${width}`);
      if (!(await fitsWidth(page))) problems.push(`the editor at ${width}px scrolls sideways`);
      for (const v of await axeViolations(page))
        problems.push(`${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await page.getByRole('article', { name: 'Preview' }).waitFor();
      await screenshot(page, `studio-preview-${width}`);
      for (const v of await axeViolations(page))
        problems.push(`preview ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    }
    await page.setViewportSize(desktop.viewport!);
    expect(problems).toEqual([]);
  }, 60_000);

  it('creates and publishes a post with the keyboard alone', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
    await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
    await tabTo(page, /^New post$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'New post' }).waitFor();
    await tabTo(page, /^Title$/);
    await page.keyboard.type('Typed without a mouse');
    // From the title, Tab goes on through the fields to the body; the toolbar's buttons keep out of the way.
    await tabTo(page, /^Body of the post$/);
    await page.keyboard.type('Only keys.');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+b');
    await tabTo(page, /^Publish$/);
    await page.keyboard.press('Enter');
    await page.locator('.studio-head .badge', { hasText: 'published' }).waitFor({ timeout: 15_000 });
    await saved(page);
    const id = page.url().match(/posts\/([0-9a-f-]{36})\/edit/)?.[1];
    const post = await external(`/posts/${id}`);
    expect(post).toMatchObject({ title: 'Typed without a mouse', status: 'published' });
    expect(post.bodyJson).toEqual([{ type: 'paragraph', text: '**Only keys.**' }]);
  }, 60_000);

  it('writes and publishes a page from the pages list, which keeps no post-only field', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/pages`);
    await page.getByRole('link', { name: 'New page' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'New page' }).waitFor();
    expect(await page.getByLabel('Excerpt', { exact: true }).count()).toBe(0);
    await page.getByLabel('Title', { exact: true }).fill('About the studio');
    await body(page).click();
    await page.keyboard.type('We write here.');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('.studio-head .badge', { hasText: 'published' }).waitFor({ timeout: 15_000 });
    await saved(page);
    const pageId = page.url().match(/pages\/([0-9a-f-]{36})\/edit/)?.[1];
    const stored = await external(`/pages/${pageId}`);
    expect(stored).toMatchObject({ title: 'About the studio', slug: 'about-the-studio', status: 'published' });
    expect(stored.bodyJson).toEqual([{ type: 'paragraph', text: 'We write here.' }]);
    expect(await page.getByRole('button', { name: 'Unpublish to draft' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Archive' }).count()).toBe(0);
  }, 60_000);
});
