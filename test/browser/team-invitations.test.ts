import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { linkIn, startMailServer, type MailServer } from '../helpers/smtp.js';
import {
  axeViolations,
  clipboardText,
  desktop,
  fitsWidth,
  launchBrowser,
  PASSWORD,
  pageFetch,
  screenshot,
  settled,
  setUpOwner,
  signIn,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';

const OWNER = 'owner@example.com';
const NEWCOMER = 'newcomer@example.com';
const EXISTING = 'existing@example.com';
const PENDING = 'pending@example.com';
const LATE = 'late@example.com';
const WORKSPACE = 'Garden Journal';
const NEW_PASSWORD = 'a brand new passphrase';
const DASHBOARD = '/api/v1/dashboard';
const UNUSABLE = 'This invitation link cannot be used: it has expired, been used or been withdrawn. Ask for a new one.';
const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `invitations and password reset in Chromium, with a real mail server and without one${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  { timeout: 60_000 },
  () => {
    const dir = tempDir('quire-browser-');
    const bareDir = tempDir('quire-browser-');
    let mail: MailServer;
    /** Mails through `mail`. */
    let server: ServerProcess;
    /** Has no QUIRE_SMTP_URL. */
    let bare: ServerProcess;
    let browser: Browser;
    // axe is injected as a script tag, which the dashboard's Content-Security-Policy would (rightly) block.
    let context: BrowserContext;
    /** The owner's. */
    let page: Page;
    /** Everyone else's, one after the other: the invitees', a forgetful member's, the mail-less server's owner. */
    let visitor: Page;
    let workspace: { id: string; slug: string };

    /** The visitor's browser, as someone new to it: no cookie of whoever used it before. */
    const stranger = async () => {
      await visitor.context().clearCookies();
      // A new page too: a link opened over the same address would only change its fragment.
      await visitor.goto('about:blank');
      return visitor;
    };
    const openMembers = async () => {
      await page.goto(`${server.url}/dashboard/w/${workspace.id}/members`);
      await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      await settled(page);
    };
    const memberRow = (email: string) => page.locator('tbody tr', { hasText: email });
    const pending = () => page.getByRole('table', { name: 'Pending invitations' });
    /** What the page says about a field: its error message and hint, tied to it by aria-describedby. */
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
    /**
     * Screenshots the page at both widths (after `load` brings it up), and says what axe and the width check found
     * rather than failing at the first.
     */
    const inspect = async (on: Page, name: string, load?: () => Promise<void>) => {
      const problems: string[] = [];
      await load?.();
      for (const width of WIDTHS) {
        await on.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        await screenshot(on, `${name}-${width}`);
        if (!(await fitsWidth(on))) problems.push(`${name} at ${width}px scrolls sideways`);
        for (const v of await axeViolations(on))
          problems.push(`${name} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      }
      return problems;
    };
    /** Moves an invitation's times in the database: a minute's wait, or a week's, without waiting. */
    const backdate = (email: string, column: 'sent_at' | 'expires_at', msAgo: number) => {
      const sqlite = new BetterSqlite3(path.join(dir.dataDir, 'quire.sqlite'), { fileMustExist: true });
      try {
        sqlite.pragma('busy_timeout = 5000');
        const changed = sqlite
          .prepare(`UPDATE invitations SET ${column} = ? WHERE email = ?`)
          .run(new Date(Date.now() - msAgo).toISOString(), email);
        expect(changed.changes).toBe(1);
      } finally {
        sqlite.close();
      }
    };
    const invite = async (email: string, permissions: string[] = ['posts:read'], workspaceId = workspace.id) => {
      const sent = await pageFetch<{ mail: { sent: boolean } }>(
        page,
        'POST',
        `${DASHBOARD}/workspaces/${workspaceId}/invitations`,
        { body: { email, permissions }, csrf: true },
      );
      expect(sent.status).toBe(201);
      expect(sent.body.mail.sent).toBe(true);
    };

    const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

    beforeAll(async () => {
      mail = await startMailServer();
      [server, bare, browser] = await Promise.all([
        startServer({
          QUIRE_DATA_DIR: dir.dataDir,
          QUIRE_SMTP_URL: mail.url,
          QUIRE_MAIL_FROM: 'Quire <quire@example.com>',
        }),
        startServer({ QUIRE_DATA_DIR: bareDir.dataDir }),
        launchBrowser(),
      ]);
      context = await browser.newContext({ ...desktop, bypassCSP: true });
      page = await context.newPage();
      visitor = await (await browser.newContext({ ...desktop, bypassCSP: true })).newPage();
      workspace = await setUpOwner(page, server.url, OWNER, WORKSPACE);
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await Promise.all([server?.stop().catch(() => undefined), bare?.stop().catch(() => undefined)]);
      await mail?.close().catch(() => undefined);
      dir.remove();
      bareDir.remove();
    });

    it('invites a new email in the UI; the mailed link makes an account that joins with those permissions', async () => {
      const problems = await inspect(page, 'team-invite-dialog', async () => {
        await openMembers();
        await page.getByRole('button', { name: 'Invite member' }).click();
        await page.getByRole('dialog', { name: 'Invite a member' }).waitFor();
      });
      const dialog = page.getByRole('dialog', { name: 'Invite a member' });
      await dialog.getByLabel('Email', { exact: true }).fill(NEWCOMER);
      // A custom set rather than the Contributor preset the dialog starts from.
      await dialog.getByRole('button', { name: 'Nothing' }).click();
      await dialog.getByLabel('Posts: read').check();
      await dialog.getByLabel('Tags: read').check();
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      const sent = page.getByRole('dialog', { name: 'Invitation sent' });
      await sent.getByText(`Invitation sent to ${NEWCOMER}.`).waitFor();
      // A mailed link is the mailbox's alone: the owner never sees it.
      expect(await sent.locator('[data-secret]').count()).toBe(0);
      problems.push(...(await inspect(page, 'team-invite-sent')));

      const received = await mail.next(NEWCOMER);
      expect(received.subject).toBe(`You are invited to ${WORKSPACE} on Quire`);
      expect(received.text).toContain(`${OWNER} invited you`);
      const link = linkIn(received);
      expect(link.startsWith(`${server.url}/dashboard/invitation#`)).toBe(true);
      expect(await page.content()).not.toContain(link.split('#')[1]);

      await sent.getByRole('button', { name: 'Done' }).click();
      await settled(page);
      const row = pending().locator('tbody tr', { hasText: NEWCOMER });
      expect(await row.locator('[data-label="Permissions"]').textContent()).toBe('posts:read, tags:read');
      expect(await row.locator('[data-label="Sent"] .by').textContent()).toBe(`by ${OWNER}`);
      expect(await row.locator('[data-label="Expires"]').textContent()).toMatch(/\d{4}/);

      const newcomer = await stranger();
      problems.push(
        ...(await inspect(newcomer, 'team-invitation-new-account', async () => {
          await newcomer.goto(link);
          await newcomer.getByRole('heading', { level: 1, name: `Join ${WORKSPACE}` }).waitFor();
        })),
      );
      expect(await newcomer.locator('main').textContent()).toContain(`${OWNER} invited ${NEWCOMER}`);
      await newcomer.getByRole('heading', { name: 'Choose a password' }).waitFor();
      // The token has left the address bar.
      expect(new URL(newcomer.url()).hash).toBe('');
      expect(new URL(newcomer.url()).pathname).toBe('/dashboard/invitation');
      expect(await newcomer.getByLabel('Email').inputValue()).toBe(NEWCOMER);
      await newcomer.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await newcomer.getByRole('button', { name: 'Create account and join' }).click();
      // Without api-keys:read they land on the first section they may read, signed in.
      await newcomer.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      expect(new URL(newcomer.url()).pathname).toBe(`/dashboard/w/${workspace.id}/posts`);
      const links = await newcomer.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
      expect(links).toEqual(['Members', 'Site settings', 'Posts', 'Review', 'Tags']);
      await newcomer.getByRole('link', { name: 'Members' }).click();
      await newcomer.getByRole('rowheader', { name: NEWCOMER }).waitFor();
      expect(await newcomer.getByRole('button', { name: /Invite|Resend|Withdraw/ }).count()).toBe(0);
      expect(await newcomer.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(0);

      // The owner sees a member where the invitation was.
      await openMembers();
      expect(await memberRow(NEWCOMER).locator('[data-label="Permissions"]').textContent()).toBe(
        'posts:read, tags:read',
      );
      expect(await page.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(0);

      // The link worked once.
      await newcomer.goto(link);
      await newcomer.getByRole('heading', { level: 1, name: 'This invitation cannot be used' }).waitFor();
      expect(problems).toEqual([]);
    });

    it('asks an invitee who has an account for its password, on the field when it is wrong', async () => {
      // The account comes from an invitation to another of the owner's workspaces, created before this one.
      const side = await pageFetch<{ id: string }>(page, 'POST', `${DASHBOARD}/workspaces`, {
        body: { name: 'Side project' },
        csrf: true,
      });
      let since = mail.messages.length;
      await invite(EXISTING, ['posts:read'], side.body.id);
      const made = await server.fetch(`${DASHBOARD}/invitations/accept`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({ token: tokenOf(linkIn(await mail.next(EXISTING, since))), password: PASSWORD }),
      });
      expect(made.status).toBe(200);

      since = mail.messages.length;
      await invite(EXISTING, ['posts:read', 'pages:read']);
      const link = linkIn(await mail.next(EXISTING, since));

      const invitee = await stranger();
      const problems = await inspect(invitee, 'team-invitation-existing-account', async () => {
        await invitee.goto(link);
        await invitee.getByRole('heading', { name: `Sign in as ${EXISTING} to join` }).waitFor();
      });
      const password = invitee.getByLabel('Password', { exact: true });
      await password.fill('not the password');
      await invitee.getByRole('button', { name: 'Sign in and join' }).click();
      await invitee.getByRole('alert').getByText('Check Password.').waitFor();
      expect(await described(password)).toBe(`This is not the password of ${EXISTING}.`);
      expect(await password.getAttribute('aria-invalid')).toBe('true');
      problems.push(...(await inspect(invitee, 'team-invitation-wrong-password')));

      await password.fill(PASSWORD);
      await invitee.getByRole('button', { name: 'Sign in and join' }).click();
      await invitee.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      expect(new URL(invitee.url()).pathname).toBe(`/dashboard/w/${workspace.id}/posts`);
      expect(await invitee.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents()).toContain(
        'Pages',
      );
      expect(problems).toEqual([]);
    });

    it('lists pending invitations: says so on the email field, resends (the old link dies) and withdraws', async () => {
      await openMembers();
      await page.getByRole('button', { name: 'Invite member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a member' });
      const email = dialog.getByLabel('Email', { exact: true });
      await email.fill(NEWCOMER);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await dialog.getByRole('alert').getByText('Check Email.').waitFor();
      expect(await described(email)).toContain('This email belongs to a member of this workspace already.');

      const since = mail.messages.length;
      await email.fill(PENDING);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByRole('dialog', { name: 'Invitation sent' }).getByRole('button', { name: 'Done' }).click();
      const first = linkIn(await mail.next(PENDING, since));

      await page.getByRole('button', { name: 'Invite member' }).click();
      await email.fill(PENDING);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await dialog.getByRole('alert').getByText('Check Email.').waitFor();
      expect(await described(email)).toContain(
        'This email has an invitation already: resend or withdraw it under Pending invitations.',
      );
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Within a minute of the last mail the server refuses a resend: said in words, with the wait.
      const row = pending().locator('tbody tr', { hasText: PENDING });
      await row.getByRole('button', { name: `Resend the invitation of ${PENDING}` }).click();
      await page
        .getByRole('alert')
        .getByText(
          /^This invitation was sent less than a minute ago, so it was not sent again\. You can resend it in \d+ seconds\.$/,
        )
        .waitFor();

      backdate(PENDING, 'sent_at', 2 * 60_000);
      const before = mail.messages.length;
      await row.getByRole('button', { name: `Resend the invitation of ${PENDING}` }).click();
      const resent = page.getByRole('dialog', { name: 'Invitation sent' });
      await resent.getByText('The link sent before no longer works.', { exact: false }).waitFor();
      const second = linkIn(await mail.next(PENDING, before));
      expect(second).not.toBe(first);
      await resent.getByRole('button', { name: 'Done' }).click();
      expect(await page.getByRole('alert').count()).toBe(0);

      const invitee = await stranger();
      const problems = await inspect(invitee, 'team-invitation-unusable', async () => {
        await invitee.goto(first);
        await invitee.getByRole('heading', { level: 1, name: 'This invitation cannot be used' }).waitFor();
      });
      expect(await invitee.getByRole('alert').textContent()).toBe(UNUSABLE);
      await invitee.getByRole('link', { name: 'Sign in' }).click();
      await invitee.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await invitee.goto(second);
      await invitee.getByRole('heading', { level: 1, name: `Join ${WORKSPACE}` }).waitFor();

      // One gone past its week: still listed, marked, and resending would renew it.
      await invite(LATE);
      backdate(LATE, 'expires_at', 1_000);
      await openMembers();
      const late = pending().locator('tbody tr', { hasText: LATE });
      expect(await late.locator('[data-label="Expires"] .badge').textContent()).toBe('Expired');
      // Both states of the list: one to expire, one expired.
      problems.push(...(await inspect(page, 'team-members-pending')));

      await row.getByRole('button', { name: `Withdraw the invitation of ${PENDING}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Withdraw this invitation?' });
      expect(await confirm.textContent()).toContain(`${PENDING} can no longer join with it.`);
      await confirm.getByRole('button', { name: 'Withdraw invitation' }).click();
      await confirm.waitFor({ state: 'detached' });
      await row.waitFor({ state: 'detached' });
      await invitee.goto(second);
      await invitee.getByRole('heading', { level: 1, name: 'This invitation cannot be used' }).waitFor();

      await late.getByRole('button', { name: `Withdraw the invitation of ${LATE}` }).click();
      await page.getByRole('button', { name: 'Withdraw invitation' }).click();
      await page.getByRole('heading', { name: 'Pending invitations' }).waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    });

    it('resets a forgotten password through the mailed link; the old password then fails', async () => {
      const visitor = await stranger();
      await visitor.goto(`${server.url}/dashboard/`);
      await visitor.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await visitor.getByRole('link', { name: 'Forgot your password?' }).click();
      await visitor.getByLabel('Email').waitFor();
      const problems = await inspect(visitor, 'team-forgot-password');

      // An email without an account reads the same answer, and gets no mail.
      await visitor.getByLabel('Email').fill('nobody@example.com');
      await visitor.getByRole('button', { name: 'Send the link' }).click();
      await visitor
        .getByText('If an account exists for nobody@example.com, a link is on its way. It works once, for one hour.')
        .waitFor();
      await visitor.getByRole('button', { name: 'Ask again' }).click();

      const since = mail.messages.length;
      await visitor.getByLabel('Email').fill(NEWCOMER);
      await visitor.getByRole('button', { name: 'Send the link' }).click();
      await visitor
        .getByText(`If an account exists for ${NEWCOMER}, a link is on its way. It works once, for one hour.`)
        .waitFor();
      problems.push(...(await inspect(visitor, 'team-forgot-password-sent')));
      const received = await mail.next(NEWCOMER, since);
      expect(received.subject).toBe('Reset your Quire password');
      expect(mail.messages.slice(since).some((m) => m.to.includes('nobody@example.com'))).toBe(false);
      const link = linkIn(received);
      expect(link.startsWith(`${server.url}/dashboard/reset-password#`)).toBe(true);

      problems.push(
        ...(await inspect(visitor, 'team-reset-password', async () => {
          await visitor.goto(link);
          await visitor.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
        })),
      );
      expect(new URL(visitor.url()).hash).toBe('');
      await visitor.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await visitor.getByLabel('Confirm new password').fill(NEW_PASSWORD);
      await visitor.getByRole('button', { name: 'Save the new password' }).click();
      await visitor.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      const session = await pageFetch<{ user: { email: string } }>(visitor, 'GET', `${DASHBOARD}/session`);
      expect(session.body.user.email).toBe(NEWCOMER);

      // The link worked once.
      await visitor.goto(link);
      await visitor.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await visitor.getByLabel('Confirm new password').fill(NEW_PASSWORD);
      await visitor.getByRole('button', { name: 'Save the new password' }).click();
      await visitor.getByRole('heading', { level: 1, name: 'This reset link cannot be used' }).waitFor();
      problems.push(...(await inspect(visitor, 'team-reset-password-unusable')));
      await visitor.getByRole('link', { name: 'Ask for a new link' }).click();
      await visitor.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
      // Each request may send a mail, so a few for one address from one place are all the server takes.
      for (let i = 0; i < 5; i += 1) {
        const asked = await pageFetch(visitor, 'POST', `${DASHBOARD}/password-reset`, {
          body: { email: 'flood@example.com' },
        });
        expect(asked.status).toBe(202);
      }
      await visitor.getByLabel('Email').fill('flood@example.com');
      await visitor.getByRole('button', { name: 'Send the link' }).click();
      await visitor
        .getByRole('alert')
        .getByText(/^Too many reset links were asked for from here\. Try again in about \d+ minutes\.$/)
        .waitFor();

      const later = await stranger();
      await later.goto(`${server.url}/dashboard/`);
      await later.getByLabel('Email').fill(NEWCOMER);
      await later.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await later.getByRole('button', { name: 'Sign in', exact: true }).click();
      await later.getByText('The email or password is not correct.').waitFor();
      await signIn(later, server.url, NEWCOMER, NEW_PASSWORD);
      await later.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      expect(problems).toEqual([]);
    });

    it('without a mail server: shows the link to copy and why, and says a password cannot be reset by mail', async () => {
      // Another server, another origin: the visitor's cookies there are its own.
      const owner = visitor;
      await owner.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bare.url });
      const bareWorkspace = await setUpOwner(owner, bare.url, OWNER, 'Offline Notes');
      await owner.goto(`${bare.url}/dashboard/w/${bareWorkspace.id}/members`);
      await owner.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      await settled(owner);
      await owner.getByRole('button', { name: 'Invite member' }).click();
      const dialog = owner.getByRole('dialog', { name: 'Invite a member' });
      const email = dialog.getByLabel('Email', { exact: true });
      expect(await described(email)).toContain('This server sends no mail: you get a link to pass on yourself');
      await email.fill(NEWCOMER);
      await dialog.getByRole('button', { name: 'Create invitation' }).click();
      const shown = owner.getByRole('dialog', { name: 'Pass the link on' });
      await shown
        .getByText(`No mail was sent to ${NEWCOMER}. This server sends no mail: QUIRE_SMTP_URL is not set.`)
        .waitFor();
      const link = await shown.getByLabel(`Invitation link for ${NEWCOMER}`).inputValue();
      expect(link).toMatch(new RegExp(`^${bare.url}/dashboard/invitation#[A-Za-z0-9_-]{43}$`));
      await shown.getByRole('button', { name: 'Copy' }).click();
      await shown.getByText('Copied to the clipboard.').waitFor();
      expect(await clipboardText(owner)).toBe(link);
      const problems = await inspect(owner, 'team-invite-link');
      await shown.getByRole('button', { name: 'Done' }).click();
      await owner
        .locator('tbody tr', { hasText: NEWCOMER })
        .getByRole('button', { name: /^Resend/ })
        .waitFor();

      // The copied link works like a mailed one.
      const invitee = await stranger();
      await invitee.goto(link);
      await invitee.getByRole('heading', { level: 1, name: 'Join Offline Notes' }).waitFor();

      problems.push(
        ...(await inspect(invitee, 'team-forgot-password-no-mail', async () => {
          await invitee.goto(`${bare.url}/dashboard/forgot-password`);
          await invitee.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
          await settled(invitee);
        })),
      );
      expect(await invitee.locator('main').textContent()).toContain(
        'This server sends no mail, so a password cannot be reset by email. Ask whoever runs this Quire to set a new one for you with quire user password.',
      );
      expect(await invitee.getByLabel('Email').count()).toBe(0);
      expect(problems).toEqual([]);
    });
  },
);
