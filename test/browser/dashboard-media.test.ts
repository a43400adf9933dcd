import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  pageFetch,
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

  it('sets the focal point by a click and by the arrow keys, with square and wide crops that follow it', async () => {
    await open(`/w/${workspace.id}/media`, 'Media');
    // Red on the left half, blue on the right: which half a crop keeps shows in its colour.
    const halves = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#0000ff' } })
      .composite([
        {
          input: await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ff0000' } })
            .png()
            .toBuffer(),
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    await page
      .getByLabel('Choose files')
      .setInputFiles([{ name: 'halves.png', mimeType: 'image/png', buffer: halves }]);
    await page.locator('.media-grid').getByRole('button', { name: 'halves.png' }).click();
    const details = page.locator('.media-details');
    await details.getByRole('heading', { name: 'halves.png' }).waitFor();
    const picker = details.getByRole('button', { name: /^Focal point:/ });
    await expect.poll(() => picker.getAttribute('aria-label')).toBe('Focal point: 50 % across, 50 % down');
    await settled(page);

    /** The colour at the middle of a crop preview, as the writer sees it. */
    const previewCentre = async (name: 'Square crop' | 'Wide crop') => {
      const shot = await details.locator('figure', { hasText: name }).locator('.crop-window').screenshot();
      const meta = await sharp(shot).metadata();
      const { data } = await sharp(shot)
        .extract({ left: Math.floor(meta.width / 2), top: Math.floor(meta.height / 2), width: 1, height: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return data[0]! > data[2]! ? 'red' : 'blue';
    };

    // A click three quarters across: the point moves there, the numbers say so, the square crop turns blue.
    const box = (await picker.boundingBox())!;
    await picker.click({ position: { x: box.width * 0.75, y: box.height * 0.5 } });
    await expect.poll(() => details.getByLabel('Across (%)').inputValue()).toBe('75');
    expect(await details.getByLabel('Down (%)').inputValue()).toBe('50');
    await expect.poll(() => previewCentre('Square crop')).toBe('blue');
    const marker = await details.locator('.focal-marker').boundingBox();
    expect(Math.abs(marker!.x + marker!.width / 2 - (box.x + box.width * 0.75))).toBeLessThan(2);

    // The keyboard: Shift+Left five times is 50 % to the left, Down once 1 % down; the square crop turns red.
    await picker.focus();
    for (let step = 0; step < 5; step += 1) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => picker.getAttribute('aria-label')).toBe('Focal point: 25 % across, 51 % down');
    await expect.poll(() => previewCentre('Square crop')).toBe('red');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'media-focal-point-1440');
    // On a phone the picker and its crops fit the width.
    await page.setViewportSize({ width: 375, height: 900 });
    await details.scrollIntoViewIfNeeded();
    expect(await fitsWidth(page), 'focal point at 375 px').toBe(true);
    await screenshot(page, 'media-focal-point-375');
    await page.setViewportSize(desktop.viewport!);

    // Typed numbers move it as well; Save sends it, and it is there when the page is opened again.
    await details.getByLabel('Across (%)').fill('90');
    await expect.poll(() => picker.getAttribute('aria-label')).toBe('Focal point: 90 % across, 51 % down');
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Saved.').waitFor();
    const id = new URL(await details.getByLabel('Address').inputValue()).pathname.split('/')[3]!;
    const stored = await pageFetch<{ focalPoint: unknown }>(
      page,
      'GET',
      `/api/v1/dashboard/workspaces/${workspace.id}/media/${id}`,
    );
    expect(stored.body.focalPoint).toEqual({ x: 0.9, y: 0.51 });
    await open(`/w/${workspace.id}/media`, 'Media');
    await page.locator('.media-grid').getByRole('button', { name: 'halves.png' }).click();
    await expect
      .poll(() => details.getByRole('button', { name: /^Focal point:/ }).getAttribute('aria-label'))
      .toBe('Focal point: 90 % across, 51 % down');
    expect(await previewCentre('Wide crop')).toBe('blue');

    // Centre forgets it: null again, the centre of the image.
    await details.getByRole('button', { name: 'Centre' }).click();
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Saved.').waitFor();
    const cleared = await pageFetch<{ focalPoint: unknown }>(
      page,
      'GET',
      `/api/v1/dashboard/workspaces/${workspace.id}/media/${id}`,
    );
    expect(cleared.body.focalPoint).toBeNull();
  });
});
