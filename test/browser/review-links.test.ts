import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  clipboardText,
  desktop,
  fitsWidth,
  launchBrowser,
  screenshot,
  SCREENSHOT_DIR,
  settled,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { workspaceApi } from './studio-helpers.js';

const OWNER = 'owner@review.example.com';
const suite = SKIP_REASON ? describe.skip : describe;

/** A landscape picture with something in it, so the featured image reads as one in the screenshots. */
function picture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#f4a259"/><stop offset="1" stop-color="#5b8e7d"/></linearGradient></defs>
<rect width="1200" height="675" fill="url(#g)"/><circle cx="860" cy="250" r="140" fill="#f4e285"/>
<path d="M0 520 L300 330 L560 500 L800 360 L1200 560 L1200 675 L0 675 Z" fill="#3d5a40"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

suite(`review links from the studio${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-review-');
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workspace: { id: string; slug: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
    // bypassCSP: axe is injected as a script tag, which the dashboard's CSP (self only) would refuse.
    context = await browser.newContext({ ...desktop, bypassCSP: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Review Desk');
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  async function uploadPicture(): Promise<string> {
    const bytes = (await picture()).toString('base64');
    const answer = await page.evaluate(
      async ({ url, bytes }) => {
        const session = (await (await fetch('/api/v1/dashboard/session')).json()) as { csrfToken: string };
        const file = new Blob([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], { type: 'image/png' });
        const form = new FormData();
        form.append('file', file, 'valley.png');
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'X-CSRF-Token': session.csrfToken },
          body: form,
        });
        return { status: response.status, body: (await response.json()) as { id: string } };
      },
      { url: `/api/v1/dashboard/workspaces/${workspace.id}/media`, bytes },
    );
    expect(answer.status).toBe(201);
    return answer.body.id;
  }

  it('makes a link in the studio that a reader without a session opens; withdrawn, it reads nothing', async () => {
    const api = workspaceApi(page, workspace.id);
    const featuredMediaId = await uploadPicture();
    const created = await api.post('/posts', {
      title: 'A weekend in the Dales: where to walk, eat and sleep',
      excerpt: 'Three days on foot between *Malham* and Grassington, with the pubs that make the climbs worth it.',
      featuredMediaId,
      bodyJson: [
        {
          type: 'paragraph',
          text: 'The Yorkshire Dales reward a slow pace. This route links three villages by old green lanes, and each night ends somewhere warm.',
        },
        { type: 'heading', level: 2, text: 'Day one: Malham Cove' },
        {
          type: 'paragraph',
          text: 'Start early to have the limestone pavement to yourself. The climb to the top is **steep but short**, and the view back down the valley is the best of the trip.',
        },
        {
          type: 'list',
          style: 'bullet',
          items: ['Distance: 11 km', 'Climb: 380 m', 'Lunch: the café by the beck'],
        },
        {
          type: 'callout',
          variant: 'warning',
          title: 'After rain',
          body: 'The stones on the pavement are slippery: keep to the path along the edge.',
        },
        { type: 'image', mediaId: featuredMediaId, alt: 'The valley at dusk', caption: 'Looking back at the cove.' },
        { type: 'heading', level: 2, text: 'Day two: over to Grassington' },
        {
          type: 'quote',
          text: 'We saw more sheep than people, and that was the point.',
          attribution: 'A reader, last summer',
        },
        { type: 'paragraph', text: 'Book the inn a month ahead in August; see [their site](https://example.com/inn).' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;

    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit post' }).waitFor();
    const panel = page.getByRole('region', { name: 'Share for review' });
    await panel.waitFor();
    await settled(page);
    await panel.getByLabel('Expires after').selectOption({ label: '30 days' });
    await panel.getByLabel('Note (optional)').fill('Anna at the print shop');
    await panel.getByRole('button', { name: 'Create review link' }).click();
    await panel.getByText('Review link made: copy it below and send it to Anna at the print shop.').waitFor();
    const item = panel.getByRole('listitem').filter({ hasText: 'Anna at the print shop' });
    await item.getByText('Not opened yet').waitFor();
    const url = await item.getByLabel('Review link Anna at the print shop').inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/review/quire_review_[\\w-]+\\.[\\w-]+$`));
    await item.getByRole('button', { name: 'Copy link Anna at the print shop' }).click();
    await item.getByText('Copied to the clipboard.').waitFor();
    expect(await clipboardText(page)).toBe(url);

    const problems = (await axeViolations(page)).map((v) => `${v.impact} ${v.id} (${v.help}) at ${v.targets}`);
    expect(problems).toEqual([]);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const settings = page.getByRole('button', { name: 'Settings', exact: true });
      const inSheet = width < 1024 && (await settings.count()) > 0;
      if (inSheet) {
        await expect.poll(() => settings.getAttribute('aria-expanded')).toBe('false');
        await settings.click();
      }
      if (!(await fitsWidth(page))) problems.push(`the studio at ${width}px scrolls sideways`);
      // Centred, so that a phone's sheet keeps its header clear of it.
      await panel.evaluate((el) =>
        (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }),
      );
      await panel.screenshot({ path: path.join(SCREENSHOT_DIR, `review-links-panel-${width}.png`) });
      if (inSheet) await page.keyboard.press('Escape');
    }
    await page.setViewportSize(desktop.viewport!);
    expect(problems).toEqual([]);

    // A reader: a fresh browser without the dashboard's session, and the page's own CSP in force.
    const reader = await browser.newContext({ ...desktop });
    const readerPage = await reader.newPage();
    const refusals: string[] = [];
    readerPage.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refusals.push(message.text());
    });
    const opened = await readerPage.goto(url);
    expect(opened?.status()).toBe(200);
    await readerPage.getByRole('heading', { level: 1, name: /A weekend in the Dales/ }).waitFor();
    await readerPage.getByText('Draft — not published').waitFor();
    await readerPage.getByRole('heading', { level: 2, name: 'Day one: Malham Cove' }).waitFor();
    await readerPage.locator('.featured img').evaluate(
      (img) =>
        new Promise<void>((resolve, reject) => {
          const image = img as unknown as { complete: boolean; naturalWidth: number; onload: () => void };
          if (image.complete && image.naturalWidth > 0) return resolve();
          image.onload = () => resolve();
          setTimeout(() => reject(new Error('the featured image did not load')), 5_000);
        }),
    );
    // The page's CSS is allowed by its hash: the column has its measure.
    const measure = await readerPage
      .locator('main')
      .evaluate(
        (main) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { maxWidth: string } }).getComputedStyle(main)
            .maxWidth,
      );
    expect(measure).toBe('672px');
    // The body's image paints its placeholder through a style attribute, allowed by its hash.
    expect(await readerPage.locator('.body img').getAttribute('style')).toMatch(/^background-color:#/);
    expect(refusals).toEqual([]);
    // No dashboard session came with it, and the page is not to be indexed.
    expect(await reader.cookies()).toEqual([]);
    expect(await readerPage.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');

    for (const width of WIDTHS) {
      await readerPage.setViewportSize({ width, height: 900 });
      expect(await fitsWidth(readerPage), `the review page at ${width}px scrolls sideways`).toBe(true);
      await screenshot(readerPage, `review-link-${width}`);
    }
    // Dark mode: the same page as a reader whose system asks for it.
    await readerPage.emulateMedia({ colorScheme: 'dark' });
    await readerPage.setViewportSize({ width: 375, height: 900 });
    await screenshot(readerPage, 'review-link-375-dark');
    await readerPage.emulateMedia({ colorScheme: 'light' });

    // axe needs its script in the page, which the page's CSP refuses: a context that bypasses it reads the same page.
    const checker = await browser.newContext({ ...desktop, bypassCSP: true });
    const checkerPage = await checker.newPage();
    await checkerPage.goto(url);
    expect(await axeViolations(checkerPage)).toEqual([]);
    await checker.close();

    // The studio counts the openings.
    await page.reload();
    await panel.waitFor();
    await settled(page);
    await item.getByText(/Opened 2 times, last /).waitFor();

    // Withdrawn, with a confirmation first: the reader's next load is the clear page.
    await item.getByRole('button', { name: 'Withdraw link Anna at the print shop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Withdraw this review link?' });
    await confirm.getByRole('button', { name: 'Withdraw link' }).click();
    await confirm.waitFor({ state: 'detached' });
    // The list shows it gone once its refetch lands, which a busy machine may take a moment over.
    await item.waitFor({ state: 'detached' });
    await settled(page);
    expect(await panel.getByRole('listitem').count()).toBe(0);

    const gone = await readerPage.reload();
    expect(gone?.status()).toBe(404);
    await readerPage
      .getByRole('heading', { level: 1, name: 'This review link has expired or was withdrawn.' })
      .waitFor();
    await readerPage.getByText('Ask whoever shared it for a new one.').waitFor();
    await screenshot(readerPage, 'review-link-withdrawn-375');
    expect(refusals).toEqual([]);
    await reader.close();

    // A post not saved yet has nothing to share.
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/new`);
    await page.getByRole('heading', { level: 1, name: 'New post' }).waitFor();
    await page.getByRole('region', { name: 'Publish' }).waitFor();
    expect(await page.getByRole('region', { name: 'Share for review' }).count()).toBe(0);
  }, 120_000);
});
