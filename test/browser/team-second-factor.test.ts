import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  clipboardText,
  desktop,
  fitsWidth,
  hasFocus,
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
const SWITCH = 'Require a second factor for every member';
const RECOVERY_CODE = /^[a-z2-9]{5}-[a-z2-9]{5}$/;
const suite = SKIP_REASON ? describe.skip : describe;

interface WorkspaceSummary {
  id: string;
  requireSecondFactor: boolean;
  secondFactorMissing: boolean;
}

suite(
  `a second factor in Chromium: set up from Account, asked at sign-in, required by the owner${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  { timeout: 60_000 },
  () => {
    const dir = tempDir('quire-browser-');
    let server: ServerProcess;
    let browser: Browser;
    // axe goes in as a script tag, which the dashboard's Content-Security-Policy would block (as the other suites).
    let context: BrowserContext;
    let page: Page;
    let workspace: { id: string; slug: string };
    /** What the setup showed: the app's key, and the recovery codes of the setup and of the renewal. */
    let secret = '';
    let recoveryCodes: string[] = [];
    let renewedCodes: string[] = [];

    /** The authenticator app: the code of the step `stepsAhead` steps from now. */
    const appCode = (stepsAhead = 0) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
        timestamp: Date.now() + stepsAhead * 30_000,
      });
    /** Six digits the server cannot take: none of the codes of the steps around now. */
    const wrongCode = () => {
      const near = new Set([-1, 0, 1, 2].map(appCode));
      let guess = 123456;
      while (near.has(String(guess))) guess += 1;
      return String(guess);
    };

    const panel = () => page.getByRole('region', { name: 'Two-factor authentication' });
    const openAccount = async () => {
      await page.goto(`${server.url}/dashboard/account`);
      await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      await settled(page);
    };
    const openMembers = async () => {
      await page.goto(`${server.url}/dashboard/w/${workspace.id}/members`);
      await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      await settled(page);
    };
    /** The status's facts as the panel lists them: "Authenticator app On", "Recovery codes left 10" … */
    const facts = () =>
      panel()
        .locator('dl > div')
        .evaluateAll((rows) =>
          rows.map((row) =>
            ((row as unknown as { textContent: string | null }).textContent ?? '').replace(/\s+/g, ' '),
          ),
        );
    const fact = async (name: string) =>
      (await facts()).find((row) => row.startsWith(name))?.slice(name.length) ?? null;
    const thisWorkspace = async () =>
      (await pageFetch<{ workspaces: WorkspaceSummary[] }>(page, 'GET', `${DASHBOARD}/session`)).body.workspaces.find(
        (w) => w.id === workspace.id,
      )!;
    /** What the page says about a field: its error and hint, tied to it by aria-describedby. */
    const described = (input: Locator) =>
      input.evaluate((element) => {
        const el = element as unknown as {
          getAttribute(name: string): string | null;
          ownerDocument: { getElementById(id: string): { textContent: string | null } | null };
        };
        return (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .filter(Boolean)
          .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '')
          .join(' ');
      });
    /** Screenshots at both widths, and what axe and the width check found there, rather than failing at the first. */
    const inspect = async (name: string) => {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        await screenshot(page, `${name}-${width}`);
        if (!(await fitsWidth(page))) problems.push(`${name} at ${width}px scrolls sideways`);
        for (const v of await axeViolations(page))
          problems.push(`${name} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      }
      await page.setViewportSize(desktop.viewport!);
      return problems;
    };

    const signOut = async () => {
      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor({ timeout: 5_000 });
    };
    /** The password step of signing in; with a second factor on, it leads to the code step. */
    const enterPassword = async () => {
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor({ timeout: 5_000 });
    };
    const landsOnPosts = async () => {
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor({ timeout: 5_000 });
      expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${workspace.id}/posts`);
      expect((await pageFetch(page, 'GET', `${DASHBOARD}/session`)).status).toBe(200);
    };

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
      context = await browser.newContext({ ...desktop, bypassCSP: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      page = await context.newPage();
      workspace = await setUpOwner(page, server.url, OWNER, WORKSPACE);
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('refuses the owner’s requirement while the owner has no second factor, and points to Account', async () => {
      await openMembers();
      const requirement = page.getByRole('switch', { name: SWITCH });
      expect(await requirement.isChecked()).toBe(false);
      expect(await described(requirement)).toBe(
        'Members without one cannot use this workspace until they set one up under Account. API keys are not affected.',
      );
      await requirement.click();
      const refusal = page
        .getByRole('alert')
        .filter({ hasText: 'Set up two-factor authentication for yourself first' });
      await refusal.waitFor();
      expect(await requirement.isChecked()).toBe(false);
      expect((await thisWorkspace()).requireSecondFactor).toBe(false);
      expect(await inspect('second-factor-members-refused')).toEqual([]);
      await refusal.getByRole('link', { name: 'Account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      await settled(page);
      expect(await fact('Authenticator app')).toBe('Off');
    });

    it('sets up an authenticator app: password, QR code and key, a first code, then ten recovery codes once', async () => {
      await openAccount();
      await panel().getByRole('button', { name: 'Set up' }).click();
      // The password first: a session alone does not change a second factor.
      const password = panel().getByLabel('Your password');
      await password.fill('not my password');
      await panel().getByRole('button', { name: 'Continue' }).click();
      await panel().getByText('This is not your password.').waitFor();
      expect(await password.inputValue()).toBe('');
      await password.fill(PASSWORD);
      await panel().getByRole('button', { name: 'Continue' }).click();

      await panel().getByRole('heading', { name: 'Scan this QR code with your authenticator app' }).waitFor();
      const qr = panel().getByRole('img', { name: /^QR code for your authenticator app/ });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;/);
      // Drawn, not a broken image.
      expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
      const shown = (await panel().locator('[data-secret]').textContent()) ?? '';
      expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
      secret = shown.replace(/ /g, '');
      await panel().getByRole('button', { name: 'Copy key' }).click();
      await panel().getByText('Copied to the clipboard.').waitFor();
      expect(await clipboardText(page)).toBe(secret);
      const code = panel().getByLabel('6-digit code from the app');
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      const problems = await inspect('second-factor-setup');

      await code.fill(appCode());
      await panel().getByRole('button', { name: 'Confirm' }).click();
      const codes = panel().getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      recoveryCodes = await codes.getByRole('listitem').allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      for (const c of recoveryCodes) expect(c).toMatch(RECOVERY_CODE);
      expect(new Set(recoveryCodes).size).toBe(10);
      problems.push(...(await inspect('second-factor-recovery-codes')));

      await panel().getByRole('button', { name: 'Copy all' }).click();
      await panel().getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
      expect(await clipboardText(page)).toBe(recoveryCodes.join('\n'));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel().getByRole('link', { name: 'Download (.txt)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('quire-recovery-codes.txt');
      const file = fs.readFileSync((await download.path())!, 'utf8');
      expect(file).toContain(`Quire recovery codes for ${OWNER}`);
      for (const c of recoveryCodes) expect(file).toContain(`\n${c}\n`);

      await panel().getByRole('button', { name: 'I have saved them' }).click();
      await panel().getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }).waitFor();
      await settled(page);
      // Shown once: closed, they are nowhere on the page.
      expect(await page.content()).not.toContain(recoveryCodes[0]);
      expect(await fact('Authenticator app')).toBe('On');
      expect(await fact('Recovery codes left')).toBe('10');
      expect(await fact('Required by')).toBeNull();
      expect(problems).toEqual([]);
    });

    it('signs in with the password and then a code from the app; a wrong code is refused at its field', async () => {
      await signOut();
      await enterPassword();
      await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
      const code = page.getByLabel('6-digit code');
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      expect(await hasFocus(code)).toBe(true);
      // No session yet: the right password alone signs nobody in.
      expect((await pageFetch(page, 'GET', `${DASHBOARD}/session`)).status).toBe(401);
      const problems = await inspect('second-factor-sign-in-code');

      await code.fill(wrongCode());
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('This code is not right. Enter the code your app shows now.').waitFor();
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect(await described(code)).toContain('This code is not right.');
      // Cleared for the next try, with the focus back in it.
      expect(await code.inputValue()).toBe('');
      expect(await hasFocus(code)).toBe(true);
      problems.push(...(await inspect('second-factor-sign-in-wrong')));

      // The setup used this step's code, and a code works once: the app's next one.
      await code.fill(appCode(1));
      await page.getByRole('button', { name: 'Verify' }).click();
      await landsOnPosts();
      expect(problems).toEqual([]);
    });

    it('signs in with a recovery code, once; Back returns to the password form', async () => {
      await signOut();
      await enterPassword();
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(OWNER);
      expect(await hasFocus(page.getByLabel('Password'))).toBe(true);

      await enterPassword();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      const recovery = page.getByLabel('Recovery code');
      expect(await hasFocus(recovery)).toBe(true);
      // Typed as a person might: upper case, the dash left out.
      await recovery.fill(recoveryCodes[0]!.toUpperCase().replace('-', ''));
      await page.getByRole('button', { name: 'Verify' }).click();
      await landsOnPosts();
      await openAccount();
      expect(await fact('Recovery codes left')).toBe('9');

      // A recovery code works once.
      await signOut();
      await enterPassword();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await recovery.fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('This recovery code is not right, or it has been used already.').waitFor();
      expect(await recovery.inputValue()).toBe('');
      await recovery.fill(recoveryCodes[1]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await landsOnPosts();
    });

    it('starts over at the password when the sign-in expired, and says when to try again after too many codes', async () => {
      await signOut();
      await enterPassword();
      // Five minutes pass: the challenge the password got is no longer answered, whatever the code.
      const sqlite = new BetterSqlite3(path.join(dir.dataDir, 'quire.sqlite'), { fileMustExist: true });
      try {
        sqlite.pragma('busy_timeout = 5000');
        const changed = sqlite
          .prepare('UPDATE sign_in_challenges SET expires_at = ?')
          .run(new Date(Date.now() - 1000).toISOString());
        expect(changed.changes).toBeGreaterThanOrEqual(1);
      } finally {
        sqlite.close();
      }
      await page.getByLabel('6-digit code').fill(wrongCode());
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page
        .getByRole('alert')
        .filter({ hasText: 'This sign-in has expired. Enter your password again.' })
        .waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(OWNER);

      // A sixth wrong code in fifteen minutes: the server's 429, stood in for here so this address is not locked.
      await enterPassword();
      await page.route('**/api/v1/dashboard/session/second-factor', (route) =>
        route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'Retry-After': '840' },
          body: JSON.stringify({
            code: 'RATE_LIMITED',
            message: 'Too many failed sign-in attempts; retry after the time in Retry-After',
            details: { retryAfterSeconds: 840 },
          }),
        }),
      );
      try {
        await page.getByLabel('6-digit code').fill(wrongCode());
        await page.getByRole('button', { name: 'Verify' }).click();
        const refusal = page.getByRole('alert').filter({ hasText: 'Too many wrong codes.' });
        await refusal.waitFor();
        expect(await refusal.textContent()).toMatch(
          /^Too many wrong codes\. Try again in 14 minutes \(at \d\d:\d\d\)\.$/,
        );
      } finally {
        await page.unroute('**/api/v1/dashboard/session/second-factor');
      }
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[2]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await landsOnPosts();
    });

    it('makes new recovery codes with the password; the old ones stop working', async () => {
      await openAccount();
      expect(await fact('Recovery codes left')).toBe('7');
      await panel().getByRole('button', { name: 'New recovery codes' }).click();
      await panel().getByLabel('Your password').fill(PASSWORD);
      await panel().getByRole('button', { name: 'Make new codes' }).click();
      await panel().getByRole('heading', { name: 'Your new recovery codes' }).waitFor();
      renewedCodes = await panel()
        .getByRole('list', { name: 'Recovery codes' })
        .getByRole('listitem')
        .allTextContents();
      expect(renewedCodes).toHaveLength(10);
      for (const c of renewedCodes) expect(c).toMatch(RECOVERY_CODE);
      expect(renewedCodes.filter((c) => recoveryCodes.includes(c))).toEqual([]);
      await panel().getByRole('button', { name: 'I have saved them' }).click();
      await panel().getByRole('status').filter({ hasText: 'New recovery codes saved.' }).waitFor();
      await settled(page);
      expect(await fact('Recovery codes left')).toBe('10');

      await signOut();
      await enterPassword();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[3]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('This recovery code is not right, or it has been used already.').waitFor();
      await page.getByLabel('Recovery code').fill(renewedCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await landsOnPosts();
    });

    it('requires a second factor of every member once the owner has one; turning one’s own off is refused meanwhile', async () => {
      await openMembers();
      const requirement = page.getByRole('switch', { name: SWITCH });
      expect(await requirement.isChecked()).toBe(false);
      await requirement.click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Every member now needs a second factor to use this workspace.' })
        .waitFor();
      expect(await requirement.isChecked()).toBe(true);
      expect(await thisWorkspace()).toMatchObject({ requireSecondFactor: true, secondFactorMissing: false });
      // The owner is not locked out of their own workspace.
      expect(await page.getByRole('alert').count()).toBe(0);
      const problems = await inspect('second-factor-members-requirement');
      // Away and back within the page: the switch shows what the session, read again after the change, says.
      const sections = page.getByRole('navigation', { name: 'Sections' });
      await sections.getByRole('link', { name: 'Posts' }).click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      await sections.getByRole('link', { name: 'Members' }).click();
      await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      expect(await page.getByRole('switch', { name: SWITCH }).isChecked()).toBe(true);
      await openMembers();
      expect(await page.getByRole('switch', { name: SWITCH }).isChecked()).toBe(true);

      await openAccount();
      expect(await fact('Required by')).toBe(WORKSPACE);
      await panel().getByRole('button', { name: 'Turn off' }).click();
      await panel().getByLabel('Your password').fill(PASSWORD);
      await panel().getByRole('button', { name: 'Turn off' }).click();
      const refusal = panel().getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(
        `You cannot turn it off while ${WORKSPACE} requires a second factor of every member.`,
      );
      problems.push(...(await inspect('second-factor-turn-off-refused')));
      await panel().getByRole('button', { name: 'Cancel' }).click();
      await settled(page);
      expect(await fact('Authenticator app')).toBe('On');
      expect(problems).toEqual([]);
    });

    it('shows a member without one that the workspace requires it, and opens it once they set one up', async () => {
      // Without SMTP the invitation's answer holds its link, as the owner would pass it on.
      const invited = await pageFetch<{ link: string }>(
        page,
        'POST',
        `${DASHBOARD}/workspaces/${workspace.id}/invitations`,
        {
          body: { email: 'member@example.com', permissions: ['posts:read'] },
          csrf: true,
        },
      );
      expect(invited.status).toBe(201);
      const memberContext = await browser.newContext({ ...desktop, bypassCSP: true });
      try {
        const member = await memberContext.newPage();
        await member.goto(`${server.url}/dashboard/invitation#${invited.body.link.split('#')[1]}`);
        await member.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await member.getByRole('button', { name: 'Create account and join' }).click();
        const notice = member.getByRole('heading', { name: 'This workspace requires a second factor' });
        await notice.waitFor({ timeout: 10_000 });
        expect(await member.getByRole('heading', { level: 1, name: 'Posts' }).count()).toBe(0);
        for (const width of WIDTHS) {
          await member.setViewportSize({ width, height: width < 800 ? 812 : 900 });
          await screenshot(member, `second-factor-required-${width}`);
          expect(await fitsWidth(member), `the notice at ${width}px`).toBe(true);
        }
        await member.setViewportSize(desktop.viewport!);

        await member.getByRole('link', { name: 'Set up two-factor authentication' }).click();
        await member.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
        const memberPanel = member.getByRole('region', { name: 'Two-factor authentication' });
        await memberPanel.getByRole('button', { name: 'Set up' }).click();
        await memberPanel.getByLabel('Your password').fill(PASSWORD);
        await memberPanel.getByRole('button', { name: 'Continue' }).click();
        const key = ((await memberPanel.locator('[data-secret]').textContent()) ?? '').replace(/ /g, '');
        await memberPanel
          .getByLabel('6-digit code from the app')
          .fill(new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate());
        await memberPanel.getByRole('button', { name: 'Confirm' }).click();
        await memberPanel.getByRole('list', { name: 'Recovery codes' }).waitFor();
        await memberPanel.getByRole('button', { name: 'I have saved them' }).click();

        await member.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
        await member.getByRole('heading', { level: 1, name: 'Posts' }).waitFor({ timeout: 10_000 });
        expect(await notice.count()).toBe(0);
      } finally {
        await memberContext.close();
      }
    });

    it('turns off once nothing requires it: signing in asks for the password alone', async () => {
      await openMembers();
      await page.getByRole('switch', { name: SWITCH }).click();
      await page.getByRole('status').filter({ hasText: 'A second factor is no longer required.' }).waitFor();
      expect(await page.getByRole('switch', { name: SWITCH }).isChecked()).toBe(false);
      expect((await thisWorkspace()).requireSecondFactor).toBe(false);

      await openAccount();
      expect(await fact('Required by')).toBeNull();
      await panel().getByRole('button', { name: 'Turn off' }).click();
      await panel().getByLabel('Your password').fill(PASSWORD);
      await panel().getByRole('button', { name: 'Turn off' }).click();
      await panel().getByRole('status').filter({ hasText: 'Two-factor authentication is off.' }).waitFor();
      await settled(page);
      expect(await fact('Authenticator app')).toBe('Off');
      expect(await panel().getByRole('button', { name: 'Set up' }).count()).toBe(1);

      await signOut();
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await landsOnPosts();
    });
  },
);
