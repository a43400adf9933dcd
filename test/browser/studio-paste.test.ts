import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pastedBlocks } from '../../dashboard/src/studio/document/paste.js';
import { ROOT } from '../e2e/helpers.js';
import { png } from '../helpers/media.js';
import { screenshot, SKIP_REASON } from './browser.js';
import { body, bodyBlock, pasteInto, saved } from './studio-helpers.js';
import { studioSuite } from './studio-suite.js';

const OWNER = 'paster@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'clipboard');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

type Json = Record<string, unknown>;

suite(`pasting into the writing surface${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const s = studioSuite('quire-paste-', OWNER, 'Paste Press');
  const newPost = (title: string) => s.newPost({ title });

  // Each fixture as its source puts it on the clipboard: the API answers the blocks the shared converter makes.
  for (const [name, data] of [
    ['Google Docs', { 'text/html': fixture('google-docs.html'), 'text/plain': 'plain' }],
    ['Word', { 'text/html': fixture('word.html'), 'text/plain': 'plain' }],
    ['a web page', { 'text/html': fixture('web-page.html'), 'text/plain': 'plain' }],
    ['Markdown text', { 'text/plain': fixture('plain-markdown.txt') }],
  ] as const) {
    it(`pastes ${name} as headings, lists, quotes, links and emphasis, and runs nothing`, async () => {
      const id = await newPost(`Pasted from ${name}`);
      await s.edit(id);
      await s.page.evaluate(() => {
        (globalThis as unknown as { alert: () => void; alerted: number }).alerted = 0;
        (globalThis as unknown as { alert: () => void }).alert = () => {
          (globalThis as unknown as { alerted: number }).alerted += 1;
        };
      });
      await body(s.page).click();
      await pasteInto(body(s.page), data);
      const expected = pastedBlocks(
        { html: (data as Record<string, string>)['text/html'], text: data['text/plain'] },
        1000,
      ).blocks.filter((block) => !(block.type === 'image' && !block.mediaId));
      await expect.poll(() => body(s.page).locator(':scope > *').count()).toBeGreaterThan(2);
      await s.page.keyboard.press('Control+s');
      await saved(s.page);
      const stored = (await s.external(`/posts/${id}`)).bodyJson as Json[];
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
      expect(await s.page.evaluate(() => (globalThis as unknown as { alerted: number }).alerted)).toBe(0);
      if (name === 'Google Docs') await screenshot(s.page, 'studio-paste-docs-1440');
    }, 60_000);
  }

  it('uploads a pasted image file into the library as an image block, and says which file was refused', async () => {
    const id = await newPost('Pasted pictures');
    await s.edit(id);
    await body(s.page).click();
    await s.page.keyboard.type('Above the picture.');
    await s.page.keyboard.press('Enter');
    const image = png(12, 8).toString('base64');
    await body(s.page).evaluate((el, b64) => {
      const g = globalThis as unknown as Record<string, new (...args: unknown[]) => Record<string, unknown>>;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new g.DataTransfer!() as unknown as { items: { add(f: unknown): void } };
      transfer.items.add(new g.File!([bytes], 'shot.png', { type: 'image/png' }));
      transfer.items.add(new g.File!([new Uint8Array([1, 2, 3])], 'broken.png', { type: 'image/png' }));
      const event = new g.ClipboardEvent!('paste', { clipboardData: transfer, bubbles: true, cancelable: true });
      (el as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(event);
    }, image);
    await bodyBlock(s.page, 'image').locator('img').waitFor({ timeout: 15_000 });
    await s.page.getByRole('status').filter({ hasText: 'broken.png was not added' }).waitFor();
    await bodyBlock(s.page, 'image').getByLabel('Alt text', { exact: true }).fill('A pasted screenshot');
    await s.page.keyboard.press('Escape');
    await s.page.keyboard.press('Control+s');
    await saved(s.page);
    const stored = (await s.external(`/posts/${id}`)).bodyJson as Json[];
    expect(stored.map((block) => block.type)).toEqual(['paragraph', 'image']);
    expect(stored[1]).toMatchObject({ type: 'image', alt: 'A pasted screenshot', url: expect.any(String) });
  }, 60_000);

  it('refuses a paste past 1,000 blocks whole, saying how many fit', async () => {
    const id = await newPost('Too much');
    await s.edit(id);
    await body(s.page).click();
    const text = Array.from({ length: 1200 }, (_, i) => `Line ${i + 1}.`).join('\n\n');
    await pasteInto(body(s.page), { 'text/plain': text });
    await s.page
      .getByRole('status')
      .filter({ hasText: /Nothing was pasted: it holds 1,200 blocks/ })
      .waitFor();
    expect(await body(s.page).locator('p').count()).toBe(1);
  }, 60_000);
});
