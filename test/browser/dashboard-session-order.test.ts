import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIResponse, Browser, Route } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { desktop, launchBrowser, PASSWORD, SKIP_REASON } from './browser.js';

const suite = SKIP_REASON ? describe.skip : describe;

/**
 * The dashboard asks for the session as it opens, while the setup form is already usable. On a busy machine
 * that first, anonymous answer can arrive after the owner has been created: it must not sign them out.
 */
suite(`the first session answer arriving late${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-session-order-');
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it(
    'after setup, an older anonymous answer leaves the owner signed in on the Posts screen',
    { timeout: 60_000 },
    async () => {
      const context = await browser.newContext(desktop);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      // The server answers the first request for the session at once; the page gets that answer only later.
      let held: { route: Route; response: APIResponse } | null = null;
      await page.route('**/api/v1/dashboard/session', async (route) => {
        if (route.request().method() !== 'GET' || held) return route.continue();
        held = { route, response: await route.fetch() };
      });

      await page.goto(`${server.url}/dashboard/setup`);
      await page.getByLabel('Email').fill('owner@order.example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Workspace name').fill('Order');
      await page.getByRole('button', { name: 'Create owner and workspace' }).click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      expect(held).not.toBeNull();

      const { route, response } = held!;
      expect(response.status()).toBe(401);
      const finished = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/api/v1/dashboard/session'));
      await route.fulfill({ response });
      await finished;
      // Time for the page to act on that answer; a sign-out would put the sign-in form in place of the screen.
      await page.waitForTimeout(300);
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Posts']);
      await page.getByRole('link', { name: 'Pages', exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Pages' }).waitFor();
      await context.close();
    },
  );
});
