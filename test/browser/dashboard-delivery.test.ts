import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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
import { saved, workspaceApi } from './studio-helpers.js';

const OWNER = 'owner@delivery.example.com';
const SITE = 'https://site.example';
const CONTENT = '/api/v1/content';
const suite = SKIP_REASON ? describe.skip : describe;
type Json = Record<string, unknown>;

suite(`content keys and "Preview on site" in the dashboard${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-delivery-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workspace: { id: string; slug: string };
  const opened: string[] = [];

  const problemsOf = async (what: string): Promise<string[]> => {
    const problems = (await axeViolations(page)).map((v) => `${v.impact} ${v.id} (${v.help}) at ${v.targets}`);
    if (!(await fitsWidth(page))) problems.push(`${what} at ${desktop.viewport!.width}px scrolls sideways`);
    await page.setViewportSize({ width: 375, height: 812 });
    if (!(await fitsWidth(page))) problems.push(`${what} at 375px scrolls sideways`);
    await page.setViewportSize(desktop.viewport!);
    return problems;
  };
  /** Both widths of the screen, or of one part of it, kept for a person to look at (never compared by the test). */
  const shots = async (name: string, part?: Locator) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      // On a phone the studio's settings are a sheet, closed until the bar's Settings button opens it; the
      // button says so once the studio has followed the new width.
      const settings = page.getByRole('button', { name: 'Settings', exact: true });
      const inSheet = part !== undefined && width < 1024 && (await settings.count()) > 0;
      if (inSheet) {
        await expect.poll(() => settings.getAttribute('aria-expanded')).toBe('false');
        await settings.click();
      }
      if (part)
        await part.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), animations: 'disabled' });
      else await screenshot(page, `${name}-${width}`);
      if (inSheet) await page.keyboard.press('Escape');
    }
    await page.setViewportSize(desktop.viewport!);
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    // bypassCSP: axe is injected as a script tag, which the dashboard's CSP (self only) would refuse.
    context = await browser.newContext({ ...desktop, bypassCSP: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    // The site's preview route: any page there answers, so a tab opened on it stays at its address.
    await context.route(`${SITE}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Site</title><p>Site</p>' }),
    );
    context.on('page', (opening) => {
      void opening.waitForURL(`${SITE}/**`).then(
        () => opened.push(opening.url()),
        () => undefined,
      );
    });
    page = await context.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Delivery Desk');
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  const section = () => page.getByRole('region', { name: 'Content keys' });
  const row = (name: string): Locator => section().locator('tbody tr', { hasText: name });

  it('creates a content key limited to an origin, lists it with that origin, edits and revokes it', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/keys`);
    await section().getByRole('heading', { name: 'Content keys' }).waitFor();
    await settled(page);
    await section().getByText('No content keys yet.').waitFor();

    await section().getByRole('button', { name: 'Create content key' }).click();
    const create = page.getByRole('dialog', { name: 'Create a content key' });
    await create.getByLabel('Name').fill('Marketing site');
    const origins = create.getByLabel('Allowed origins');
    // A blank line is no origin; the refused one is named by what was typed, on the field.
    await origins.fill('https://www.example.com\n\nftp://files.example.com');
    await create.getByRole('button', { name: 'Create content key' }).click();
    await create.getByText('“ftp://files.example.com”: An origin is an http or https scheme and host').waitFor();
    expect(await origins.getAttribute('aria-invalid')).toBe('true');
    expect(await create.getByRole('alert').textContent()).toBe('Check Allowed origins.');

    await origins.fill('https://www.example.com/\n\nhttps://shop.example.com:8443');
    await create.getByRole('button', { name: 'Create content key' }).click();
    await create.waitFor({ state: 'detached' });
    await settled(page);

    const marketing = row('Marketing site');
    // The list is fetched again behind the closed dialog, with no loading state while the old one shows: reading
    // the row's origins needs the new row there first (allTextContents does not wait).
    await marketing.locator('[data-label="Allowed origins"] li').nth(1).waitFor();
    // Kept as a browser names itself in Origin: no trailing slash.
    await expect(marketing.locator('[data-label="Allowed origins"] li').allTextContents()).resolves.toEqual([
      'https://www.example.com',
      'https://shop.example.com:8443',
    ]);
    await expect(marketing.locator('.badge').textContent()).resolves.toBe('Active');
    const key = await marketing.getByLabel('Content key Marketing site').inputValue();
    expect(key).toMatch(/^quire_content_\S+$/);
    await marketing.getByRole('button', { name: 'Copy content key Marketing site' }).click();
    await marketing.getByText('Copied to the clipboard.').waitFor();
    expect(await clipboardText(page)).toBe(key);

    // The listed key reads the content API, and a browser on the allowed origin is let in.
    const read = () =>
      server.fetch(`${CONTENT}/posts?key=${encodeURIComponent(key)}`, {
        headers: { Origin: 'https://www.example.com' },
      });
    const allowed = await read();
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://www.example.com');

    // A second key, for any origin, renamed through Edit.
    await section().getByRole('button', { name: 'Create content key' }).click();
    await create.getByLabel('Name').fill('Docs');
    await create.getByRole('button', { name: 'Create content key' }).click();
    await create.waitFor({ state: 'detached' });
    await row('Docs').getByRole('button', { name: 'Edit content key Docs' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit content key “Docs”' });
    await edit.getByLabel('Name').fill('Documentation widget');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    const docs = row('Documentation widget');
    await docs.waitFor();
    await expect(docs.locator('[data-label="Allowed origins"]').textContent()).resolves.toBe('Any origin');
    await settled(page);

    expect(await problemsOf('the content keys section')).toEqual([]);
    await shots('content-keys');

    await marketing.getByRole('button', { name: 'Revoke content key Marketing site' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke content key “Marketing site”?' });
    await revoke.getByRole('button', { name: 'Revoke content key' }).click();
    await revoke.waitFor({ state: 'detached' });
    await settled(page);
    await expect(marketing.locator('.badge').textContent()).resolves.toBe('Revoked');
    expect(await marketing.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    expect((await read()).status).toBe(401);
  }, 90_000);

  it('previews a draft on the site: saves first, opens the preview route with a token the content API accepts', async () => {
    const api = workspaceApi(page, workspace.id);
    const contentKey = (await api.post('/content-keys', { name: 'Site' })).body.key as string;
    const created = await api.post('/posts', {
      title: 'Not out yet',
      bodyJson: [{ type: 'paragraph', text: 'Draft.' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const previewRead = (token: string) =>
      server.fetch(
        `${CONTENT}/preview/posts/${id}?key=${encodeURIComponent(contentKey)}&token=${encodeURIComponent(token)}`,
      );

    // No preview URL pattern yet: the studio says where to set one, and gives the content API's address instead.
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    const publish = page.getByRole('region', { name: 'Publish' });
    const previewButton = publish.getByRole('button', { name: 'Preview on site' });
    await previewButton.click();
    await publish.getByRole('link', { name: 'Site settings' }).waitFor();
    const address = await publish.getByLabel('Content API address of this draft').inputValue();
    const fromAddress = new URL(address);
    expect(fromAddress.pathname).toBe(`${CONTENT}/preview/posts/${id}`);
    expect((await previewRead(fromAddress.searchParams.get('token')!)).status).toBe(200);
    expect(opened).toEqual([]);
    await shots('studio-preview-no-pattern', publish);

    await publish.getByRole('link', { name: 'Site settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Site settings' }).waitFor();
    await settled(page);
    await page.getByLabel('Preview URL pattern').fill(`${SITE}/preview/{type}/{id}?token={token}`);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    // An unsaved title: the site must see it, so the button saves before it makes the token.
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit post' }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Not out yet, revised');
    await previewButton.click();
    await expect.poll(() => opened.length, { timeout: 15_000 }).toBe(1);
    const url = new URL(opened[0]!);
    expect(url.origin + url.pathname).toBe(`${SITE}/preview/post/${id}`);
    const token = url.searchParams.get('token')!;
    const answer = await previewRead(token);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as Json).title).toBe('Not out yet, revised');
    await saved(page);
    // The token is for the preview route only: the draft is still nowhere in the published content.
    expect((await server.fetch(`${CONTENT}/posts/${id}?key=${encodeURIComponent(contentKey)}`)).status).toBe(404);
    await publish.getByRole('link', { name: 'Open the preview again' }).waitFor();
    expect(await publish.getByRole('link', { name: 'Open the preview again' }).getAttribute('rel')).toContain(
      'noopener',
    );

    expect(await problemsOf('the publish panel')).toEqual([]);
    await shots('studio-preview', publish);

    // A post not saved yet has nothing on the server to preview.
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/new`);
    await page.getByRole('heading', { level: 1, name: 'New post' }).waitFor();
    expect(await previewButton.isDisabled()).toBe(true);
  }, 90_000);
});
