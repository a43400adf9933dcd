import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pastedBlocks } from '../../dashboard/src/studio/document/paste.js';
import { EXTERNAL, ROOT, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { png } from '../helpers/media.js';
import { desktop, launchBrowser, screenshot, setUpOwner, SKIP_REASON } from './browser.js';
import { body, bodyBlock, pasteInto, saved, workspaceApi } from './studio-helpers.js';

const OWNER = 'paster@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'clipboard');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

type Json = Record<string, unknown>;

suite(`pasting into the writing surface${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-paste-');
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let workspace: { id: string; slug: string };
  let key: string;

  const external = async (p: string): Promise<Json> =>
    (await (await server.fetch(`${EXTERNAL}${p}`, { headers: { 'X-API-Key': key } })).json()) as Json;
  const newPost = async (title: string): Promise<string> => {
    const created = await workspaceApi(page, workspace.id).post('/posts', { title });
    return created.body.id as string;
  };
  const edit = async (id: string) => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    await body(page).waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
    page = await (await browser.newContext({ ...desktop, bypassCSP: true })).newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Paste Press');
    key = (await workspaceApi(page, workspace.id).post('/api-keys', { name: 'Reader' })).body.key as string;
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  // Each fixture as its source puts it on the clipboard: the API answers the blocks the shared converter makes.
  for (const [name, data] of [
    ['Google Docs', { 'text/html': fixture('google-docs.html'), 'text/plain': 'plain' }],
    ['Word', { 'text/html': fixture('word.html'), 'text/plain': 'plain' }],
    ['a web page', { 'text/html': fixture('web-page.html'), 'text/plain': 'plain' }],
    ['Markdown text', { 'text/plain': fixture('plain-markdown.txt') }],
  ] as const) {
    it(`pastes ${name} as headings, lists, quotes, links and emphasis, and runs nothing`, async () => {
      const id = await newPost(`Pasted from ${name}`);
      await edit(id);
      await page.evaluate(() => {
        (globalThis as unknown as { alert: () => void; alerted: number }).alerted = 0;
        (globalThis as unknown as { alert: () => void }).alert = () => {
          (globalThis as unknown as { alerted: number }).alerted += 1;
        };
      });
      await body(page).click();
      await pasteInto(body(page), data);
      const expected = pastedBlocks(
        { html: (data as Record<string, string>)['text/html'], text: data['text/plain'] },
        1000,
      ).blocks.filter((block) => !(block.type === 'image' && !block.mediaId));
      await expect.poll(() => body(page).locator(':scope > *').count()).toBeGreaterThan(2);
      await page.keyboard.press('Control+s');
      await saved(page);
      const stored = (await external(`/posts/${id}`)).bodyJson as Json[];
      expect(stored.filter((block) => block.type !== 'image')).toEqual(
        expected
          .filter((block) => block.type !== 'image')
          .map((block) => (block.type === 'heading' ? { ...block, id: expect.any(String) } : block)),
      );
      const types = new Set(stored.map((block) => block.type));
      for (const type of ['heading', 'paragraph', 'list']) expect(types).toContain(type);
      expect(JSON.stringify(stored)).toMatch(/\*\*|\*[^*]/);
      expect(JSON.stringify(stored)).toMatch(/\]\(https?:/);
      expect(JSON.stringify(stored)).not.toMatch(/javascript:|data:text|<script|alert\(/);
      expect(await page.evaluate(() => (globalThis as unknown as { alerted: number }).alerted)).toBe(0);
      if (name === 'Google Docs') await screenshot(page, 'studio-paste-docs-1440');
    }, 60_000);
  }

  it('uploads a pasted image file into the library as an image block, and says which file was refused', async () => {
    const id = await newPost('Pasted pictures');
    await edit(id);
    await body(page).click();
    await page.keyboard.type('Above the picture.');
    await page.keyboard.press('Enter');
    const image = png(12, 8).toString('base64');
    await body(page).evaluate((el, b64) => {
      const g = globalThis as unknown as Record<string, new (...args: unknown[]) => Record<string, unknown>>;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new g.DataTransfer!() as unknown as { items: { add(f: unknown): void } };
      transfer.items.add(new g.File!([bytes], 'shot.png', { type: 'image/png' }));
      transfer.items.add(new g.File!([new Uint8Array([1, 2, 3])], 'broken.png', { type: 'image/png' }));
      const event = new g.ClipboardEvent!('paste', { clipboardData: transfer, bubbles: true, cancelable: true });
      (el as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(event);
    }, image);
    await bodyBlock(page, 'image').locator('img').waitFor({ timeout: 15_000 });
    await page.getByRole('status').filter({ hasText: 'broken.png was not added' }).waitFor();
    await bodyBlock(page, 'image').getByLabel('Alt text', { exact: true }).fill('A pasted screenshot');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+s');
    await saved(page);
    const stored = (await external(`/posts/${id}`)).bodyJson as Json[];
    expect(stored.map((block) => block.type)).toEqual(['paragraph', 'image']);
    expect(stored[1]).toMatchObject({ type: 'image', alt: 'A pasted screenshot', url: expect.any(String) });
  }, 60_000);

  it('refuses a paste past 1,000 blocks whole, saying how many fit', async () => {
    const id = await newPost('Too much');
    await edit(id);
    await body(page).click();
    const text = Array.from({ length: 1200 }, (_, i) => `Line ${i + 1}.`).join('\n\n');
    await pasteInto(body(page), { 'text/plain': text });
    await page
      .getByRole('status')
      .filter({ hasText: /Nothing was pasted: it holds 1,200 blocks/ })
      .waitFor();
    expect(await body(page).locator('p').count()).toBe(1);
  }, 60_000);
});
