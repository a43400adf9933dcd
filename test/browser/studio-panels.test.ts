import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EXTERNAL, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { png } from '../helpers/media.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  SCREENSHOT_DIR,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { body, saved, workspaceApi } from './studio-helpers.js';

const OWNER = 'editor@panels.example.com';
const suite = SKIP_REASON ? describe.skip : describe;
type Json = Record<string, unknown>;

const paragraphs = (...texts: string[]) => texts.map((text) => ({ type: 'paragraph', text }));

suite(`the studio's order, history, status, site link and SEO panel${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-studio-panels-');
  // Every save its own revision: the history test compares two saves of a draft a moment apart, which the
  // default window would keep as one (revision-windows.test.ts has the windows).
  const env = { QUIRE_DATA_DIR: dir.dataDir, QUIRE_REVISION_WINDOW_SECONDS: '0' };
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let workspace: { id: string; slug: string };
  let key: string;

  const read = (p: string) => server.fetch(`${EXTERNAL}${p}`, { headers: { 'X-API-Key': key } });
  const external = async (p: string): Promise<Json> => {
    const response = await read(p);
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };
  const newPost = async (body: Json): Promise<string> => {
    const created = await workspaceApi(page, workspace.id).post('/posts', body);
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const edit = async (id: string) => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit post' }).waitFor();
  };
  const badge = (status: string) =>
    page.locator('.studio-head .badge', { hasText: status }).waitFor({ timeout: 15_000 });
  const texts = async (id: string) => ((await external(`/posts/${id}`)).bodyJson as Json[]).map((b) => b.text);
  const fieldTexts = () => body(page).locator('p').allTextContents();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    // bypassCSP: axe is injected as a script tag, which the dashboard's CSP (self only) would refuse.
    page = await (await browser.newContext({ ...desktop, bypassCSP: true })).newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Panel Gazette');
    key = (await workspaceApi(page, workspace.id).post('/api-keys', { name: 'Reader' })).body.key as string;
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('reorders blocks by dragging the handle and by Alt+↓ and Alt+↑, and saves that order', async () => {
    const id = await newPost({ title: 'Reordered', bodyJson: paragraphs('A', 'B', 'C', 'D') });
    await edit(id);
    const paragraph = (n: number) =>
      body(page)
        .locator('p')
        .nth(n - 1);
    await paragraph(4).waitFor();
    // D's handle dropped on A: D takes A's place. The mouse moves as a hand would, with source and target both in
    // view: a drag during which the page scrolled (the handle below the fold) delivered no drag events at all.
    await page.setViewportSize({ width: 1440, height: 1600 });
    await paragraph(4).hover();
    const from = (await page.locator('.gutter-handle').boundingBox())!;
    const to = (await paragraph(1).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 2, to.y + 2, { steps: 8 });
    await page.mouse.up();
    await page.setViewportSize(desktop.viewport!);
    await expect.poll(fieldTexts).toEqual(['D', 'A', 'B', 'C']);
    await paragraph(1).click();
    await page.keyboard.press('Alt+ArrowDown');
    expect(await fieldTexts()).toEqual(['A', 'D', 'B', 'C']);
    // The caret moved with its block: typing goes on in D.
    await page.keyboard.type('!');
    expect(await fieldTexts()).toEqual(['A', 'D!', 'B', 'C']);
    await page.keyboard.press('Backspace');
    await paragraph(4).click();
    await page.keyboard.press('Alt+ArrowUp');
    expect(await fieldTexts()).toEqual(['A', 'D', 'C', 'B']);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(page);
    expect(await texts(id)).toEqual(['A', 'D', 'C', 'B']);
  }, 60_000);

  it('lists revisions, shows one against the copy now word by word, and restores it after asking', async () => {
    const id = await newPost({
      title: 'Kept history',
      bodyJson: paragraphs('First version.', 'Unchanged one.', 'Unchanged two.'),
    });
    await edit(id);
    const paragraph = body(page).locator('p').first();
    const long = 'https://example.com/a/very/long/path/that/never/breaks/at/a/space/on/any/screen/at/all';
    for (const text of ['Second version.', `Third version, see ${long}`]) {
      await paragraph.click();
      await page.keyboard.press('End');
      await page.keyboard.press('Shift+Home');
      await page.keyboard.type(text);
      if (text.startsWith('Third')) await page.getByLabel('Title', { exact: true }).fill('Kept history, retitled');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await saved(page);
    }
    expect((await external(`/posts/${id}/revisions`)).total).toBe(3);
    const history = page.getByRole('region', { name: 'History' });
    const list = history.getByRole('list', { name: 'Revisions, newest first' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    await list.getByRole('button', { name: /^#2 updated/ }).click();

    // Revision #2 against now: its words struck, the current ones underlined, each said in words as well.
    const dialog = page.getByRole('dialog', { name: 'Revision #2', exact: true });
    const blocks = dialog.getByRole('list', { name: 'Body, block by block' });
    await blocks.waitFor();
    expect(await blocks.locator('del').allTextContents()).toEqual(['[deleted: Second]', '[deleted: .]']);
    expect(await blocks.locator('ins').allTextContents()).toEqual(['[inserted: Third]', `[inserted: , see ${long}]`]);
    await blocks.getByText('2 unchanged blocks').waitFor();
    expect(
      await dialog
        .locator('.change', { hasText: /^Title/ })
        .locator('ins')
        .textContent(),
    ).toBe('[inserted: , retitled]');
    expect(await axeViolations(page)).toEqual([]);
    // The dialog scrolls on its own: the page's width says nothing of what overflows inside it.
    type Box = { scrollWidth: number; clientWidth: number };
    const sideways = () =>
      dialog.evaluate((el) => (el as unknown as Box).scrollWidth > (el as unknown as Box).clientWidth);
    for (const width of WIDTHS) {
      // The dialog is opened at each width: on a phone the settings (and the history in them) are a sheet.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.setViewportSize({ width, height: 800 });
      if (width < 1024) await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await list.getByRole('button', { name: /^#2 updated/ }).click();
      await dialog.waitFor();
      expect(await fitsWidth(page), `page at ${width}`).toBe(true);
      expect(await sideways(), `dialog at ${width}`).toBe(false);
      await dialog.screenshot({ path: path.join(SCREENSHOT_DIR, `history-diff-${width}.png`), animations: 'disabled' });
    }

    // Restore asks first, saying what becomes of the current copy; Cancel leaves everything as it was.
    await dialog.getByRole('button', { name: 'Restore revision #2' }).click();
    const confirm = page.getByRole('dialog', { name: 'Restore revision #2?' });
    await confirm.getByText('stays in the history as revision #3').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await external(`/posts/${id}/revisions`)).total).toBe(3);
    await dialog.getByRole('button', { name: 'Restore revision #2' }).click();
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await confirm.waitFor({ state: 'detached' });

    await expect.poll(() => paragraph.textContent()).toBe('Second version.');
    expect(await texts(id)).toEqual(['Second version.', 'Unchanged one.', 'Unchanged two.']);
    expect((await external(`/posts/${id}`)).title).toBe('Kept history');
    const revisions = await external(`/posts/${id}/revisions?orderBy=n&order=desc`);
    expect(revisions.total).toBe(4);
    const newest = await external(`/posts/${id}/revisions/${(revisions.data as Json[])[0]!.n as number}`);
    expect((newest.fields as Json).bodyJson).toEqual(paragraphs('Second version.', 'Unchanged one.', 'Unchanged two.'));
    await expect.poll(() => list.getByRole('listitem').count()).toBe(4);
  }, 90_000);

  it('moves a post through every status the contract allows, and deletes it after saying what that does', async () => {
    const id = await newPost({ title: 'Moving on', bodyJson: paragraphs('Status moves.') });
    await edit(id);
    const status = async () => (await external(`/posts/${id}`)).status;
    const press = async (label: string, to: string) => {
      await page.getByRole('button', { name: label, exact: true }).click();
      await badge(to);
      await saved(page);
      expect(await status()).toBe(to);
    };
    await press('Publish', 'published');
    await press('Unpublish to draft', 'draft');
    await press('Archive', 'archived');
    // An archived post offers only the way back.
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    await press('Restore to draft', 'draft');

    await page.getByRole('button', { name: 'Delete post' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this post?' });
    await confirm.getByText(/“Moving on” disappears from the site and the API at once/).waitFor();
    await confirm.getByText(/its address \(moving-on\) becomes free/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await status()).toBe('draft');

    await page.getByRole('button', { name: 'Delete post' }).click();
    await confirm.getByRole('button', { name: 'Delete post' }).click();
    await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
    expect((await read(`/posts/${id}`)).status).toBe(404);
  }, 60_000);

  it('links "View on site" to the address the site settings give, and only when they give one', async () => {
    const id = await newPost({ title: 'On the site', status: 'published', bodyJson: paragraphs('Live.') });
    const settings = (body: Json) => workspaceApi(page, workspace.id).patch('/settings', body);
    const link = page.getByRole('link', { name: 'View on site' });
    const publishPanel = page.getByRole('region', { name: 'Publish' });

    await edit(id);
    await publishPanel.getByRole('button', { name: 'Unpublish to draft' }).waitFor();
    expect(await link.count()).toBe(0);

    // A site address alone names no page of it.
    expect((await settings({ siteUrl: 'https://news.example.com' })).status).toBe(200);
    await edit(id);
    await publishPanel.getByRole('button', { name: 'Unpublish to draft' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await link.count()).toBe(0);

    expect((await settings({ postUrlPattern: '/stories/{slug}' })).status).toBe(200);
    await edit(id);
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://news.example.com/stories/on-the-site');
    expect(await link.getAttribute('target')).toBe('_blank');
  }, 60_000);

  it('edits every group of the seo object, picks sharing images from the library, and sends nothing unchanged', async () => {
    const id = await newPost({ title: 'Shared widely', bodyJson: paragraphs('Worth sharing.') });
    await edit(id);
    const seo = page.getByRole('region', { name: 'SEO' });
    const sharing = seo.locator('details', { hasText: 'Social sharing' });
    const indexing = seo.locator('details', { hasText: 'Search engine indexing' });
    // Closed while nothing in them is set; opened from the keyboard like any disclosure.
    expect(await sharing.getAttribute('open')).toBeNull();
    await sharing.locator('summary').focus();
    await page.keyboard.press('Enter');
    await sharing.getByLabel('Title when shared', { exact: true }).fill('Read this first');
    await sharing.getByLabel('X (Twitter) card', { exact: true }).selectOption('summary_large_image');

    // One image uploaded through the X picker, then picked from the library for Open Graph.
    const twitterImage = sharing.getByRole('group', { name: 'Image on X (Twitter)' });
    await twitterImage.getByRole('button', { name: 'Choose image on X (Twitter)' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image' });
    await picker
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: png(12, 8) });
    await picker.waitFor({ state: 'detached' });
    await twitterImage.locator('img').waitFor();
    const ogImage = sharing.getByRole('group', { name: 'Image when shared' });
    await ogImage.getByRole('button', { name: 'Choose image when shared' }).click();
    await picker.getByRole('button', { name: 'card.png' }).click();
    await picker.waitFor({ state: 'detached' });
    await ogImage.locator('img').waitFor();
    await ogImage.getByText('card.png').waitFor();

    await indexing.locator('summary').click();
    await indexing.getByLabel('Search results', { exact: true }).selectOption({ label: 'Hide (noindex)' });
    // Both groups open, every field and thumbnail showing: axe, and no sideways scrolling at 375 px.
    const problems = (await axeViolations(page)).map((v) => `${v.impact} ${v.id} (${v.help}) at ${v.targets}`);
    await page.setViewportSize({ width: 375, height: 812 });
    if (!(await fitsWidth(page))) problems.push('the SEO panel at 375px scrolls sideways');
    await page.setViewportSize(desktop.viewport!);
    expect(problems).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(page);

    const media = (await external('/media')).data as Json[];
    const imageId = media.find((m) => m.filename === 'card.png')!.id;
    const stored = await external(`/posts/${id}`);
    expect(stored.seo).toEqual({
      og: { title: 'Read this first', imageMediaId: imageId },
      twitter: { card: 'summary_large_image', imageMediaId: imageId },
      robots: { index: false },
    });

    // Reopened: the groups that hold values open, the saved image shown from its id alone.
    await edit(id);
    await ogImage.locator('img').waitFor();
    await ogImage.getByText('card.png').waitFor();
    expect(await indexing.getAttribute('open')).not.toBeNull();
    expect(await indexing.getByLabel('Links', { exact: true }).inputValue()).toBe('');
    // Typed into and cleared, a field of a nested object leaves the post as it was: no request, no revision.
    const description = sharing.getByLabel('Description on X (Twitter)', { exact: true });
    await description.fill('Briefly');
    await description.fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(page);
    const after = await external(`/posts/${id}`);
    expect(after.updatedAt).toBe(stored.updatedAt);
    expect((await external(`/posts/${id}/revisions`)).total).toBe(2);

    // The server's refusals land on the nested fields their pointers name (it reports the first it finds).
    const snippet = indexing.getByLabel('Longest snippet (characters)', { exact: true });
    const refused = page.getByRole('status').filter({ hasText: 'some values were not accepted' });
    await snippet.fill('-5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await refused.waitFor({ timeout: 15_000 });
    await indexing.getByText('Enter -1 or more.').waitFor();
    expect(await snippet.getAttribute('aria-invalid')).toBe('true');
    await snippet.fill('');
    await sharing.getByLabel('Title when shared', { exact: true }).fill('t'.repeat(301));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await sharing.getByText('Use at most 300 characters.').waitFor({ timeout: 15_000 });
    expect(await sharing.getByLabel('Title when shared', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await indexing.getByText('Enter -1 or more.').count()).toBe(0);
    expect((await external(`/posts/${id}`)).seo).toEqual(stored.seo);
  }, 90_000);
});
