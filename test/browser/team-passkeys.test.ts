import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  PASSWORD,
  pageFetch,
  screenshot,
  settled,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';

const OWNER = 'owner@example.com';
const WORKSPACE = 'Field Notes';
const DASHBOARD = '/api/v1/dashboard';
const RECOVERY_CODE = /^[a-z2-9]{5}-[a-z2-9]{5}$/;
const suite = SKIP_REASON ? describe.skip : describe;

interface Credential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  signCount: number;
}

suite(
  `passkeys in Chromium’s virtual authenticator: added from Account, after the password, and alone${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  { timeout: 60_000 },
  () => {
    const dir = tempDir('quire-browser-');
    let server: ServerProcess;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let cdp: CDPSession;
    let authenticatorId = '';
    let workspace: { id: string; slug: string };
    // WebAuthn refuses an IP address as the relying party: the dashboard is served and browsed as localhost.
    let base = '';

    const panel = () => page.getByRole('region', { name: 'Two-factor authentication' });
    const passkeys = () => panel().getByRole('list', { name: 'Passkeys' });
    const credentials = async () =>
      ((await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: Credential[] }).credentials;
    const openAccount = async () => {
      await page.goto(`${base}/dashboard/account`);
      await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      await settled(page);
    };
    const signOut = async () => {
      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor({ timeout: 5_000 });
      await settled(page);
    };
    const landsOnPosts = async () => {
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor({ timeout: 5_000 });
      expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${workspace.id}/posts`);
      expect((await pageFetch(page, 'GET', `${DASHBOARD}/session`)).status).toBe(200);
    };
    /** Screenshots at both widths, and what axe and the width check found there, rather than failing at the first. */
    const inspect = async (name: string) => {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        // Two frames after the resize, so the full-page capture is of the page laid out at this width.
        await page.evaluate(
          () =>
            new Promise<void>((resolve) => {
              const frame = (globalThis as unknown as { requestAnimationFrame(f: () => void): void })
                .requestAnimationFrame;
              frame(() => frame(() => resolve()));
            }),
        );
        await screenshot(page, `${name}-${width}`);
        if (!(await fitsWidth(page))) problems.push(`${name} at ${width}px scrolls sideways`);
        for (const v of await axeViolations(page))
          problems.push(`${name} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      }
      await page.setViewportSize(desktop.viewport!);
      return problems;
    };

    beforeAll(async () => {
      [server, browser] = await Promise.all([
        startServer((port) => ({ QUIRE_DATA_DIR: dir.dataDir, QUIRE_PUBLIC_URL: `http://localhost:${port}` })),
        launchBrowser(),
      ]);
      base = `http://localhost:${server.port}`;
      context = await browser.newContext({ ...desktop, bypassCSP: true });
      page = await context.newPage();
      cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      }));
      workspace = await setUpOwner(page, base, OWNER, WORKSPACE);
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('adds a passkey from Account with the password and a name; the first one shows recovery codes once', async () => {
      await openAccount();
      await panel().getByRole('button', { name: 'Add a passkey' }).click();
      const password = panel().getByLabel('Your password');
      await password.fill('not my password');
      await panel().getByRole('button', { name: 'Continue' }).click();
      await panel().getByText('This is not your password.').waitFor();
      expect(await credentials()).toEqual([]);
      await password.fill(PASSWORD);
      await panel().getByLabel('Name (optional)').fill('Work laptop');
      const problems = await inspect('passkeys-add');
      await panel().getByRole('button', { name: 'Continue' }).click();

      const codes = panel().getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      const recoveryCodes = await codes.getByRole('listitem').allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      for (const code of recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
      await panel().getByRole('button', { name: 'I have saved them' }).click();
      await panel().getByRole('status').filter({ hasText: 'Passkey added.' }).waitFor();

      const made = await credentials();
      expect(made.map((c) => [c.rpId, c.isResidentCredential])).toEqual([['localhost', true]]);
      expect(await passkeys().getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(/^Work laptop.*Not used yet/),
      ]);
      problems.push(...(await inspect('passkeys-account')));
      expect(problems).toEqual([]);
    });

    it('asks for the passkey after the password, and signs in with it', async () => {
      await signOut();
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor({ timeout: 5_000 });
      // The account has a passkey and no authenticator app: the passkey is asked for, a recovery code offered.
      await page.getByRole('button', { name: 'Use a recovery code instead' }).waitFor();
      expect(await page.getByRole('button', { name: 'Use your authenticator app instead' }).count()).toBe(0);
      const problems = await inspect('passkeys-second-step');
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await landsOnPosts();
      expect((await credentials())[0]!.signCount).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    });

    it('says so when the passkey could not verify who holds it, then signs in without a password', async () => {
      await signOut();
      const problems = await inspect('passkeys-sign-in');
      // The authenticator refuses to verify its user: the browser's prompt fails, the page says what to do.
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('alert').filter({ hasText: 'The passkey prompt was closed or timed out.' }).waitFor();
      problems.push(...(await inspect('passkeys-sign-in-refused')));
      expect(new URL(page.url()).pathname).not.toContain('/w/');

      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await landsOnPosts();
      const audit = await pageFetch<{ data: Array<{ action: string; details: Record<string, unknown> }> }>(
        page,
        'GET',
        `${DASHBOARD}/workspaces/${workspace.id}/audit?category=session`,
      );
      expect(audit.body.data.slice(0, 2).map((e) => [e.action, e.details.via ?? e.details.secondFactor])).toEqual([
        ['session.signed_in', 'passkey'],
        ['session.signed_in', 'passkey'],
      ]);
      expect(problems).toEqual([]);
    });

    it('renames the passkey, and removes it with the password', async () => {
      await openAccount();
      await passkeys().getByRole('button', { name: 'Rename Work laptop' }).click();
      const name = panel().getByLabel('Name');
      await name.fill('Laptop (virtual)');
      await panel().getByRole('button', { name: 'Save' }).click();
      await panel().getByRole('status').filter({ hasText: 'Renamed to “Laptop (virtual)”.' }).waitFor();
      await passkeys().getByRole('heading', { name: 'Laptop (virtual)' }).waitFor();
      expect(
        await passkeys()
          .getByText(/Last used/)
          .count(),
      ).toBe(1);

      await passkeys().getByRole('button', { name: 'Remove Laptop (virtual)' }).click();
      await panel().getByLabel('Your password').fill(PASSWORD);
      const problems = await inspect('passkeys-remove');
      await panel().getByRole('button', { name: 'Remove', exact: true }).click();
      await panel().getByRole('status').filter({ hasText: 'Passkey “Laptop (virtual)” removed.' }).waitFor();
      expect(await panel().getByRole('list', { name: 'Passkeys' }).count()).toBe(0);
      expect(problems).toEqual([]);

      // No second factor left: the password alone signs in again.
      await signOut();
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await landsOnPosts();
    });
  },
);
