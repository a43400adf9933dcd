import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  hasFocus,
  holdsFocus,
  launchBrowser,
  PASSWORD,
  screenshot,
  SCREENSHOT_DIR,
  setUpOwner,
  signIn,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { body, workspaceApi } from './studio-helpers.js';

const OWNER = 'layout@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;

/** About 800 words: 40 paragraphs of 20, a heading before every tenth. */
const WORDS = 'the quiet river carried every small boat past the old mill and under the stone bridge toward town';
const BODY = Array.from({ length: 40 }, (_, i) => [
  ...(i % 10 === 0 ? [{ type: 'heading', level: 2, text: `Part ${i / 10 + 1}` }] : []),
  { type: 'paragraph', text: `${WORDS.split(' ').slice(0, 18).join(' ')} number ${i + 1}.` },
]).flat();
const BLOCKS = BODY.length;

interface Box {
  y: number;
  height: number;
}
/** Whether the element's box lies within the viewport's height, top and bottom. */
const inView = (box: Box | null, height: number) => box !== null && box.y >= 0 && box.y + box.height <= height;

suite(
  `the studio's writing layout: a bar in view, settings beside or over the text, focus mode${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    const dir = tempDir('quire-studio-layout-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    let server: ServerProcess;
    let browser: Browser;
    let page: Page;
    let workspace: { id: string; slug: string };
    let postId: string;
    let readingMin: number;

    const edit = async (width: number) => {
      await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${postId}/edit`);
      await body(page)
        .locator(':scope > *')
        .nth(BLOCKS - 1)
        .waitFor();
    };
    const publish = () => page.getByRole('button', { name: 'Publish', exact: true });
    const settingsButton = () => page.getByRole('button', { name: 'Settings', exact: true });
    const problemsOf = async (where: string) =>
      (await axeViolations(page)).map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    const scrollToEnd = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          scrollTo(x: number, y: number): void;
          scrollY: number;
          document: { documentElement: { scrollHeight: number } };
        };
        g.scrollTo(0, g.document.documentElement.scrollHeight);
        return g.scrollY;
      });
    const viewportShot = (name: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      // bypassCSP: axe is injected as a script tag, which the dashboard's CSP (self only) would refuse.
      page = await (await browser.newContext({ ...desktop, bypassCSP: true })).newPage();
      workspace = await setUpOwner(page, server.url, OWNER, 'Layout Weekly');
      const created = await workspaceApi(page, workspace.id).post('/posts', {
        title: 'A long walk along the river',
        excerpt: 'Eight hundred words of river.',
        bodyJson: BODY,
      });
      expect(created.status).toBe(201);
      postId = created.body.id as string;
      readingMin = created.body.readingTimeMin as number;
      expect(readingMin).toBe(4);
    }, 120_000);
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('keeps the bar, its Publish button and (wide) the settings in view at the end of an 800-word post', async () => {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await edit(width);
        const height = page.viewportSize()!.height;
        const bar = page.getByRole('region', { name: 'Writing tools' });
        // Counted as the server counts: 40 paragraphs of 20 words and 4 headings of 2.
        await bar.getByText('808 words', { exact: true }).waitFor();
        await bar.getByText(`${readingMin} min read`, { exact: true }).waitFor();
        await screenshot(page, `studio-layout-${width}`);
        if (!(await fitsWidth(page))) problems.push(`${width}px: the studio scrolls sideways`);
        problems.push(...(await problemsOf(`${width}px`)));

        const scrolled = await scrollToEnd();
        // The post is screens long (set as text it is far shorter than it was as a form): the bar has to hold its
        // place, not merely start in view.
        expect(scrolled).toBeGreaterThan(height * 2);
        await expect.poll(async () => inView(await publish().boundingBox(), height)).toBe(true);
        expect(inView(await bar.getByRole('status').boundingBox(), height)).toBe(true);
        const side = page.getByRole('complementary', { name: 'Post settings' });
        if (width >= 1024) {
          // Beside the text, its top under the bar, its own scroll reaching the last panel.
          const box = (await side.boundingBox())!;
          const barBox = (await bar.boundingBox())!;
          expect(box.y).toBeGreaterThanOrEqual(barBox.y + barBox.height - 1);
          expect(box.y + box.height).toBeLessThanOrEqual(height);
          const history = page.getByRole('region', { name: 'History' });
          await history.scrollIntoViewIfNeeded();
          expect(inView(await history.boundingBox(), height)).toBe(true);
          expect(inView(await publish().boundingBox(), height)).toBe(true);
        } else {
          expect(await side.count()).toBe(0);
          expect(await page.getByLabel('Slug', { exact: true }).isVisible()).toBe(false);
        }
      }
      await page.setViewportSize(desktop.viewport!);
      expect(problems).toEqual([]);
    }, 90_000);

    it('opens the settings as a sheet at 375 px, keeps the focus in it, and closes it by Escape or Close', async () => {
      await edit(375);
      await scrollToEnd();
      const sheet = page.getByRole('dialog', { name: 'Post settings' });
      await settingsButton().click();
      await sheet.waitFor();
      expect(await settingsButton().getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => hasFocus(sheet.getByRole('button', { name: 'Close', exact: true }))).toBe(true);
      await sheet.getByLabel('Slug', { exact: true }).waitFor();
      await viewportShot('studio-settings-sheet');
      const problems = await problemsOf('sheet at 375px');
      if (!(await fitsWidth(page))) problems.push('the sheet at 375px scrolls sideways');
      expect(problems).toEqual([]);

      // Backwards from its first control the focus goes to its last, and forwards from there back to the first.
      await page.keyboard.press('Shift+Tab');
      expect(await holdsFocus(sheet)).toBe(true);
      await page.keyboard.press('Tab');
      await expect.poll(() => hasFocus(sheet.getByRole('button', { name: 'Close', exact: true }))).toBe(true);
      for (let i = 0; i < 12; i += 1) await page.keyboard.press('Tab');
      expect(await holdsFocus(sheet)).toBe(true);

      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      await expect.poll(() => hasFocus(settingsButton())).toBe(true);
      expect(await settingsButton().getAttribute('aria-expanded')).toBe('false');

      await settingsButton().click();
      await sheet.getByRole('button', { name: 'Close', exact: true }).click();
      await sheet.waitFor({ state: 'hidden' });
      await expect.poll(() => hasFocus(settingsButton())).toBe(true);
      await page.setViewportSize(desktop.viewport!);
    }, 60_000);

    it('hides the settings, the navigation and the bar’s extras in focus mode, by button and by Ctrl+Shift+F', async () => {
      await edit(1440);
      const side = page.getByRole('complementary', { name: 'Post settings' });
      const nav = page.getByRole('navigation', { name: 'Sections' });
      const focusButton = page.getByRole('button', { name: 'Focus', exact: true });
      const extras: Locator[] = [settingsButton(), page.getByRole('button', { name: 'Preview', exact: true })];
      const shown = async () => ({
        side: await side.isVisible(),
        nav: await nav.isVisible(),
        extras: await Promise.all(extras.map((extra) => extra.isVisible())),
        publish: await publish().isVisible(),
      });
      const all = { side: true, nav: true, extras: [true, true], publish: true };
      const focused = { side: false, nav: false, extras: [false, false], publish: true };
      expect(await shown()).toEqual(all);

      await focusButton.click();
      expect(await focusButton.getAttribute('aria-pressed')).toBe('true');
      expect(await shown()).toEqual(focused);
      await screenshot(page, 'studio-focus');
      expect(await problemsOf('focus mode')).toEqual([]);
      await page.keyboard.press('Escape');
      expect(await shown()).toEqual(all);

      await body(page).locator('h2').first().click();
      await page.keyboard.press('Control+Shift+F');
      expect(await shown()).toEqual(focused);
      // The text keeps the focus: the shortcut is for writing without looking away.
      expect(await hasFocus(body(page))).toBe(true);
      await page.keyboard.press('Control+Shift+F');
      expect(await shown()).toEqual(all);
    }, 60_000);

    it('lands on the posts list after signing in', async () => {
      const context = await browser.newContext(desktop);
      try {
        const fresh = await context.newPage();
        await signIn(fresh, server.url, OWNER, PASSWORD);
        await fresh.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
        expect(new URL(fresh.url()).pathname).toBe(`/dashboard/w/${workspace.id}/posts`);
      } finally {
        await context.close();
      }
    }, 60_000);
  },
);
