import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { EXTERNAL, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  pageFetch,
  screenshot,
  PASSWORD,
  settled,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';

const OWNER = 'owner@example.com';
const READER = 'reader@example.com';
/** A 1×1 PNG, for the avatar uploaded through the media picker. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** Validator wording that must never reach a person. */
const RAW = /must match|anyOf|must be null|must NOT|\/sameAs|\/parentId|toPath|fromPath|descendant/;
const suite = SKIP_REASON ? describe.skip : describe;

suite(
  `the dashboard's library: authors, categories, tags, redirects and link health managed in Chromium${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  // Each test drives several dialogs through the real server; a machine busy with other suites slows them all.
  { timeout: 90_000 },
  () => {
    const dir = tempDir('quire-browser-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    let server: ServerProcess;
    let browser: Browser;
    // axe is injected as a script tag, which the dashboard's Content-Security-Policy would (rightly) block.
    let context: BrowserContext;
    let page: Page;
    let workspace: { id: string; slug: string };
    let key: string;

    const open = async (section: string, heading: string) => {
      await page.goto(`${server.url}/dashboard/w/${workspace.id}/${section}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settled(page);
    };
    /** The external API with the owner's key, as a site would call it. */
    const external = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
      const response = await server.fetch(`${EXTERNAL}${path}`, {
        method,
        headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as T };
    };
    const row = (text: string) => page.locator('tbody tr', { hasText: text });
    const status = () => page.locator('main p[role="status"]').textContent();
    /** What the page says about a field: its error message, tied to it by aria-describedby. */
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
    const noViolations = async (what: string) => {
      const found = await axeViolations(page);
      expect(found, what).toEqual([]);
    };

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      context = await browser.newContext({ ...desktop, bypassCSP: true });
      page = await context.newPage();
      workspace = await setUpOwner(page, server.url, OWNER, 'Field Guide');
      const created = await pageFetch<{ key: string }>(
        page,
        'POST',
        `/api/v1/dashboard/workspaces/${workspace.id}/api-keys`,
        { body: { name: 'Site', expiresAt: null }, csrf: true },
      );
      key = created.body.key;
      // A site reporting its broken links: the 404 gets "Create redirect", the 410 (gone on purpose) does not.
      for (const report of [
        { path: '/old-pricing', statusCode: 404 },
        { path: '/old-pricing', statusCode: 404 },
        { path: '/retired-offer', statusCode: 410 },
      ])
        expect((await external('POST', '/link-health', report)).status).toBe(200);
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('creates an author with an avatar from the media picker, edits and deletes them; "used by" while on a post', async () => {
      await open('authors', 'Authors');
      await page.getByText('No authors yet.').waitFor();
      await page.getByRole('button', { name: 'Add author' }).click();
      const form = page.getByRole('dialog', { name: 'Add an author' });
      await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
      await form.getByLabel('Bio').fill('Wrote the first program.');
      await form.getByLabel('Profiles elsewhere').fill('https://example.com/ada\nnot an address');
      await form.getByText('Person details (for search engines)').click();
      await form.getByLabel('Job title').fill('Mathematician');
      await form.getByText('Search engines (SEO)').click();
      // The SEO editor the studio has: social sharing is a closed group of its own while nothing in it is set.
      const sharing = form.locator('details.seo-section', { hasText: 'Social sharing' });
      expect(await sharing.getAttribute('open')).toBeNull();
      await sharing.locator('summary').click();
      await sharing.getByLabel('Title when shared', { exact: true }).fill('Ada, the first programmer');

      await form.getByRole('button', { name: 'Choose avatar' }).click();
      const picker = page.getByRole('dialog', { name: 'Choose an image' });
      await picker.getByLabel('Upload').setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: PNG });
      await picker.waitFor({ state: 'detached' });
      await form.getByRole('img', { name: 'ada.png' }).waitFor();

      // The second line is no address: the refusal is on the field, by its line, in words.
      await form.getByRole('button', { name: 'Add author' }).click();
      await form.getByRole('alert').getByText('Check Profiles elsewhere.').waitFor();
      const sameAs = form.getByLabel('Profiles elsewhere');
      expect(await sameAs.getAttribute('aria-invalid')).toBe('true');
      expect(await described(sameAs)).toContain('Line 2: Enter a full address, starting with https://');
      expect(await form.textContent()).not.toMatch(RAW);
      await noViolations('the author form with a refused value');
      await screenshot(page, 'library-author-form-1440');

      await sameAs.fill('https://example.com/ada');
      await form.getByRole('button', { name: 'Add author' }).click();
      await form.waitFor({ state: 'detached' });
      await settled(page);
      expect(await status()).toBe('Author “Ada Lovelace” added.');
      expect(await row('Ada Lovelace').locator('[data-label="Slug"]').textContent()).toBe('ada-lovelace');
      const authors = await external<{ data: Array<Record<string, unknown>> }>('GET', '/authors');
      const ada = authors.body.data[0]!;
      expect(ada).toMatchObject({
        displayName: 'Ada Lovelace',
        bio: 'Wrote the first program.',
        sameAs: ['https://example.com/ada'],
        person: { jobTitle: 'Mathematician' },
        seo: { og: { title: 'Ada, the first programmer' } },
        avatarMedia: { filename: 'ada.png' },
      });

      await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit author “Ada Lovelace”' });
      await edit.getByLabel('Name', { exact: true }).fill('Augusta Ada King');
      await edit.getByLabel('Active').uncheck();
      await edit.getByRole('button', { name: 'Save author' }).click();
      await edit.waitFor({ state: 'detached' });
      await settled(page);
      const renamed = row('Augusta Ada King');
      expect(await renamed.locator('[data-label="Status"]').textContent()).toBe('Inactive');
      // A new name keeps the slug, so the author's published address stays put.
      expect(await renamed.locator('[data-label="Slug"]').textContent()).toBe('ada-lovelace');
      await page.getByRole('radio', { name: 'Active', exact: true }).check();
      await page.getByText('No authors match.').waitFor();
      await page.getByRole('radio', { name: 'Inactive' }).check();
      await renamed.waitFor();
      expect(new URL(page.url()).searchParams.get('active')).toBe('false');
      await page.getByRole('radio', { name: 'All' }).check();
      await settled(page);

      const post = await external<{ id: string }>('POST', '/posts', {
        title: 'Notes on the engine',
        authorId: ada.id,
      });
      expect(post.status).toBe(201);
      await page.getByRole('button', { name: 'Delete Augusta Ada King' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete author “Augusta Ada King”?' });
      await confirm.getByRole('button', { name: 'Delete author' }).click();
      const refusal = confirm.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('Used by 1 post. An author cannot be deleted while posts');
      expect(await confirm.getByRole('link', { name: 'See the posts by Augusta Ada King' }).getAttribute('href')).toBe(
        `/dashboard/w/${workspace.id}/posts?authorId=${ada.id}`,
      );
      await noViolations('the refused delete');
      await confirm.getByRole('button', { name: 'Cancel' }).click();

      expect((await external('DELETE', `/posts/${post.body.id}`)).status).toBe(200);
      await page.getByRole('button', { name: 'Delete Augusta Ada King' }).click();
      await confirm.getByRole('button', { name: 'Delete author' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText('No authors yet.').waitFor();
      expect(await status()).toBe('Author “Augusta Ada King” deleted.');
    });

    it('builds the category tree, moves a category under another, and says why a move that makes a loop is refused', async () => {
      await open('categories', 'Categories');
      for (const name of ['News', 'Technology', 'World']) {
        await page.getByRole('button', { name: 'Add category' }).click();
        const form = page.getByRole('dialog', { name: 'Add a category' });
        await form.getByLabel('Name', { exact: true }).fill(name);
        await form.getByRole('button', { name: 'Add category' }).click();
        await form.waitFor({ state: 'detached' });
        await settled(page);
      }
      await page.getByRole('button', { name: 'Move Technology' }).click();
      const move = page.getByRole('dialog', { name: 'Move “Technology”' });
      await move.getByLabel('New parent').selectOption({ label: 'News (/news)' });
      await move.getByRole('button', { name: 'Move category' }).click();
      await move.waitFor({ state: 'detached' });
      await settled(page);
      expect(await status()).toBe('“Technology” moved: its path is now /news/technology.');
      // Technology is drawn inside News's branch.
      const news = page.locator('.tree li', { has: page.getByText('/news', { exact: true }) });
      await news.getByText('/news/technology').waitFor();

      // News is about to go under World while, elsewhere, World is moved under News: the server refuses the loop.
      await page.getByRole('button', { name: 'Move News' }).click();
      const loop = page.getByRole('dialog', { name: 'Move “News”' });
      const options = await loop.getByLabel('New parent').locator('option').allTextContents();
      expect(options).toEqual(['None: a top-level category', 'World (/world)']);
      await loop.getByLabel('New parent').selectOption({ label: 'World (/world)' });
      const categories = await external<{ data: Array<{ id: string; name: string }> }>('GET', '/categories');
      const id = (name: string) => categories.body.data.find((c) => c.name === name)!.id;
      expect((await external('PATCH', `/categories/${id('World')}`, { parentId: id('News') })).status).toBe(200);
      await loop.getByRole('button', { name: 'Move category' }).click();
      await loop.getByRole('alert').getByText('Check New parent.').waitFor();
      const parent = loop.getByLabel('New parent');
      expect(await parent.getAttribute('aria-invalid')).toBe('true');
      expect(await described(parent)).toContain(
        '“World” is inside “News” (it may have been moved there since this page was loaded), so “News” cannot go under it: a category cannot sit inside itself.',
      );
      expect(await loop.textContent()).not.toMatch(RAW);
      await noViolations('the refused move');
      await screenshot(page, 'library-category-loop-1440');
      await loop.getByRole('button', { name: 'Cancel' }).click();

      // A category with a subcategory is not deleted; the dialog says what to do first.
      await page.reload();
      await settled(page);
      await page.getByRole('button', { name: 'Delete News' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete category “News”?' });
      await remove.getByRole('button', { name: 'Delete category' }).click();
      await remove.getByRole('alert').getByText('“News” still has 2 subcategories.').waitFor();
      await remove.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Delete World' }).click();
      await page
        .getByRole('dialog', { name: 'Delete category “World”?' })
        .getByRole('button', { name: 'Delete category' })
        .click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await settled(page);
      expect(await page.locator('.tree').textContent()).not.toContain('World');
    });

    it('creates a tag from the keyboard, renames it, and says what deleting does to its posts', async () => {
      await open('tags', 'Tags');
      await page.getByRole('button', { name: 'Add tag' }).focus();
      await page.keyboard.press('Enter');
      const form = page.getByRole('dialog', { name: 'Add a tag' });
      await form.getByLabel('Name', { exact: true }).waitFor();
      // The name field has the focus; Enter submits the form.
      await page.keyboard.type('Release notes');
      await page.keyboard.press('Enter');
      await form.waitFor({ state: 'detached' });
      await settled(page);
      expect(await row('Release notes').locator('[data-label="Slug"]').textContent()).toBe('release-notes');

      const tags = await external<{ data: Array<{ id: string }> }>('GET', '/tags');
      const tagId = tags.body.data[0]!.id;
      const post = await external<{ id: string }>('POST', '/posts', { title: 'Version 2' });
      expect((await external('POST', `/posts/${post.body.id}/tags`, { tagIds: [tagId] })).status).toBe(200);

      await page.getByRole('button', { name: 'Rename Release notes' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename tag “Release notes”' });
      await rename.getByLabel('Name', { exact: true }).fill('Releases');
      await rename.getByRole('button', { name: 'Save tag' }).click();
      await rename.waitFor({ state: 'detached' });
      await settled(page);
      expect(await status()).toBe('Tag saved as “Releases”.');

      // What the form does not show of a stored SEO object (Open Graph, set through the API) survives an edit.
      const og = { og: { title: 'Releases, on social media' } };
      expect((await external('PATCH', `/tags/${tagId}`, { seo: og })).status).toBe(200);
      await page.reload();
      await settled(page);
      await page.getByRole('button', { name: 'Rename Releases' }).click();
      const seo = page.getByRole('dialog', { name: 'Rename tag “Releases”' });
      await seo.getByText('Search engines (SEO)').click();
      // A refused SEO value: its JSON Pointer lands on the editor's field, named in the summary.
      const canonical = seo.getByLabel('Canonical address', { exact: true });
      await canonical.fill('not an address');
      await seo.getByRole('button', { name: 'Save tag' }).click();
      await seo.getByRole('alert').getByText('Check Canonical address.').waitFor();
      expect(await canonical.getAttribute('aria-invalid')).toBe('true');
      expect(await seo.textContent()).not.toMatch(RAW);
      await canonical.fill('');
      await seo.getByLabel('SEO title').fill('Release notes from the team');
      await seo.getByRole('button', { name: 'Save tag' }).click();
      await seo.waitFor({ state: 'detached' });
      const stored = await external<{ seo: unknown }>('GET', `/tags/${tagId}`);
      expect(stored.body.seo).toEqual({ ...og, title: 'Release notes from the team' });

      await page.getByRole('button', { name: 'Delete Releases' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete tag “Releases”?' });
      await expect
        .poll(() => remove.textContent())
        .toContain('Deleting the tag removes it from the one post that carries it.');
      await noViolations('the delete-tag dialog');
      await remove.getByRole('button', { name: 'Delete tag' }).click();
      await remove.waitFor({ state: 'detached' });
      await page.getByText('No tags yet.').waitFor();
      const after = await external<{ tags: unknown[]; title: string }>('GET', `/posts/${post.body.id}`);
      expect(after.body).toMatchObject({ title: 'Version 2', tags: [] });
    });

    it('creates, edits and deletes redirects, and explains a duplicate, a loop and a chain in words', async () => {
      await open('redirects', 'Redirects');
      const create = async (from: string, to: string) => {
        await page.getByRole('button', { name: 'Create redirect' }).click();
        const form = page.getByRole('dialog', { name: 'Create a redirect' });
        await form.getByLabel('From').fill(from);
        await form.getByLabel('To').fill(to);
        await form.getByRole('button', { name: 'Create redirect' }).click();
        return form;
      };
      await (await create('/old-blog', '/blog')).waitFor({ state: 'detached' });
      await settled(page);
      expect(await status()).toBe('Redirect saved: /old-blog → /blog.');

      const duplicate = await create('/old-blog', '/elsewhere');
      await duplicate.getByRole('alert').getByText('Check From.').waitFor();
      expect(await described(duplicate.getByLabel('From'))).toContain(
        'Another redirect already starts from /old-blog. Edit that one instead, or choose another path.',
      );
      await duplicate.getByRole('button', { name: 'Cancel' }).click();

      const loop = await create('/blog', '/old-blog');
      await loop.getByRole('alert').getByText('Check To.').waitFor();
      const to = loop.getByLabel('To');
      expect(await described(to)).toContain(
        'Visitors would go round in a circle and never arrive: /blog → /old-blog → /blog.',
      );
      expect(await loop.textContent()).not.toMatch(RAW);
      await noViolations('the refused loop');
      await screenshot(page, 'library-redirect-loop-1440');

      // A target that is itself redirected: allowed, and the form says what it costs.
      await loop.getByLabel('From').fill('/2019/blog');
      await to.fill('/old-blog');
      await loop
        .getByText('/old-blog is itself redirected, so visitors would follow 2 redirects in a row to reach /blog.', {
          exact: false,
        })
        .waitFor();
      await loop.getByRole('button', { name: 'Create redirect' }).click();
      await loop.waitFor({ state: 'detached' });
      await settled(page);

      await page.getByRole('button', { name: 'Edit redirect from /2019/blog' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit redirect from /2019/blog' });
      await edit.getByLabel('To').fill('/blog');
      await edit.getByLabel('Kind').selectOption('302');
      await edit.getByRole('button', { name: 'Save redirect' }).click();
      await edit.waitFor({ state: 'detached' });
      await settled(page);
      expect(await row('/2019/blog').locator('[data-label="To"]').textContent()).toBe('/blog');
      expect(await row('/2019/blog').locator('[data-label="Kind"]').textContent()).toBe('302 · For now');

      await page.getByRole('button', { name: 'Delete redirect from /2019/blog' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete redirect' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await settled(page);
      expect(await row('/2019/blog').count()).toBe(0);
      const left = await external<{ data: Array<{ fromPath: string }> }>('GET', '/redirects');
      expect(left.body.data.map((r) => r.fromPath)).toEqual(['/old-blog']);
    });

    it('turns a 404 in link health into a redirect, with its path filled in', async () => {
      await open('link-health', 'Link health');
      expect(await row('/retired-offer').getByRole('button').count()).toBe(0);
      await row('/old-pricing').getByRole('button', { name: 'Create redirect from /old-pricing' }).click();
      const form = page.getByRole('dialog', { name: 'Create a redirect' });
      expect(await form.getByLabel('From').inputValue()).toBe('/old-pricing');
      await form.getByLabel('To').fill('/pricing');
      await noViolations('the redirect form from link health');
      await form.getByRole('button', { name: 'Create redirect' }).click();
      await form.waitFor({ state: 'detached' });
      expect(await status()).toBe('Redirect created: visitors to /old-pricing now go to /pricing.');
      const resolved = await external<{ finalPath: string }>('GET', '/redirects/resolve?path=/old-pricing');
      expect(resolved).toEqual({ status: 200, body: expect.objectContaining({ finalPath: '/pricing' }) });
    });

    it('shows no write controls to a member who may only read', async () => {
      // This server sends no mail: the invitation's answer holds its link, whose fragment is the token.
      const invited = await pageFetch<{ link: string }>(
        page,
        'POST',
        `/api/v1/dashboard/workspaces/${workspace.id}/invitations`,
        {
          body: {
            email: READER,
            permissions: ['authors:read', 'categories:read', 'tags:read', 'redirects:read', 'link-health:read'],
          },
          csrf: true,
        },
      );
      expect(invited.status).toBe(201);
      const token = invited.body.link.split('#')[1];
      const readerContext = await browser.newContext(desktop);
      try {
        const reader = await readerContext.newPage();
        // Accepting signs the reader in, in their own browser.
        await reader.goto(`${server.url}/dashboard/sign-in`);
        await reader.getByRole('heading', { name: 'Sign in' }).waitFor();
        const accepted = await pageFetch(reader, 'POST', '/api/v1/dashboard/invitations/accept', {
          body: { token, password: PASSWORD },
        });
        expect(accepted.status).toBe(200);
        for (const [section, heading] of [
          ['redirects', 'Redirects'],
          ['categories', 'Categories'],
          ['link-health', 'Link health'],
        ]) {
          await reader.goto(`${server.url}/dashboard/w/${workspace.id}/${section}`);
          await reader.getByRole('heading', { level: 1, name: heading }).waitFor();
          await settled(reader);
          expect(
            await reader
              .locator('main')
              .getByRole('button', { name: /Create|Add|Edit|Move|Delete/ })
              .count(),
          ).toBe(0);
        }
        // The rows are there all the same: the owner's redirect and category.
        await reader.goto(`${server.url}/dashboard/w/${workspace.id}/redirects`);
        await reader.locator('tbody tr', { hasText: '/old-blog' }).waitFor();
      } finally {
        await readerContext.close();
      }
    });

    it(
      'passes axe on every library screen at 375 and 1440 px, without sideways scrolling',
      { timeout: 180_000 },
      async () => {
        const problems: string[] = [];
        for (const [section, heading] of [
          ['authors', 'Authors'],
          ['categories', 'Categories'],
          ['tags', 'Tags'],
          ['redirects', 'Redirects'],
          ['link-health', 'Link health'],
        ] as const) {
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
            await open(section, heading);
            await screenshot(page, `library-${section}-${width}`);
            if (!(await fitsWidth(page))) problems.push(`${section} at ${width}px scrolls sideways`);
            for (const v of await axeViolations(page))
              problems.push(`${section} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
          }
        }
        // The longest form, open on a phone.
        await page.setViewportSize({ width: 375, height: 812 });
        await open('authors', 'Authors');
        await page.getByRole('button', { name: 'Add author' }).click();
        await page.getByRole('dialog', { name: 'Add an author' }).waitFor();
        await screenshot(page, 'library-author-form-375');
        for (const v of await axeViolations(page)) problems.push(`author form at 375px: ${v.impact} ${v.id}`);
        expect(problems).toEqual([]);
      },
    );
  },
);
