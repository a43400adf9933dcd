import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOpenIdProvider, type RunningProvider } from '../helpers/oidc.js';
import {
  desktop,
  fitsWidth,
  launchBrowser,
  pageFetch,
  screenshot,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';

const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `single sign-on in Chromium, through a real OpenID provider${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  { timeout: 60_000 },
  () => {
    const dir = tempDir('quire-browser-');
    let provider: RunningProvider;
    let server: ServerProcess;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      let callback = '';
      provider = await startOpenIdProvider(() => callback);
      [server, browser] = await Promise.all([
        startServer({
          QUIRE_DATA_DIR: dir.dataDir,
          QUIRE_OIDC_ISSUER: provider.issuer,
          QUIRE_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
          QUIRE_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
          QUIRE_OIDC_NAME: 'Corp ID',
          QUIRE_OIDC_DOMAINS: 'corp.example=newsroom:editor',
        }),
        launchBrowser(),
      ]);
      callback = `${server.url}/api/v1/dashboard/oidc/callback`;
      page = await (await browser.newContext({ ...desktop })).newPage();
      // The workspace the domain rule names; its owner signs out after setting it up.
      await setUpOwner(page, server.url, 'owner@example.com', 'Newsroom');
      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      await provider?.close();
      dir.remove();
    });

    it('signs a new person on from the sign-in page and lands them in their domain’s workspace', async () => {
      const button = page.getByRole('link', { name: 'Sign in with Corp ID' });
      await button.waitFor();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        await screenshot(page, `sso-sign-in-${width}`);
        expect(await fitsWidth(page)).toBe(true);
      }
      await page.setViewportSize(desktop.viewport!);
      await button.click();
      // The provider's own login page.
      await page.waitForURL((url) => url.origin === provider.issuer);
      await page.locator('input[name="login"]').fill('ada@corp.example');
      await page.locator('input[name="password"]').fill('anything');
      await page.locator('button[type="submit"]').click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor({ timeout: 15_000 });
      const session = await pageFetch<{ user: { email: string }; workspaces: Array<{ name: string }> }>(
        page,
        'GET',
        '/api/v1/dashboard/session',
      );
      expect(session.body.user.email).toBe('ada@corp.example');
      expect(session.body.workspaces.map((w) => w.name)).toEqual(['Newsroom']);

      // The account has no password: setting up an app asks for none, a sign-in this recent stands in for it.
      await page.goto(`${server.url}/dashboard/account`);
      const panel = page.getByRole('region', { name: 'Two-factor authentication' });
      await panel.getByRole('button', { name: 'Set up' }).click();
      await panel.getByText('You sign in through single sign-on, without a password').waitFor();
      expect(await panel.getByLabel('Your password').count()).toBe(0);
      await panel.getByRole('button', { name: 'Continue' }).click();
      await panel.getByRole('heading', { name: 'Scan this QR code with your authenticator app' }).waitFor();
    });

    it('says in words why a sign-on came back without a session, once', async () => {
      const context = await browser.newContext({ ...desktop });
      try {
        const fresh = await context.newPage();
        await fresh.goto(`${server.url}/dashboard/#sso-error=email_unverified`);
        const alert = fresh.getByRole('alert');
        await alert.waitFor();
        expect(await alert.textContent()).toBe(
          'Your provider did not confirm your email address, so Quire cannot sign you in with it.',
        );
        await screenshot(fresh, 'sso-refused-375');
        expect(new URL(fresh.url()).hash).toBe('');
        await fresh.reload();
        await fresh.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        expect(await fresh.getByRole('alert').count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  },
);
