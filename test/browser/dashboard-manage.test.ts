import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cliJson, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { desktop, launchBrowser, PASSWORD, pageFetch, settled, setUpOwner, SKIP_REASON } from './browser.js';
import { seedContent } from './content.js';

const OWNER = 'owner@example.com';
const NEWCOMER = 'newcomer@example.com';
const EXISTING = 'existing@example.com';
const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `the dashboard in Chromium: members, settings, workspaces, content lists and the account${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
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
    const memberRow = (email: string) => page.locator('tbody tr', { hasText: email });

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      context = await browser.newContext(desktop);
      page = await context.newPage();
      workspace = await setUpOwner(page, server.url, OWNER, 'Garden Journal');
      await seedContent(server, env, workspace.slug, OWNER);
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('invites a new user, who joins through the link and sees what their permissions open', async () => {
      await open(`/w/${workspace.id}/members`, 'Members');
      await page.getByRole('button', { name: 'Invite member' }).click();
      const invite = page.getByRole('dialog', { name: 'Invite a member' });
      await invite.getByLabel('Email', { exact: true }).fill(NEWCOMER);
      // Not a preset (an invitation starts as a Contributor): just these two.
      await invite.getByRole('button', { name: 'Nothing' }).click();
      await invite.getByLabel('Posts: read').check();
      await invite.getByLabel('Tags: read').check();
      expect(await invite.getByRole('radio', { name: 'Custom' }).isChecked()).toBe(true);
      await invite.getByRole('button', { name: 'Create invitation' }).click();
      // This server sends no mail: the owner gets the link to pass on.
      const shown = page.getByRole('dialog', { name: 'Pass the link on' });
      const link = await shown.getByLabel(`Invitation link for ${NEWCOMER}`).inputValue();
      await shown.getByRole('button', { name: 'Done' }).click();
      await settled(page);

      const other = await browser.newContext(desktop);
      try {
        const newcomer = await other.newPage();
        await newcomer.goto(link);
        await newcomer.getByRole('heading', { level: 1, name: 'Join Garden Journal' }).waitFor();
        await newcomer.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await newcomer.getByRole('button', { name: 'Create account and join' }).click();
        // Without api-keys:read they land on the first section they may read.
        await newcomer.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
        const links = await newcomer.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
        expect(links).toEqual(['Members', 'Site settings', 'Posts', 'Review', 'Tags']);
        // A member sees the settings and the members but can change neither.
        await newcomer.getByRole('link', { name: 'Site settings' }).click();
        await newcomer.getByText('Only the workspace owner can change these settings.').waitFor();
        expect(await newcomer.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
        await newcomer.getByRole('link', { name: 'Members' }).click();
        await newcomer.getByRole('rowheader', { name: OWNER }).waitFor();
        expect(await newcomer.getByRole('button', { name: /Invite|Permissions|Remove|Transfer/ }).count()).toBe(0);
      } finally {
        await other.close();
      }
      await open(`/w/${workspace.id}/members`, 'Members');
      await expect(memberRow(NEWCOMER).locator('[data-label="Permissions"]').textContent()).resolves.toBe(
        'posts:read, tags:read',
      );
    });

    it('edits a member’s permissions in the grid, and removes a member', async () => {
      await memberRow(NEWCOMER)
        .getByRole('button', { name: `Permissions of ${NEWCOMER}` })
        .click();
      const grid = page.getByRole('dialog', { name: `Permissions of ${NEWCOMER}` });
      await grid.getByLabel('API keys: read').check();
      await grid.getByLabel('Tags: read').uncheck();
      // Site settings are read-only through keys: a read box, and no write box to grant nothing with.
      await grid.getByLabel('Site settings: read').check();
      expect(await grid.getByLabel('Site settings: write').count()).toBe(0);
      await grid.getByRole('button', { name: 'Save permissions' }).click();
      await grid.waitFor({ state: 'detached' });
      await settled(page);
      await expect(memberRow(NEWCOMER).locator('[data-label="Permissions"]').textContent()).resolves.toBe(
        'posts:read, api-keys:read, site-settings:read',
      );

      await cliJson(['user', 'create', '--email', EXISTING, '--password-stdin'], env, `${PASSWORD}\n`);
      await cliJson(['member', 'add', '--workspace', workspace.slug, '--email', EXISTING], env);
      await open(`/w/${workspace.id}/members`, 'Members');
      await memberRow(EXISTING)
        .getByRole('button', { name: `Remove ${EXISTING}` })
        .click();
      await page
        .getByRole('dialog', { name: `Remove ${EXISTING}?` })
        .getByRole('button', { name: 'Remove member' })
        .click();
      await memberRow(EXISTING).waitFor({ state: 'detached' });
    });

    it('saves site settings, and an emptied field clears the setting', async () => {
      await open(`/w/${workspace.id}/settings`, 'Site settings');
      await page.getByLabel('Site name').fill('Garden Journal');
      await page.getByLabel('Site URL').fill('https://garden.example');
      await page.getByLabel('Post URL pattern').fill('/notes/{slug}');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
      await open(`/w/${workspace.id}/settings`, 'Site settings');
      expect(await page.getByLabel('Post URL pattern').inputValue()).toBe('/notes/{slug}');

      await page.getByLabel('Site URL').fill('');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
      const settings = await pageFetch<Record<string, string | null>>(
        page,
        'GET',
        `/api/v1/dashboard/workspaces/${workspace.id}/settings`,
      );
      expect(settings.body).toMatchObject({
        siteName: 'Garden Journal',
        siteUrl: null,
        postUrlPattern: '/notes/{slug}',
      });
    });

    it('creates, renames and switches workspaces', async () => {
      const switcher = page.getByRole('combobox', { name: 'Workspace' });
      await page.getByRole('button', { name: 'New workspace' }).click();
      const create = page.getByRole('dialog', { name: 'New workspace' });
      await create.getByLabel('Workspace name').fill('Second site');
      await create.getByRole('button', { name: 'Create workspace' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/posts') && !url.pathname.includes(workspace.id));
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      await page.getByText('No posts yet.').waitFor();
      expect(await switcher.locator('option:checked').textContent()).toBe('Second site');

      await page.getByRole('button', { name: 'Rename workspace' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename workspace' });
      await rename.getByLabel('Workspace name').fill('Second site, renamed');
      await rename.getByRole('button', { name: 'Save name' }).click();
      await rename.waitFor({ state: 'detached' });
      expect(await switcher.locator('option:checked').textContent()).toBe('Second site, renamed');

      await switcher.selectOption({ label: 'Garden Journal' });
      await page.waitForURL(`**/dashboard/w/${workspace.id}/posts`);
      await page.getByRole('link', { name: 'Every block type' }).waitFor();
    });

    it('filters, sorts and pages the posts list through the URL, and opens a post', async () => {
      await open(`/w/${workspace.id}/posts`, 'Posts');
      await page.getByLabel('Status').selectOption('archived');
      await page.waitForURL(/status=archived/);
      await settled(page);
      const statuses = await page.locator('tbody [data-label="Status"]').allTextContents();
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set(['archived']));

      await page.getByLabel('Status').selectOption('');
      await page.getByLabel('Sort by').selectOption('title:asc');
      await page.waitForURL(/sort=title%3Aasc/);
      await settled(page);
      // The order is the server's to define; the list must show exactly what the API answers for that sort.
      const sorted = await pageFetch<{ data: Array<{ title: string }> }>(
        page,
        'GET',
        `/api/v1/dashboard/workspaces/${workspace.id}/posts?orderBy=title&order=asc&pageSize=20`,
      );
      expect(await page.locator('tbody th a').allTextContents()).toEqual(sorted.body.data.map((p) => p.title));

      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(/page=2/);
      await settled(page);
      await page.getByText('Page 2 of 2').waitFor();

      await page.getByLabel('Search').fill('Thirteen block');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/q=Thirteen\+block/);
      await settled(page);
      expect(await page.locator('tbody th a').allTextContents()).toEqual(['Every block type']);
      await page.getByRole('link', { name: 'Every block type' }).click();
      await page.getByRole('heading', { level: 1, name: 'Every block type' }).waitFor();
      await page.getByRole('link', { name: '← All posts' }).click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
    });

    it('transfers ownership: the old owner keeps access but loses the owner’s controls', async () => {
      await open(`/w/${workspace.id}/members`, 'Members');
      await page.getByLabel('New owner').selectOption({ label: NEWCOMER });
      await page.getByRole('button', { name: 'Transfer ownership…' }).click();
      await page
        .getByRole('dialog', { name: `Make ${NEWCOMER} the owner?` })
        .getByRole('button', { name: 'Transfer ownership' })
        .click();
      await memberRow(NEWCOMER).getByText('Owner', { exact: true }).waitFor();
      // They keep every permission, listed: managing members included (an Admin), but nothing only the owner does.
      await expect(memberRow(OWNER).locator('[data-label="Permissions"]').textContent()).resolves.toBe('Everything');
      await expect(memberRow(OWNER).locator('[data-label="Role"]').textContent()).resolves.toBe('Admin');
      expect(await page.getByRole('button', { name: 'Invite member' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /Transfer|End sessions/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Rename workspace' }).count()).toBe(0);
    });

    it('changes the password, signs out, and signs in again only with the new one', async () => {
      await open('/account', 'Account');
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password', { exact: true }).fill('an even better passphrase');
      await page.getByLabel('Confirm new password').fill('an even better passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed.').waitFor();
      // The new session's CSRF token is in use: a write still works.
      const write = await pageFetch(page, 'POST', '/api/v1/dashboard/workspaces', {
        body: { name: 'After the change' },
        csrf: true,
      });
      expect(write.status).toBe(201);

      await page.getByRole('button', { name: 'Sign out' }).last().click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('The email or password is not correct.').waitFor();
      await page.getByLabel('Password').fill('an even better passphrase');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
    });
  },
);
