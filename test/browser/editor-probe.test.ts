import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProbe, type Probe } from '../../bench/editor-probe.js';
import { desktop, launchBrowser, SKIP_REASON } from './browser.js';

/*
 * The page side of `npm run bench:editor` (bench/editor-probe.ts) on pages made here: that it finds block 500 of
 * either surface, types there, and that its input-to-paint covers the work an editor does for a key.
 */

const suite = SKIP_REASON ? describe.skip : describe;
const PM_ROOT = '.ProseMirror[contenteditable=true]';
type Window = { __editorBench: Probe };

const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `<p>Block ${i + 1} text.</p>`).join('');

/**
 * A contenteditable of 600 paragraphs (a widget before block 500). Each input keeps the page busy for `inputMs`
 * in its handler, and then for `frameMs` in the next animation frame, as an editor's render would.
 */
const editable = ({ inputMs = 0, frameMs = 0 } = {}) => `
  <div class="ProseMirror" contenteditable="true">${paragraphs(200)}<div class="ProseMirror-widget">w</div>${paragraphs(
    400,
  ).replace(/Block (\d+)/g, (_, n: string) => `Block ${Number(n) + 200}`)}</div>
  <script>
    // A block of its own: the page is reused, and its global scope outlives each setContent.
    {
    const busy = (ms) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    document.querySelector('.ProseMirror').addEventListener('input', () => {
      busy(${inputMs});
      requestAnimationFrame(() => busy(${frameMs}));
    });
    }
  </script>`;

const blockEditor = `
  <div class="block-editor">${Array.from(
    { length: 600 },
    (_, i) => `<section aria-label="Block ${i + 1}: Paragraph"><textarea>Block ${i + 1} text.</textarea></section>`,
  ).join('')}</div>`;

suite(`bench:editor's page probe${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext(desktop)).newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
  });

  const load = async (html: string) => {
    await page.setContent(html);
    await page.evaluate(installProbe, PM_ROOT);
  };
  const probe = <T>(fn: (probe: Probe) => T) =>
    page.evaluate(`(${fn.toString()})(globalThis.__editorBench)`) as Promise<T>;
  const typeInto500 = async (text: string, delay = 30) => {
    const before = await page.evaluate(() => (globalThis as unknown as Window).__editorBench.place(499));
    await page.keyboard.type(text, { delay });
    await page.waitForFunction((n) => {
      const { keys } = (globalThis as unknown as Window).__editorBench;
      return keys.length === n && keys.every((key) => key.end !== null);
    }, text.length);
    return before;
  };

  const latencies = () => probe((p) => p.keys.map((key) => key.end! - key.start));

  it('finds block 500 of a contenteditable past a widget and types at its end', async () => {
    await load(editable());
    expect(await probe((p) => p.ready(499))).toBe('contenteditable');
    expect(await typeInto500(' abc')).toBe('Block 500 text.');
    expect(await probe((p) => p.text(499))).toBe('Block 500 text. abc');
    expect(await page.locator('p', { hasText: 'Block 499 text.' }).textContent()).toBe('Block 499 text.');
    expect(await probe((p) => p.readyAt)).toBeGreaterThan(0);
  });

  it("counts the editor's work on the input event", async () => {
    await load(editable({ inputMs: 100 }));
    await typeInto500('abcd');
    expect(await latencies()).toHaveLength(4);
    for (const latency of await latencies()) expect(latency).toBeGreaterThanOrEqual(100);
  });

  it("counts the frame that paints the key, the editor's animation frame work included", async () => {
    await load(editable({ frameMs: 100 }));
    await typeInto500('abcd');
    for (const latency of await latencies()) expect(latency).toBeGreaterThanOrEqual(100);
  });

  it('ends at that frame, not at the key up or the next key', async () => {
    await load(editable());
    await typeInto500('abcdef', 300);
    const sorted = (await latencies()).sort((a, b) => a - b);
    expect(sorted[2]!).toBeLessThan(250);
  });

  it('falls back to the block editor’s textareas when there is no editable root', async () => {
    await load(blockEditor);
    expect(await probe((p) => p.ready(499))).toBe('textarea');
    expect(await typeInto500(' x y')).toBe('Block 500 text.');
    expect(await probe((p) => p.text(499))).toBe('Block 500 text. x y');
    expect(await page.locator('section[aria-label="Block 499: Paragraph"] textarea').inputValue()).toBe(
      'Block 499 text.',
    );
  });

  it('is not ready while block 500 is missing', async () => {
    await load(`<div class="ProseMirror" contenteditable="true">${paragraphs(499)}</div>`);
    expect(await probe((p) => p.ready(499))).toBeNull();
    expect(await probe((p) => p.readyAt)).toBeNull();
  });
});
