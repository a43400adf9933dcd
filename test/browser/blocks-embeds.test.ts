import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBlocks } from '@quire/blocks';
import { ROOT } from '../e2e/helpers.js';
import { axeViolations, launchBrowser, SKIP_REASON } from './browser.js';

const suite = SKIP_REASON ? describe.skip : describe;

/** enhanceEmbeds as a site would ship it: the package's module bundled for the browser. */
async function enhanceScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "export { enhanceEmbeds } from './src/enhance.ts';",
      resolveDir: path.join(ROOT, 'packages/blocks'),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'QuireBlocks',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const BODY = renderBlocks([
  { type: 'paragraph', text: 'Before the videos.' },
  { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'A talk' },
  { type: 'video_embed', url: 'https://vimeo.com/76979871', title: 'A film' },
  { type: 'tweet_embed', url: 'https://x.com/example/status/1234567890' },
]);

suite(`@quire/blocks' embeds in a browser${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    // Nothing leaves the machine; every request is noted and answered here.
    await page.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>player</title>' });
    });
    await page.goto('https://site.example/post');
    await page.setContent(`<!doctype html><html lang="en"><title>Post</title><main>${BODY}</main></html>`);
    await page.addScriptTag({ content: await enhanceScript() });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('loads nothing from the video or social sites before a click, and passes axe', async () => {
    expect(await page.locator('iframe, script[src]').count()).toBe(0);
    expect(requested.filter((url) => !url.startsWith('https://site.example/'))).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('binds each video once, and turns a click on its link into the privacy-enhanced player', async () => {
    const run = () =>
      page.evaluate(() => {
        const page = globalThis as unknown as {
          document: unknown;
          QuireBlocks: { enhanceEmbeds(root: unknown): number };
        };
        return page.QuireBlocks.enhanceEmbeds(page.document);
      });
    expect(await run()).toBe(2);
    expect(await run()).toBe(0);
    await page.getByRole('link', { name: 'A talk' }).click();
    const player = page.locator('figure[data-provider="youtube"] iframe');
    await player.waitFor();
    expect(await player.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1');
    expect(await player.getAttribute('title')).toBe('A talk');
    expect(await page.getByRole('link', { name: 'A talk' }).count()).toBe(0);
    // The other embeds are still links.
    expect(await page.locator('iframe').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'https://x.com/example/status/1234567890' }).count()).toBe(1);
  });
});
