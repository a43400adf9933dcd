import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cliJson, EXTERNAL, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  clipboardText,
  desktop,
  hasFocus,
  holdsFocus,
  launchBrowser,
  PASSWORD,
  pageFetch,
  settled,
  signIn,
  SKIP_REASON,
} from './browser.js';

interface SessionBody {
  user: { id: string; email: string };
  csrfToken: string;
  workspaces: Array<{ id: string; slug: string; name: string }>;
}

const OWNER = 'owner@example.com';
const READER = 'reader@example.com';
const DASHBOARD = '/api/v1/dashboard';

const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `the dashboard in Chromium: setup, the API key lifecycle, permissions and CSRF${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    const dir = tempDir('quire-browser-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    let server: ServerProcess;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let workspace: SessionBody['workspaces'][number];
    // The app runs under the server's strict Content-Security-Policy here; any violation is a bug.
    const cspViolations: string[] = [];

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      context = await browser.newContext(desktop);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      page = await context.newPage();
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
      });
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('setup creates the owner and the first workspace, and then /dashboard/setup is gone', async () => {
      expect((await (await server.fetch(`${DASHBOARD}/setup`)).json()) as unknown).toEqual({ needed: true });
      // Before setup, the dashboard's front door leads there by itself.
      await page.goto(`${server.url}/dashboard/`);
      await page.waitForURL('**/dashboard/setup');
      await page.getByRole('heading', { name: 'Set up Quire' }).waitFor();
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Workspace name').fill('Field Notes');
      await page.getByRole('button', { name: 'Create owner and workspace' }).click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      expect(page.url()).toMatch(/\/dashboard\/w\/[0-9a-f-]{36}\/posts$/);

      const session = await pageFetch<SessionBody>(page, 'GET', `${DASHBOARD}/session`);
      expect(session.status).toBe(200);
      expect(session.body.user.email).toBe(OWNER);
      expect(session.body.workspaces.map((w) => w.name)).toEqual(['Field Notes']);
      workspace = session.body.workspaces[0]!;

      expect((await (await server.fetch(`${DASHBOARD}/setup`)).json()) as unknown).toEqual({ needed: false });
      const again = await server.fetch(`${DASHBOARD}/setup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'late@example.com', password: PASSWORD, workspaceName: 'Late' }),
      });
      expect(again.status).toBe(404);
      const gone = await page.goto(`${server.url}/dashboard/setup`);
      expect(gone?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/not found/i);
    });

    it('runs a key through its whole life in the UI, and the key works against the external API until revoked', async () => {
      const keysUrl = `${server.url}/dashboard/w/${workspace.id}/keys`;
      await page.goto(keysUrl);
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      await settled(page);

      await page.getByRole('button', { name: 'Create key' }).click();
      const create = page.getByRole('dialog', { name: 'Create an API key' });
      await create.getByLabel('Name').fill('Site build');
      await create.getByLabel('Expires (optional)').fill('2031-05-01T12:00');
      await create.getByRole('button', { name: 'Create key' }).click();

      const created = page.getByRole('dialog', { name: 'Key created' });
      await created.waitFor();
      await expect(created.getByText('Copy the key now and store it somewhere safe').isVisible()).resolves.toBe(true);
      const key = await created.getByLabel('Your new API key').inputValue();
      expect(key).toMatch(/^[a-z]+_live_\S+$/);
      await created.getByRole('button', { name: 'Copy' }).click();
      await created.getByText('Copied to the clipboard.').waitFor();
      expect(await clipboardText(page)).toBe(key);
      await created.getByRole('button', { name: 'Done' }).click();
      await created.waitFor({ state: 'detached' });

      // Once the dialog is closed the plaintext is nowhere: not in the page, not in the list the page read.
      await settled(page);
      expect(await page.content()).not.toContain(key);
      expect(await page.locator('[data-secret]').count()).toBe(0);
      const list = await pageFetch(page, 'GET', `${DASHBOARD}/workspaces/${workspace.id}/api-keys`);
      expect(JSON.stringify(list.body)).not.toContain(key);

      const row = page.locator('tbody tr', { hasText: 'Site build' });
      await expect(row.locator('.badge').textContent()).resolves.toBe('Active');
      await expect(row.locator('[data-label="Expires"]').textContent()).resolves.toContain('2031');
      await expect(row.locator('[data-label="Created"] .by').textContent()).resolves.toBe(`by ${OWNER}`);

      const external = () => server.fetch(`${EXTERNAL}/api-keys`, { headers: { 'X-API-Key': key } });
      expect((await external()).status).toBe(200);

      // Reveal asks first, then shows the same key.
      await row.getByRole('button', { name: 'Reveal Site build' }).click();
      const reveal = page.getByRole('dialog', { name: 'Reveal key “Site build”?' });
      await reveal.getByRole('button', { name: 'Reveal key' }).click();
      const revealed = page.getByRole('dialog', { name: 'Key “Site build”' });
      await expect(revealed.getByLabel('API key').inputValue()).resolves.toBe(key);
      await revealed.getByRole('button', { name: 'Done' }).click();
      await revealed.waitFor({ state: 'detached' });

      await row.getByRole('button', { name: 'Edit Site build' }).click();
      let edit = page.getByRole('dialog', { name: 'Edit key “Site build”' });
      await edit.getByLabel('Name').fill('Production build');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      const renamed = page.locator('tbody tr', { hasText: 'Production build' });
      await renamed.waitFor();

      await renamed.getByRole('button', { name: 'Edit Production build' }).click();
      edit = page.getByRole('dialog', { name: 'Edit key “Production build”' });
      await edit.getByRole('button', { name: 'Clear expiry' }).click();
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      await settled(page);
      await expect(renamed.locator('[data-label="Expires"]').textContent()).resolves.toBe('Never');

      await renamed.getByRole('button', { name: 'Revoke Production build' }).click();
      const revoke = page.getByRole('dialog', { name: 'Revoke key “Production build”?' });
      await revoke.getByRole('button', { name: 'Revoke key' }).click();
      await revoke.waitFor({ state: 'detached' });
      await settled(page);
      await expect(renamed.locator('.badge').textContent()).resolves.toBe('Revoked');
      // A revoked key offers neither reveal nor revoke.
      expect(await renamed.getByRole('button', { name: /Reveal|Revoke/ }).count()).toBe(0);
      expect((await external()).status).toBe(401);

      await page.getByRole('radio', { name: 'Active', exact: true }).check();
      await page.getByText('No active keys.').waitFor();
      await page.getByRole('radio', { name: 'Inactive' }).check();
      await renamed.waitFor();
    });

    it('keeps keyboard focus inside a dialog, closes it on Escape and returns focus to its opener', async () => {
      const opener = page.getByRole('button', { name: 'Create key' });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      await dialog.waitFor();
      expect(await hasFocus(dialog.getByLabel('Name'))).toBe(true);
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
        expect(await holdsFocus(dialog)).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => hasFocus(opener)).toBe(true);
    });

    it('refuses a write without the session’s CSRF token (403), and accepts it with the token', async () => {
      const url = `${DASHBOARD}/workspaces/${workspace.id}/api-keys`;
      const refused = await pageFetch<{ code: string; details: { reason?: string } }>(page, 'POST', url, {
        body: { name: 'Forged' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
      expect(refused.body.details.reason).toBe('csrf');
      const accepted = await pageFetch(page, 'POST', url, { body: { name: 'With token' }, csrf: true });
      expect(accepted.status).toBe(201);
    });

    it('shows a member without api-keys:write no key controls, and the server refuses their write anyway', async () => {
      await cliJson(['user', 'create', '--email', READER, '--password-stdin'], env, `${PASSWORD}\n`);
      await cliJson(
        ['member', 'add', '--workspace', workspace.slug, '--email', READER, '--permissions', 'api-keys:read'],
        env,
      );

      const readerContext: BrowserContext = await browser.newContext(desktop);
      try {
        const reader = await readerContext.newPage();
        await signIn(reader, server.url, READER, PASSWORD);
        await reader.getByRole('heading', { name: 'API keys' }).waitFor();
        await settled(reader);
        expect(await reader.locator('tbody tr').count()).toBeGreaterThan(0);
        expect(await reader.getByRole('button', { name: /Create key|Reveal|Edit|Revoke/ }).count()).toBe(0);
        // Only what api-keys:read opens is in the navigation.
        expect(await reader.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents()).toEqual([
          'API keys',
          'Members',
          'Site settings',
        ]);

        const refused = await pageFetch<{ code: string; details: { reason?: string } | null }>(
          reader,
          'POST',
          `${DASHBOARD}/workspaces/${workspace.id}/api-keys`,
          { body: { name: 'Not mine to make' }, csrf: true },
        );
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('FORBIDDEN');
        expect(refused.body.details?.reason).not.toBe('csrf');

        // A screen reached by its URL without the permission says why it is empty.
        await reader.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
        await reader.getByRole('alert').getByText('You do not have permission to do this.').waitFor();
      } finally {
        await readerContext.close();
      }
    });

    it('ran without a Content-Security-Policy violation', () => {
      expect(cspViolations).toEqual([]);
    });
  },
);
