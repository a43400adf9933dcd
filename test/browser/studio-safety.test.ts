import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { EXTERNAL, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  desktop,
  fitsWidth,
  launchBrowser,
  PASSWORD,
  SCREENSHOT_DIR,
  setUpOwner,
  signIn,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { body, caretAtEnd, pasteInto, saved, workspaceApi } from './studio-helpers.js';

const OWNER = 'careful@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;
type Json = Record<string, unknown>;

suite(`the writer's studio never loses typing${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-studio-safety-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let page: Page;
  let workspace: { id: string; slug: string };
  let key: string;

  const external = async (p: string): Promise<Json> =>
    (await (await server.fetch(`${EXTERNAL}${p}`, { headers: { 'X-API-Key': key } })).json()) as Json;
  const newPost = async (body: Json): Promise<string> => {
    const created = await workspaceApi(page, workspace.id).post('/posts', body);
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const edit = async (p: Page, id: string) => {
    await p.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    await p.getByRole('heading', { level: 1, name: 'Edit post' }).waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    contexts = [await browser.newContext(desktop), await browser.newContext(desktop)];
    page = await contexts[0]!.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Careful Press');
    key = (await workspaceApi(page, workspace.id).post('/api-keys', { name: 'Reader' })).body.key as string;
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('refuses the second of two writers, merges what does not collide and asks about what does', async () => {
    const id = await newPost({
      title: 'Shared draft',
      bodyJson: [
        { type: 'paragraph', text: 'Alpha.' },
        { type: 'paragraph', text: 'Beta.' },
        { type: 'paragraph', text: 'Gamma.' },
      ],
    });
    const other = await contexts[1]!.newPage();
    await signIn(other, server.url, OWNER, PASSWORD);
    await edit(page, id);
    await edit(other, id);
    const typeAtEnd = async (p: Page, n: number, text: string) => {
      await body(p).locator('p').nth(n).click();
      await caretAtEnd(body(p).locator('p').nth(n));
      await p.keyboard.type(text);
    };

    // The first writer changes the first paragraph; the second, unaware, the third.
    await typeAtEnd(page, 0, ' By the first.');
    await saved(page);
    await typeAtEnd(other, 2, ' By the second.');
    const panel = other.getByRole('dialog', { name: 'A newer copy of this post was saved' });
    await panel.waitFor({ timeout: 15_000 });
    await panel.getByRole('region', { name: 'What they changed' }).getByText('By the first.').waitFor();
    // Closed, the notice keeps the way back to it.
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.waitFor({ state: 'detached' });
    await other.getByRole('alert').getByRole('button', { name: 'Compare and merge' }).click();
    await panel.waitFor();
    for (const width of WIDTHS) {
      await other.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      expect(await fitsWidth(other), `the merge at ${width}px`).toBe(true);
      await panel.screenshot({
        path: path.join(SCREENSHOT_DIR, `studio-conflict-${width}.png`),
        animations: 'disabled',
      });
    }
    await other.setViewportSize(desktop.viewport!);
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([
      { type: 'paragraph', text: 'Alpha. By the first.' },
      { type: 'paragraph', text: 'Beta.' },
      { type: 'paragraph', text: 'Gamma.' },
    ]);
    await panel.getByRole('button', { name: 'Save merged' }).click();
    await saved(other);
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([
      { type: 'paragraph', text: 'Alpha. By the first.' },
      { type: 'paragraph', text: 'Beta.' },
      { type: 'paragraph', text: 'Gamma. By the second.' },
    ]);

    // Now both change the third paragraph: the first writer is asked which to keep, block by block.
    await typeAtEnd(page, 2, ' Mine.');
    const conflict = page.getByRole('dialog', { name: 'A newer copy of this post was saved' });
    await conflict.waitFor({ timeout: 15_000 });
    await conflict
      .getByRole('group', { name: /^Block 3/ })
      .getByRole('radio', { name: 'Mine' })
      .check();
    await conflict.getByRole('button', { name: 'Save merged' }).click();
    await saved(page);
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([
      { type: 'paragraph', text: 'Alpha. By the first.' },
      { type: 'paragraph', text: 'Beta.' },
      { type: 'paragraph', text: 'Gamma. Mine.' },
    ]);
    // The second writer, stale in turn, takes theirs whole: the editor shows what the first saved.
    await typeAtEnd(other, 1, ' Late.');
    const late = other.getByRole('dialog', { name: 'A newer copy of this post was saved' });
    await late.waitFor({ timeout: 15_000 });
    await late.getByRole('button', { name: 'Take theirs' }).click();
    await saved(other);
    expect(await body(other).locator('p').allTextContents()).toEqual(['Alpha. By the first.', 'Beta.', 'Gamma. Mine.']);
    await other.close();
  }, 90_000);

  it('offers back what was typed when the page reloads before the autosave', async () => {
    const id = await newPost({ title: 'Kept locally', bodyJson: [{ type: 'paragraph', text: 'Saved text.' }] });
    await edit(page, id);
    await body(page).locator('p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Typed, never saved.');
    await page.waitForTimeout(600); // past the local copy's pause, well before the autosave's
    await page.reload();
    const offer = page.getByRole('region', { name: 'Unsaved changes found' });
    await offer.waitFor();
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([{ type: 'paragraph', text: 'Saved text.' }]);
    await offer.getByRole('button', { name: 'Restore unsaved changes' }).click();
    await body(page).getByText('Saved text. Typed, never saved.').waitFor();
    await saved(page);
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([
      { type: 'paragraph', text: 'Saved text. Typed, never saved.' },
    ]);
  }, 60_000);

  it('keeps the text and saves again by itself after a save refused with 503 (the database away)', async () => {
    const id = await newPost({ title: 'Through an outage', excerpt: 'Before' });
    await edit(page, id);
    // The first save finds the database away, as a PostgreSQL restart does; the server's own 503 body.
    let refused = 0;
    await page.route(`**/api/v1/dashboard/workspaces/*/posts/${id}`, async (route) => {
      if (route.request().method() !== 'PATCH' || refused > 0) return route.fallback();
      refused += 1;
      await route.fulfill({
        status: 503,
        headers: { 'Retry-After': '1', 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          code: 'UNAVAILABLE',
          message: 'The database is not answering; retry after the time in Retry-After',
          details: { dependency: 'database', reason: 'shutting_down', retryAfterSeconds: 1 },
        }),
      });
    });
    try {
      await page.getByLabel('Excerpt', { exact: true }).fill('Typed during the outage');
      await page
        .getByRole('status')
        .filter({ hasText: 'Not saved yet: the server cannot reach its database right now' })
        .waitFor({ timeout: 15_000 });
      await saved(page);
    } finally {
      await page.unroute(`**/api/v1/dashboard/workspaces/*/posts/${id}`);
    }
    expect(refused).toBe(1);
    expect((await external(`/posts/${id}`)).excerpt).toBe('Typed during the outage');
  }, 60_000);

  it('turns pasted Markdown into blocks, moves a block with Alt+↑, and formats with Ctrl+B', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/new`);
    await body(page).click();
    await pasteInto(body(page), { 'text/plain': '# Big\n\nPara *one*\n\n- a\n- b\n\n1. x\n2. y\n\n> q' });
    const tags = () =>
      body(page)
        .locator(':scope > *')
        .evaluateAll((els) => els.map((e) => (e as unknown as { tagName: string }).tagName.toLowerCase()));
    await expect.poll(tags).toEqual(['h2', 'p', 'ul', 'ol', 'figure']);
    expect(await body(page).locator('ul > li').allTextContents()).toEqual(['a', 'b']);
    expect(await body(page).locator('p em').textContent()).toBe('one');

    await body(page).locator('blockquote').click();
    await page.keyboard.press('Alt+ArrowUp');
    expect(await tags()).toEqual(['h2', 'p', 'ul', 'figure', 'ol']);

    await body(page).locator('p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' make this bold');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Control+b');
    expect(await body(page).locator('p strong').textContent()).toBe('bold');
    // The toolbar redraws in a task after the next frame (the key paints first), so its state is awaited.
    await expect.poll(() => page.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
  }, 60_000);

  it('shows a limit before saving and a refusal of the server on the block it names', async () => {
    const id = await newPost({ title: 'Limits', bodyJson: [{ type: 'paragraph', text: 'Short.' }] });
    await edit(page, id);
    await body(page).locator('p').first().click();
    await page.keyboard.press('End');
    await pasteInto(body(page), { 'text/plain': 'x'.repeat(10_000) });
    await body(page)
      .locator('.block-error')
      .filter({ hasText: /A paragraph holds at most 10,000 characters/ })
      .waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'over the limits' }).waitFor();
    await body(page).focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => body(page).locator('.block-error').count()).toBe(0);
    // A language name longer than the server allows: only the server says so, on the block.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('```' + 'l'.repeat(51) + ' ');
    await page.keyboard.type('code();');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await body(page)
      .locator('.block-error')
      .filter({ hasText: 'Use at most 50 characters.' })
      .waitFor({ timeout: 15_000 });
    expect(await body(page).locator('.code-card').getAttribute('aria-invalid')).toBe('true');
  }, 60_000);

  it('opens and types into a post of 1,000 blocks, and says when the body is full', async () => {
    const blocks = Array.from({ length: 1000 }, (_, i) => ({
      type: 'paragraph',
      text: `Paragraph ${i + 1}: a sentence long enough to wrap once or twice in the editor's text area, as prose does.`,
    }));
    const id = await newPost({ title: 'A thousand blocks', bodyJson: blocks });
    await edit(page, id);
    await body(page).locator('p').nth(999).waitFor({ timeout: 30_000 });
    const target = body(page).locator('p').nth(499);
    await target.click();
    await caretAtEnd(target);
    const typed = ' and more words typed at the end';
    await page.keyboard.type(typed);
    expect(await target.textContent()).toBe(`${blocks[499]!.text}${typed}`);
    await page.getByRole('button', { name: '+ Insert block' }).click();
    await page.getByRole('group', { name: 'Block types' }).getByRole('button', { name: 'Quote' }).click();
    await page.getByText('A body holds at most 1,000 blocks. Delete one to add another.').waitFor();
    await saved(page);
    const stored = (await external(`/posts/${id}`)).bodyJson as Json[];
    expect(stored).toHaveLength(1000);
    expect(stored[499]).toEqual({ type: 'paragraph', text: `${blocks[499]!.text}${typed}` });
  }, 120_000);
});
