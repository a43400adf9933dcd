import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cliJson, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { png } from '../helpers/media.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  PASSWORD,
  screenshot,
  setUpOwner,
  signIn,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';

const OWNER = 'importer@example.com';
const MEMBER = 'writer@example.com';

/** A zipped Markdown folder, as someone zips their Hugo content: two posts, one with an image and a table. */
function siteZip(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const files: Record<string, string | Buffer> = {
    'content/posts/first.md': [
      '---',
      'title: "First light 🌅"',
      'date: 2024-03-01T09:00:00Z',
      'tags: [Field notes]',
      '---',
      '',
      'Morning on the hill. ![The ridge](../images/ridge.png)',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
    ].join('\n'),
    'content/posts/second.md': ['---', 'title: "מדבר — Desert notes"', 'date: 2024-03-02', '---', '', 'Sand.', ''].join(
      '\n',
    ),
    'content/images/ridge.png': png(16, 9),
  };
  for (const [name, data] of Object.entries(files)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((done, fail) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => done(Buffer.concat(chunks)));
    zip.outputStream.on('error', fail);
  });
}

const suite = SKIP_REASON ? describe.skip : describe;

suite(`the dashboard's Import screen in Chromium${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-browser-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workspace: { id: string; slug: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    // bypassCSP: axe is injected as a script tag, which the dashboard's CSP (self only) would refuse.
    context = await browser.newContext({ ...desktop, bypassCSP: true });
    page = await context.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Hill Notes');
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('the owner checks a Markdown zip, reads the report, imports it and sees the posts count', async () => {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    await page.getByRole('radio', { name: 'Markdown folder' }).check();
    expect(await page.getByRole('button', { name: 'Check' }).isDisabled()).toBe(true);
    await page
      .getByLabel('File to import')
      .setInputFiles({ name: 'hill-notes.zip', mimeType: 'application/zip', buffer: await siteZip() });
    const importButton = page.getByRole('button', { name: /^Import(ing…)?$/ });
    expect(await importButton.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('Check finished. Nothing was written.').waitFor();
    const counts = page.getByRole('table', { name: 'Counts by type' });
    expect(await counts.getByRole('row', { name: /Posts/ }).textContent()).toContain('2');
    await counts.getByRole('columnheader', { name: 'To create' }).waitFor();
    // The table became paragraphs: the post says so, and its notes open on demand.
    const noted = page.locator('details.import-item', { hasText: 'First light 🌅' });
    await noted.locator('summary').click();
    await noted.getByText('Kept in part').or(noted.getByText('Not kept')).first().waitFor();
    expect(await noted.textContent()).toContain('table');
    expect(await importButton.isDisabled()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth(page), `fits ${width} px`).toBe(true);
      await screenshot(page, `imports-dry-run-${width}`);
    }
    await page.setViewportSize(desktop.viewport!);

    // Held back a moment on its way, so the bar is seen before the answer comes.
    await page.route('**/imports', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await importButton.click();
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    expect(await bar.getAttribute('aria-valuemax')).not.toBeNull();
    expect(await importButton.textContent()).toBe('Importing…');
    await page.getByText('Import finished: 2 posts created.').waitFor();
    await page.unroute('**/imports');
    expect(await page.getByRole('progressbar').count()).toBe(0);
    await page.getByRole('table', { name: 'Counts by type' }).getByRole('columnheader', { name: 'Created' }).waitFor();
    expect(await importButton.isDisabled()).toBe(true);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth(page), `fits ${width} px`).toBe(true);
      await screenshot(page, `imports-done-${width}`);
    }
    await page.setViewportSize(desktop.viewport!);

    await page.getByRole('link', { name: 'See the posts' }).click();
    await page.getByRole('link', { name: 'First light 🌅' }).waitFor();
    await page.getByRole('link', { name: 'מדבר — Desert notes' }).waitFor();
  });

  it('says plainly why a file cannot be imported', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/imports`);
    await page.getByRole('radio', { name: 'WordPress' }).check();
    await page
      .getByLabel('File to import')
      .setInputFiles({ name: 'export.xml', mimeType: 'text/xml', buffer: Buffer.from('not xml') });
    await page.getByRole('button', { name: 'Check' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The check failed');
    expect(await alert.textContent()).toContain('export.xml');
    // The server's scratch folder is no business of the person's.
    expect(await alert.textContent()).not.toContain('quire-import-');
    expect(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await fitsWidth(page), `fits ${width} px`).toBe(true);
      await screenshot(page, `imports-error-${width}`);
    }
  });

  it('a member who is not the owner does not see Import', async () => {
    await cliJson(['user', 'create', '--email', MEMBER, '--password-stdin'], env, `${PASSWORD}\n`);
    await cliJson(
      [
        'member',
        'add',
        '--workspace',
        workspace.slug,
        '--email',
        MEMBER,
        '--permissions',
        'posts:read,posts:write,media:read,media:write',
      ],
      env,
    );
    const member = await (await browser.newContext(desktop)).newPage();
    await signIn(member, server.url, MEMBER, PASSWORD);
    const nav = member.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Posts' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Import' }).count()).toBe(0);
    await member.goto(`${server.url}/dashboard/w/${workspace.id}/imports`);
    await member.getByText('Only the workspace owner can import content.').waitFor();
    await member.context().close();
  });
});
