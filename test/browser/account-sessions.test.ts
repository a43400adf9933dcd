import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  hasFocus,
  launchBrowser,
  PASSWORD,
  pageFetch,
  screenshot,
  settled,
  setUpOwner,
  signIn,
  SKIP_REASON,
} from './browser.js';

interface SessionInfo {
  id: string;
  current: boolean;
  userAgent: string | null;
  ip: string | null;
}

const OWNER = 'owner@example.com';
const DASHBOARD = '/api/v1/dashboard';
// The second browser says it is Firefox on Windows, so that the list tells the two apart by name.
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `the Account screen's sessions: listed, signed out one by one, everywhere else, and here${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    const dir = tempDir('quire-browser-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    let server: ServerProcess;
    let browser: Browser;
    // axe goes in as a script tag, which the dashboard's Content-Security-Policy would block (as the screens suite).
    let context: BrowserContext;
    let page: Page;
    let elsewhere: BrowserContext;
    let other: Page;

    /** A sign-in made without a browser, as a phone would: its cookie header, for asking who it is later. */
    async function phoneSignIn(): Promise<string> {
      const response = await server.fetch(`${DASHBOARD}/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': IPHONE },
        body: JSON.stringify({ email: OWNER, password: PASSWORD }),
      });
      expect(response.status).toBe(200);
      return response.headers.getSetCookie()[0]!.split(';')[0]!;
    }
    const phoneStatus = async (cookie: string) =>
      (await server.fetch(`${DASHBOARD}/session`, { headers: { Cookie: cookie } })).status;

    const openAccount = async (on: Page) => {
      await on.goto(`${server.url}/dashboard/account`);
      await on.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      await settled(on);
    };
    // Bounded, so a browser left signed in fails at its line rather than at the test's timeout.
    const onSignIn = (on: Page) => on.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor({ timeout: 5_000 });

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      [context, elsewhere] = await Promise.all([
        browser.newContext({ ...desktop, bypassCSP: true }),
        browser.newContext({ ...desktop, userAgent: FIREFOX }),
      ]);
      [page, other] = await Promise.all([context.newPage(), elsewhere.newPage()]);
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('lists every session with this device first, ends one, then every other, then this one', async () => {
      await setUpOwner(page, server.url, OWNER, 'Field Notes');
      await signIn(other, server.url, OWNER, PASSWORD);
      let phone = await phoneSignIn();

      const listed = await pageFetch<SessionInfo[]>(page, 'GET', `${DASHBOARD}/sessions`);
      expect(listed.body).toHaveLength(3);
      const ipOf = (agent: string) => listed.body.find((s) => s.userAgent === agent)!.ip!;
      const here = listed.body.find((s) => s.current)!;
      const firefox = `Firefox on Windows, ${ipOf(FIREFOX)}`;

      await openAccount(page);
      const sessions = page.getByRole('list', { name: 'Sessions' });
      const rows = sessions.getByRole('listitem');
      const devices = () => sessions.getByRole('heading', { level: 3 }).allTextContents();
      // This device first, marked; then the others, most recently seen first.
      expect(await devices()).toEqual(['Chrome on Linux This device', 'Safari on iPhone', 'Firefox on Windows']);
      const thisRow = rows.filter({ hasText: 'This device' });
      expect(await thisRow.count()).toBe(1);
      await expect(thisRow.locator('dl').innerText()).resolves.toMatch(
        new RegExp(
          `IP address\\s+${here.ip!.replace(/[.:]/g, '\\$&')}\\s+Signed in\\s+.*2\\d\\d\\d.*\\s+Last active\\s+just now`,
        ),
      );
      await expect(rows.nth(2).locator('dl').innerText()).resolves.toContain(ipOf(FIREFOX));

      for (const width of [375, 1440]) {
        await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        await screenshot(page, `account-sessions-${width}`);
        expect(await fitsWidth(page), `no sideways scrolling at ${width}px`).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
      }

      // One other session: its row goes, and that browser finds itself signed out.
      await page.getByRole('button', { name: `Sign out ${firefox}`, exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Signed out ${firefox}.` })
        .waitFor();
      await settled(page);
      expect(await devices()).toEqual(['Chrome on Linux This device', 'Safari on iPhone']);
      await other.goto(`${server.url}/dashboard/account`);
      await onSignIn(other);
      expect(await phoneStatus(phone)).toBe(200);

      // Every other session, after a confirmation: the list keeps this device alone and says how many ended.
      await signIn(other, server.url, OWNER, PASSWORD);
      await openAccount(page);
      expect(await rows.count()).toBe(3);
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      const confirm = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
      await confirm.getByText('2 other sessions will end').waitFor();
      await page.setViewportSize({ width: 375, height: 812 });
      await screenshot(page, 'account-sessions-confirm-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await confirm.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: 'Signed out 2 other sessions.' }).waitFor();
      // The button that opened the dialog is gone: the focus waits on the section's heading, not on <body>.
      await expect.poll(() => hasFocus(page.getByRole('heading', { level: 2, name: 'Sessions' }))).toBe(true);
      await settled(page);
      expect(await devices()).toEqual(['Chrome on Linux This device']);
      expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).count()).toBe(0);
      await screenshot(page, 'account-sessions-ended-1440');
      expect(await phoneStatus(phone)).toBe(401);
      await other.goto(`${server.url}/dashboard/account`);
      await onSignIn(other);
      // This browser still reads and writes.
      const write = await pageFetch(page, 'POST', `${DASHBOARD}/workspaces`, {
        body: { name: 'Still here' },
        csrf: true,
      });
      expect(write.status).toBe(201);

      // This device's own row signs this browser out, while the other devices stay signed in.
      phone = await phoneSignIn();
      await openAccount(page);
      await thisRow.getByRole('button', { name: /^Sign out this device, Chrome on Linux/ }).click();
      await onSignIn(page);
      expect((await pageFetch(page, 'GET', `${DASHBOARD}/session`)).status).toBe(401);
      expect(await phoneStatus(phone)).toBe(200);
    });
  },
);
