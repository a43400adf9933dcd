import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, type Block } from '@quire/blocks';
import { readabilityScore } from '../../src/modules/seo/readability.js';
import { easeBand } from '../../src/modules/seo/readability-advice.js';
import { ROOT } from '../e2e/helpers.js';
import { axeViolations, desktop, fitsWidth, launchBrowser, screenshot, SKIP_REASON, WIDTHS } from './browser.js';

const suite = SKIP_REASON ? describe.skip : describe;
type Json = Record<string, unknown>;

/*
 * The panel alone in the studio's side column, bundled as the dashboard bundles it, with the dashboard's
 * styles: the page sets the body through `setBlocks` as the studio would while a writer types, and every
 * onJump lands in `jumps`.
 */
const HARNESS = `
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ReadabilityPanel } from './studio/ReadabilityPanel.tsx';
import './styles.css';
import './layout.css';
import './studio/studio.css';

const page = window as unknown as { blocks: never[]; jumps: number[]; setBlocks?: (blocks: never[]) => void };
page.jumps = [];
function Harness() {
  const [blocks, setBlocks] = useState(page.blocks);
  page.setBlocks = setBlocks;
  return (
    <main className="studio">
      <div className="studio-main">
        <h1>Readability</h1>
      </div>
      <aside className="studio-side">
        <ReadabilityPanel blocks={blocks} onJump={(index) => page.jumps.push(index)} />
      </aside>
    </main>
  );
}
createRoot(document.getElementById('root')!).render(<Harness />);
`;

async function harness(): Promise<{ js: string; css: string }> {
  const result = await build({
    stdin: {
      contents: HARNESS,
      resolveDir: path.join(ROOT, 'dashboard/src'),
      loader: 'tsx',
      sourcefile: 'harness.tsx',
    },
    bundle: true,
    format: 'iife',
    jsx: 'automatic',
    conditions: ['@quire/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: 'harness',
    write: false,
    logLevel: 'silent',
  });
  const text = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(ext))!.text;
  return { js: text('.js'), css: text('.css') };
}

const words = (count: number) => Array.from({ length: count }, () => 'cat').join(' ');
const BODY: Json[] = [
  { type: 'heading', level: 2, text: 'Starters', id: 'starters' },
  { type: 'paragraph', text: 'Feed the starter daily. Keep it warm.' },
  { type: 'paragraph', text: `**Then** stir it well. Then cover it. Then wait. ${words(160)}.` },
  { type: 'image', mediaId: 'm', url: null, caption: 'A jar' },
];

suite(`the readability panel${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let browser: Browser;
  let bundle: { js: string; css: string };

  const open = async (width: number, blocks: Json[]): Promise<Page> => {
    const page = await (await browser.newContext({ ...desktop, viewport: { width, height: 900 } })).newPage();
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Panel</title><style>${bundle.css}</style></head>` +
        `<body><script>window.blocks = ${JSON.stringify(blocks)}</script><div id="root"></div></body></html>`,
    );
    await page.addScriptTag({ content: bundle.js });
    await page.getByRole('list', { name: 'Readability checklist' }).waitFor({ timeout: 15_000 });
    return page;
  };
  const label = (page: Page, start: string) =>
    page.getByRole('list', { name: 'Readability checklist' }).locator('> li', { hasText: start }).first();

  beforeAll(async () => {
    [browser, bundle] = await Promise.all([launchBrowser(), harness()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
  });

  it('shows the reading ease and the checklist, and its buttons jump to the blocks a check is about', async () => {
    const page = await open(1440, BODY);
    const score = readabilityScore(bodyText(BODY as unknown as Block[]));
    expect(await page.locator('.readability > p').textContent()).toBe(`Reading ease ${score} · ${easeBand(score)}`);
    expect(await label(page, 'Paragraph length:').textContent()).toContain('1 paragraph over 150 words');
    const go = page.getByRole('list', { name: /^Blocks: Paragraph length/ }).getByRole('button');
    expect(await go.allTextContents()).toEqual(['Go to block 3: “Then stir it well. Then cover…”']);
    await go.click();
    await page
      .getByRole('list', { name: /^Blocks: Sentence beginnings/ })
      .getByRole('button')
      .click();
    expect(await page.evaluate(() => (globalThis as unknown as { jumps: number[] }).jumps)).toEqual([2, 2]);
    expect(await label(page, 'Subheadings:').getByRole('button').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('keeps its advice while the writer types, and gives the new one once they pause', async () => {
    const page = await open(1440, BODY.slice(0, 2));
    const before = 'Paragraph length: none over 150 words';
    expect(await label(page, 'Paragraph length:').textContent()).toContain(before);
    // Ten keystrokes 50 ms apart, each making the second paragraph longer: what the panel says after each.
    const seen = await page.evaluate(async (body) => {
      const g = globalThis as unknown as {
        setBlocks(blocks: unknown[]): void;
        document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
      };
      const labels: string[] = [];
      for (let n = 1; n <= 10; n += 1) {
        const text = `Feed the starter daily. ${Array.from({ length: n * 20 }, () => 'cat').join(' ')}`;
        g.setBlocks([body[0], { type: 'paragraph', text }]);
        await new Promise((resolve) => setTimeout(resolve, 50));
        labels.push(g.document.querySelectorAll('.checklist > li')[2]!.textContent!);
      }
      return labels;
    }, BODY);
    expect(seen.every((text) => text.includes(before))).toBe(true);
    await label(page, 'Paragraph length: 1 paragraph over 150 words').waitFor({ timeout: 5_000 });
    await page.context().close();
  });

  it.each(WIDTHS)('fits %i px without scrolling sideways', async (width) => {
    const long = `${'Pneumonoultramicroscopicsilicovolcanoconiosis '.repeat(4)}${words(150)}`;
    const page = await open(width, [...BODY, { type: 'paragraph', text: long }]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, `readability-panel-${width}`);
    await page.context().close();
  });
});
