import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  desktop,
  fitsWidth,
  launchBrowser,
  lineTops,
  pageFetch,
  screenshot,
  settled,
  setUpOwner,
  SKIP_REASON,
  wordsBrokenAcrossLines,
} from './browser.js';
import { seedContent } from './content.js';

// Long on purpose: every row says who created the key.
const OWNER = 'release-automation.team@publishing-company.example.com';
const LONG_NAMES = [
  'Dashboard',
  'Dashboard preview deployments for the marketing site (staging and production)',
  'Nightly content synchronisation job, Kubernetes CronJob in the eu-west-1 cluster',
  'Site build',
];
/** More keys than one page of the list (20) holds. */
const KEYS = 22;
const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `the dashboard's lists: the key table at 1440 and 375 px, and paging and filters in the history${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    const dir = tempDir('quire-browser-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    let server: ServerProcess;
    let browser: Browser;
    let page: Page;
    let workspace: { id: string; slug: string };

    const open = async (path: string, heading: string) => {
      await page.goto(`${server.url}/dashboard${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settled(page);
    };
    const pageLabel = () =>
      page
        .getByRole('navigation', { name: /pages$/ })
        .locator('[aria-live]')
        .textContent();
    // Back is done when the address has moved and the list has loaded for it. goBack resolves at the history
    // step, before the screen's effect has marked the list as loading, so two frames are waited for first:
    // under load, settled() alone could pass on the list of the page being left.
    const back = async () => {
      const left = page.url();
      await page.goBack();
      await page.waitForURL((url) => url.toString() !== left);
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const g = globalThis as unknown as { requestAnimationFrame(f: () => void): void };
            g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
          }),
      );
      await settled(page);
    };

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      page = await (await browser.newContext(desktop)).newPage();
      workspace = await setUpOwner(page, server.url, OWNER, 'Long Names Publishing');
      for (let i = 0; i < KEYS; i += 1) {
        const created = await pageFetch(page, 'POST', `/api/v1/dashboard/workspaces/${workspace.id}/api-keys`, {
          body: { name: LONG_NAMES[i % LONG_NAMES.length], expiresAt: i % 2 ? '2031-05-01T12:00:00.000Z' : null },
          csrf: true,
        });
        expect(created.status).toBe(201);
      }
      await seedContent(server, env, workspace.slug, OWNER);
    }, 120_000);
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    for (const width of [1440, 375]) {
      it(`keeps every word of the key table whole and each row's buttons on one line at ${width} px`, async () => {
        await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        await open(`/w/${workspace.id}/keys`, 'API keys');
        await screenshot(page, `keys-long-names-${width}`);
        const rows = page.locator('tbody tr');
        expect(await rows.count()).toBe(20);
        const broken: string[] = [];
        const stacked: string[] = [];
        for (const row of await rows.all()) {
          const name = (await row.getByRole('rowheader').textContent()) ?? '';
          for (const word of await wordsBrokenAcrossLines(row)) broken.push(`${word} (in the row of ${name})`);
          const buttons = row.locator('.row-actions button');
          expect(await buttons.count()).toBeGreaterThan(1);
          if ((await lineTops(buttons)).length > 1) stacked.push(name);
        }
        expect(broken).toEqual([]);
        expect(stacked).toEqual([]);
        expect(await fitsWidth(page)).toBe(true);
      });
    }

    it('pages and filters the keys in the history: Back returns to the previous page and filter', async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await open(`/w/${workspace.id}/keys`, 'API keys');
      expect(await pageLabel()).toContain('Page 1 of 2');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(/[?&]page=2/);
      await settled(page);
      expect(await pageLabel()).toContain('Page 2 of 2');

      await page.getByRole('radio', { name: 'Inactive' }).check();
      await page.getByText('No expired or revoked keys.').waitFor();
      expect(new URL(page.url()).searchParams.get('page')).toBeNull();

      await back();
      expect(await page.getByRole('radio', { name: 'All' }).isChecked()).toBe(true);
      expect(await pageLabel()).toContain('Page 2 of 2');
      await back();
      expect(await pageLabel()).toContain('Page 1 of 2');
      expect(new URL(page.url()).search).toBe('');
    });

    it('pages, filters and searches the posts in the history, and Back from a post returns to its page', async () => {
      await open(`/w/${workspace.id}/posts`, 'Posts');
      const titles = () => page.locator('tbody th a').allTextContents();
      const firstPage = await titles();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(/[?&]page=2/);
      await settled(page);
      const secondPage = await titles();
      expect(secondPage).not.toEqual(firstPage);

      await page.getByRole('link', { name: secondPage[0]! }).click();
      await page.getByRole('heading', { level: 1, name: secondPage[0]! }).waitFor();
      await back();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      await settled(page);
      expect(await titles()).toEqual(secondPage);

      await page.getByLabel('Status').selectOption('draft');
      await page.waitForURL(/status=draft/);
      await page.getByLabel('Search', { exact: true }).fill('Thirteen block');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/q=Thirteen\+block/);
      await settled(page);
      expect(await titles()).toEqual(['Every block type']);

      await back();
      expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('');
      expect(await page.getByLabel('Status').inputValue()).toBe('draft');
      await back();
      expect(await page.getByLabel('Status').inputValue()).toBe('');
      expect(await titles()).toEqual(secondPage);
      await back();
      expect(await titles()).toEqual(firstPage);
    });

    it('searches a content list in the history too', async () => {
      await open(`/w/${workspace.id}/link-health`, 'Link health');
      const paths = () => page.locator('tbody th').allTextContents();
      const all = await paths();
      await page.getByLabel('Search', { exact: true }).fill('docs');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/q=docs/);
      await settled(page);
      expect(await paths()).toEqual(['/docs/old-guide']);
      await back();
      expect(await paths()).toEqual(all);
      expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('');
    });
  },
);
