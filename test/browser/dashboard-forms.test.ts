import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { clipboardText, desktop, launchBrowser, settled, setUpOwner, SKIP_REASON } from './browser.js';

const OWNER = 'owner@example.com';
const suite = SKIP_REASON ? describe.skip : describe;

/** The texts an input's aria-describedby points at, in order: what a screen reader reads after its label. */
function description(input: Locator): Promise<string[]> {
  return input.evaluate((element) => {
    const el = element as unknown as {
      getAttribute(name: string): string | null;
      ownerDocument: { getElementById(id: string): { textContent: string | null } | null };
    };
    return (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '');
  });
}

/** Validator wording that must never reach a person. */
const RAW = /must match|anyOf|must be null|\/logoMediaId|must NOT/;

suite(`the dashboard's forms, the workspace slug and the favicon${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-browser-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let workspace: { id: string; slug: string };

  const open = async (path: string, heading: string) => {
    await page.goto(`${server.url}/dashboard${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await settled(page);
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    const context = await browser.newContext(desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Field Notes & Co');
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('says what is wrong with a refused setting on that field, in words, and names it in the alert', async () => {
    await open(`/w/${workspace.id}/settings`, 'Site settings');
    // The logo is picked from the media library (dashboard-media.test.ts), so it cannot be mistyped; a URL
    // pattern without {slug} is the field refused first here.
    const pattern = page.getByLabel('Post URL pattern');
    const siteUrl = page.getByLabel('Site URL');
    const alert = page.getByRole('alert');

    await pattern.fill('/blog/post');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Check Post URL pattern.');
    expect(await pattern.getAttribute('aria-invalid')).toBe('true');
    expect((await description(pattern)).at(-1)).toBe('Must contain {slug}, such as /blog/{slug}.');
    expect(await page.locator('main').textContent()).not.toMatch(RAW);

    // The next refusal is about another field: the first one's message goes, the new one's comes.
    await pattern.fill('/blog/{slug}');
    await siteUrl.fill('ftp://files.example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Check Site URL.').waitFor();
    expect(await pattern.getAttribute('aria-invalid')).toBeNull();
    expect((await description(siteUrl))[0]).toBe('Must be an absolute http or https URL.');
    expect(await page.locator('main').textContent()).not.toMatch(/siteUrl/);

    await siteUrl.fill('https://field-notes.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await siteUrl.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the workspace slug the CLI needs, with a button that copies it', async () => {
    await open(`/w/${workspace.id}/settings`, 'Site settings');
    const slug = page.getByLabel('Slug', { exact: true });
    expect(await slug.inputValue()).toBe(workspace.slug);
    expect(workspace.slug).toBe('field-notes-co');
    expect(await page.getByText(`npx quire key list --workspace ${workspace.slug}`).count()).toBe(1);
    await page.getByRole('button', { name: 'Copy the slug' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await clipboardText(page)).toBe(workspace.slug);
  });

  it('creating a key says it can be revealed later, and an expiry in the past is explained on its field', async () => {
    await open(`/w/${workspace.id}/keys`, 'API keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('Preview builds');
    await create.getByLabel('Expires (optional)').fill('2001-01-01T12:00');
    await create.getByRole('button', { name: 'Create key' }).click();
    await create.getByRole('alert').getByText('Check Expires.').waitFor();
    expect((await description(create.getByLabel('Expires (optional)')))[0]).toBe('Must be in the future.');

    await create.getByLabel('Expires (optional)').fill('');
    await create.getByRole('button', { name: 'Create key' }).click();
    const created = page.getByRole('dialog', { name: 'Key created' });
    await created.waitFor();
    const text = (await created.textContent()) ?? '';
    expect(text).not.toMatch(/not see this key again|only time/i);
    expect(text).toContain('While it is active, you can reveal it again from this list.');
    await created.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Reveal Preview builds' }).waitFor();
  });

  it('inviting says on the email field what is wrong with the address, or that it is a member already', async () => {
    await open(`/w/${workspace.id}/members`, 'Members');
    await page.getByRole('button', { name: 'Invite member' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a member' });
    const email = invite.getByLabel('Email', { exact: true });
    // The browser's own check lets this one through; the server's does not.
    await email.fill('someone@localhost');
    await invite.getByRole('button', { name: 'Create invitation' }).click();
    await invite.getByRole('alert').getByText('Check Email.').waitFor();
    expect((await description(email))[0]).toBe('"someone@localhost" is not an email address.');

    await email.fill(OWNER);
    await invite.getByRole('button', { name: 'Create invitation' }).click();
    await expect
      .poll(async () => (await description(email))[0])
      .toBe('This email belongs to a member of this workspace already.');
    expect(await invite.textContent()).not.toMatch(RAW);

    await email.fill('newcomer@example.com');
    await invite.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByRole('dialog', { name: 'Pass the link on' }).waitFor();
  });

  it('asks for nothing that is not there: no 404 while the dashboard loads, and its icon is served', async () => {
    const missing: string[] = [];
    const record = (response: { status(): number; url(): string }) => {
      if (response.status() === 404) missing.push(response.url());
    };
    page.on('response', record);
    try {
      for (const [path, heading] of [
        [`/w/${workspace.id}/keys`, 'API keys'],
        [`/w/${workspace.id}/settings`, 'Site settings'],
        ['/account', 'Account'],
      ] as const)
        await open(path, heading);
    } finally {
      page.off('response', record);
    }
    expect(missing).toEqual([]);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const served = await server.fetch(icon!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});
