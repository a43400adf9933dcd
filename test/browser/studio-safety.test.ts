import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { EXTERNAL, ROOT, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { desktop, hasFocus, launchBrowser, PASSWORD, setUpOwner, signIn, SKIP_REASON } from './browser.js';
import { addBlock, block, saved, workspaceApi } from './studio-helpers.js';

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

  it('refuses the second of two writers and lets them overwrite, or reload what the first saved', async () => {
    const id = await newPost({ title: 'Shared draft', excerpt: 'Before' });
    const other = await contexts[1]!.newPage();
    await signIn(other, server.url, OWNER, PASSWORD);
    await edit(page, id);
    await edit(other, id);

    await page.getByLabel('Title', { exact: true }).fill('Title by the first');
    await saved(page);
    await other.getByLabel('Excerpt', { exact: true }).fill('Excerpt by the second');
    const alert = other.getByRole('alert').filter({ hasText: 'Someone else saved this post' });
    await alert.waitFor({ timeout: 15_000 });
    expect((await external(`/posts/${id}`)).excerpt).toBe('Before');
    await alert.getByRole('button', { name: 'Overwrite' }).click();
    await saved(other);
    expect(await external(`/posts/${id}`)).toMatchObject({ title: 'Shared draft', excerpt: 'Excerpt by the second' });

    // The first writer's copy is now the outdated one: refused in turn, and Reload shows what the second saved.
    await page.getByLabel('Excerpt', { exact: true }).fill('Too late');
    const refused = page.getByRole('alert').filter({ hasText: 'Someone else saved this post' });
    await refused.waitFor({ timeout: 15_000 });
    await refused.getByRole('button', { name: 'Reload' }).click();
    await saved(page);
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).toBe('Excerpt by the second');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Shared draft');
    expect((await external(`/posts/${id}`)).excerpt).toBe('Excerpt by the second');
    await other.close();
  }, 90_000);

  it('offers back what was typed when the page reloads before the autosave', async () => {
    const id = await newPost({ title: 'Kept locally', bodyJson: [{ type: 'paragraph', text: 'Saved text.' }] });
    await edit(page, id);
    await block(page, 1).getByLabel('Paragraph', { exact: true }).fill('Typed, never saved.');
    await page.waitForTimeout(600); // past the local copy's pause, well before the autosave's
    await page.reload();
    const offer = page.getByRole('region', { name: 'Unsaved changes found' });
    await offer.waitFor();
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([{ type: 'paragraph', text: 'Saved text.' }]);
    await offer.getByRole('button', { name: 'Restore unsaved changes' }).click();
    expect(await block(page, 1).getByLabel('Paragraph', { exact: true }).inputValue()).toBe('Typed, never saved.');
    await saved(page);
    expect((await external(`/posts/${id}`)).bodyJson).toEqual([{ type: 'paragraph', text: 'Typed, never saved.' }]);
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

  it('splits pasted Markdown into blocks, moves a block with Alt+↑, and writes marks as Markdown', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/new`);
    const first = await addBlock(page, 0, 'Paragraph');
    const field = first.getByLabel('Paragraph', { exact: true });
    // A paste as the browser delivers it (the test program has no DOM lib: the page's globals, typed loosely).
    await field.evaluate((el, text) => {
      const g = globalThis as unknown as Record<string, new (...args: unknown[]) => Record<string, unknown>>;
      const data = new g.DataTransfer!() as unknown as { setData(t: string, v: string): void };
      data.setData('text/plain', text);
      const event = new g.ClipboardEvent!('paste', { clipboardData: data, bubbles: true, cancelable: true });
      (el as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(event);
    }, '# Big\n\nPara *one*\n\n- a\n- b\n\n1. x\n2. y\n\n> q');
    const types = () =>
      page
        .locator('[data-block-type]')
        .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { blockType: string } }).dataset.blockType));
    expect(await types()).toEqual(['heading', 'paragraph', 'list', 'list', 'quote']);
    expect(await block(page, 3).getByLabel('Items, one per line', { exact: true }).inputValue()).toBe('a\nb');

    const quote = block(page, 5).getByLabel('Quote', { exact: true });
    await quote.focus();
    await page.keyboard.press('Alt+ArrowUp');
    expect(await types()).toEqual(['heading', 'paragraph', 'list', 'quote', 'list']);
    await expect.poll(() => hasFocus(block(page, 4).getByLabel('Quote', { exact: true }))).toBe(true);

    const paragraph = block(page, 2).getByLabel('Paragraph', { exact: true });
    await paragraph.fill('make this bold');
    await paragraph.evaluate((el) =>
      (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(10, 14),
    );
    await paragraph.press('Control+b');
    expect(await paragraph.inputValue()).toBe('make this **bold**');
  }, 60_000);

  it('shows a limit before saving and a refusal of the server on the field it names', async () => {
    const id = await newPost({ title: 'Limits', bodyJson: [{ type: 'paragraph', text: 'Short.' }] });
    await edit(page, id);
    const paragraph = block(page, 1).getByLabel('Paragraph', { exact: true });
    await paragraph.fill('x'.repeat(10_001));
    await block(page, 1).getByText('10,001 / 10,000 characters').waitFor();
    await block(page, 1)
      .getByText(/A paragraph holds at most 10,000 characters/)
      .waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'over the limits' }).waitFor();
    await paragraph.fill('Short again.');
    // A language name longer than the server allows: only the server says so, on the field.
    const code = await addBlock(page, 1, 'Code');
    await code.getByLabel('Language', { exact: true }).fill('l'.repeat(51));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await code.getByText('Use at most 50 characters.').waitFor({ timeout: 15_000 });
    expect(await code.getByLabel('Language', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  }, 60_000);

  it('types into a post of 1,000 blocks, measuring input-to-paint', async () => {
    const blocks = Array.from({ length: 1000 }, (_, i) => ({
      type: 'paragraph',
      text: `Paragraph ${i + 1}: a sentence long enough to wrap once or twice in the editor's text area, as prose does.`,
    }));
    const id = await newPost({ title: 'A thousand blocks', bodyJson: blocks });
    await edit(page, id);
    await block(page, 1000).waitFor({ timeout: 30_000 });
    expect(await page.locator('button[aria-label="Add a block after block 1000"]').isDisabled()).toBe(true);
    await page.getByText('1,000 of 1,000 blocks: the body is full.').waitFor();
    const field = block(page, 500).getByLabel('Paragraph', { exact: true });
    await field.focus();
    await field.press('Control+End');
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        latencies: number[];
        document: { addEventListener(t: string, f: (e: { timeStamp: number }) => void, c: boolean): void };
        requestAnimationFrame(f: () => void): void;
        setTimeout(f: () => void, ms: number): void;
        performance: { now(): number };
      };
      g.latencies = [];
      // keydown → the frame that shows it: the rAF callback runs before that paint, a task queued in it after.
      g.document.addEventListener(
        'keydown',
        (event) => {
          const start = event.timeStamp;
          g.requestAnimationFrame(() => g.setTimeout(() => g.latencies.push(g.performance.now() - start), 0));
        },
        true,
      );
    });
    const typed = ' and more words typed at the end';
    await page.keyboard.type(typed, { delay: 60 });
    await page.waitForTimeout(300);
    expect(await field.inputValue()).toBe(`${blocks[499]!.text}${typed}`);
    const latencies = (await page.evaluate(() => (globalThis as unknown as { latencies: number[] }).latencies)).sort(
      (a, b) => a - b,
    );
    const at = (q: number) =>
      Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1));
    const result = { blocks: 1000, keys: latencies.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
    fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'test-results', 'studio-typing.json'), `${JSON.stringify(result, null, 2)}\n`);
    // A measurement, not a timed assertion: the figures go to docs/performance.md.
    expect(latencies.length).toBe(typed.length);
  }, 120_000);
});
