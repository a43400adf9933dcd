import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  screenshot,
  settled,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';

const OWNER = 'owner@example.com';
const suite = SKIP_REASON ? describe.skip : describe;

const square = (background: string) =>
  sharp({ create: { width: 800, height: 600, channels: 3, background } })
    .png()
    .toBuffer();

suite(`the media library in Chromium${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-browser-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workspace: { id: string; slug: string };

  const open = async (path: string, heading: string) => {
    await page.goto(`${server.url}/dashboard${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await settled(page);
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    // axe is injected as a script, which the dashboard's CSP would refuse.
    context = await browser.newContext({ ...desktop, bypassCSP: true });
    page = await context.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Garden Journal');
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('uploads three images at once, each with its progress, and refuses a fourth file in words', async () => {
    await open(`/w/${workspace.id}/media`, 'Media');
    await page.getByText('No media yet.').waitFor();
    const files = [
      { name: 'red.png', mimeType: 'image/png', buffer: await square('#d03030') },
      { name: 'green.png', mimeType: 'image/png', buffer: await square('#30a050') },
      { name: 'blue.png', mimeType: 'image/png', buffer: await square('#3050d0') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') },
    ];
    await page.getByLabel('Choose files').setInputFiles(files);
    for (const name of ['red.png', 'green.png', 'blue.png']) {
      const bar = page.getByRole('progressbar', { name: `Uploading ${name}` });
      await expect.poll(() => bar.getAttribute('value'), { timeout: 20_000 }).toBe('1');
    }
    await page.getByRole('alert').getByText('This type of file cannot be uploaded').waitFor();
    await expect.poll(() => page.locator('.upload-state', { hasText: /^Uploaded$/ }).count()).toBe(3);

    // The grid shows real thumbnails: resized WebP copies, not the 800-px originals.
    const grid = page.locator('.media-grid');
    await expect.poll(() => grid.getByRole('button').count()).toBe(3);
    await settled(page);
    const thumbnails = await grid.locator('img').evaluateAll((images) =>
      images.map((image) => {
        const img = image as unknown as { src: string; naturalWidth: number };
        return { src: img.src, width: img.naturalWidth };
      }),
    );
    for (const thumbnail of thumbnails) expect(thumbnail.src).toMatch(/\/w320\/[a-z]+\.webp$/);
    await expect
      .poll(() =>
        grid
          .locator('img')
          .evaluateAll((images) => images.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth)),
      )
      .toEqual([320, 320, 320]);
  });

  it('edits the alt text in the details panel', async () => {
    await page.getByRole('button', { name: 'red.png' }).click();
    const details = page.locator('.media-details');
    await details.getByRole('heading', { name: 'red.png' }).waitFor();
    await details.getByText('Not used anywhere yet.').waitFor();
    await details.getByLabel('Alt text').fill('A red square');
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Saved.').waitFor();
    await page.locator('.media-grid').getByRole('button', { name: 'A red square' }).waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      expect(await fitsWidth(page), `media library at ${width} px`).toBe(true);
      await screenshot(page, `media-library-${width}`);
    }
    await page.setViewportSize(desktop.viewport!);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('picks the site logo from the library', async () => {
    await open(`/w/${workspace.id}/settings`, 'Site settings');
    await page.getByRole('button', { name: 'Choose logo' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image' });
    await picker.getByRole('button', { name: 'A red square' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'media-picker-1440');
    await picker.getByRole('button', { name: 'A red square' }).click();
    await page.getByRole('img', { name: 'Current logo: A red square' }).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
  });

  it('deletes an image in use only after a warning that names its use', async () => {
    await open(`/w/${workspace.id}/media`, 'Media');
    await page.getByRole('button', { name: 'A red square' }).click();
    const details = page.locator('.media-details');
    await details.getByText('Used by the site logo.').waitFor();
    await details.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete red.png?' });
    await confirm.getByText('It is used by the site logo.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.media-grid').getByRole('button').count()).toBe(2);
    await open(`/w/${workspace.id}/settings`, 'Site settings');
    await page.getByText('No logo chosen.').waitFor();
  });
});
