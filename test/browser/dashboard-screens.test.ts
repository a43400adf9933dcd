import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { HOSTILE_TEXT, seedContent, type SeededContent } from './content.js';

const OWNER = 'editor@example.com';
const suite = SKIP_REASON ? describe.skip : describe;

interface Screen {
  name: string;
  /** Below /dashboard, with `:ws` for the workspace id and `:post` for the every-block post. */
  path: string;
  heading: string | RegExp;
  /** Brings up the part of the screen worth seeing (a dialog, the narrow menu) after it has loaded. */
  open?(page: Page): Promise<void>;
}

const SCREENS: Screen[] = [
  { name: 'keys', path: '/w/:ws/keys', heading: 'API keys' },
  {
    name: 'keys-create-dialog',
    path: '/w/:ws/keys',
    heading: 'API keys',
    open: (page) => page.getByRole('button', { name: 'Create key' }).click(),
  },
  { name: 'members', path: '/w/:ws/members', heading: 'Members' },
  {
    name: 'members-invite-dialog',
    path: '/w/:ws/members',
    heading: 'Members',
    open: (page) => page.getByRole('button', { name: 'Invite member' }).click(),
  },
  { name: 'settings', path: '/w/:ws/settings', heading: 'Site settings' },
  { name: 'account', path: '/account', heading: 'Account' },
  { name: 'posts', path: '/w/:ws/posts', heading: 'Posts' },
  { name: 'post', path: '/w/:ws/posts/:post', heading: 'Every block type' },
  { name: 'pages', path: '/w/:ws/pages', heading: 'Pages' },
  { name: 'media', path: '/w/:ws/media', heading: 'Media' },
  { name: 'authors', path: '/w/:ws/authors', heading: 'Authors' },
  { name: 'categories', path: '/w/:ws/categories', heading: 'Categories' },
  { name: 'tags', path: '/w/:ws/tags', heading: 'Tags' },
  { name: 'redirects', path: '/w/:ws/redirects', heading: 'Redirects' },
  { name: 'link-health', path: '/w/:ws/link-health', heading: 'Link health' },
  {
    name: 'workspace-dialog',
    path: '/w/:ws/keys',
    heading: 'API keys',
    open: (page) => page.getByRole('button', { name: 'New workspace' }).click(),
  },
  { name: 'not-found', path: '/no/such/screen', heading: 'Page not found' },
];

suite(
  `every dashboard screen at ${WIDTHS.join(' and ')} px: axe, no sideways scrolling, screenshots${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    const dir = tempDir('quire-browser-');
    const env = { QUIRE_DATA_DIR: dir.dataDir };
    let server: ServerProcess;
    let browser: Browser;
    // axe is injected as a script tag, which the dashboard's Content-Security-Policy would (rightly) block;
    // the CSP itself is exercised by the key-lifecycle suite, which does not bypass it.
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    let content: SeededContent;

    /** Looks at the page as it is at both widths; returns what is wrong rather than failing at the first. */
    async function inspect(name: string, load: (width: number) => Promise<void>): Promise<string[]> {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
        await load(width);
        await screenshot(page, `${name}-${width}`);
        if (!(await fitsWidth(page))) problems.push(`${name} at ${width}px scrolls sideways`);
        for (const v of await axeViolations(page))
          problems.push(`${name} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      }
      return problems;
    }

    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
      context = await browser.newContext({ ...desktop, bypassCSP: true });
      page = await context.newPage();
    });
    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
      dir.remove();
    });

    it('setup, then sign-in, as a first visitor sees them', { timeout: 60_000 }, async () => {
      const problems = await inspect('setup', async () => {
        await page.goto(`${server.url}/dashboard/setup`);
        await page.getByRole('heading', { name: 'Set up Quire' }).waitFor();
        await settled(page);
      });
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Workspace name').fill('The Daily Build');
      await page.getByRole('button', { name: 'Create owner and workspace' }).click();
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      workspaceId = /\/w\/([0-9a-f-]{36})\//.exec(page.url())![1]!;

      const anonymous = await browser.newContext({ ...desktop, bypassCSP: true });
      try {
        const visitor = await anonymous.newPage();
        const original = page;
        page = visitor;
        problems.push(
          ...(await inspect('sign-in', async () => {
            await page.goto(`${server.url}/dashboard/`);
            await page.getByRole('heading', { name: 'Sign in' }).waitFor();
            await settled(page);
          })),
        );
        page = original;
      } finally {
        await anonymous.close();
      }
      expect(problems).toEqual([]);

      const session = await pageFetch<{ workspaces: Array<{ slug: string }> }>(
        page,
        'GET',
        '/api/v1/dashboard/session',
      );
      const slug = session.body.workspaces[0]!.slug;
      content = await seedContent(server, env, slug, OWNER);
    });

    for (const screen of SCREENS) {
      it(`${screen.name}`, async () => {
        const path = screen.path.replace(':ws', workspaceId).replace(':post', content.everyBlockPostId);
        const problems = await inspect(screen.name, async () => {
          await page.goto(`${server.url}/dashboard${path}`);
          await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor();
          await settled(page);
          if (screen.open) {
            await screen.open(page);
            await page.getByRole('dialog').waitFor();
          }
        });
        expect(problems).toEqual([]);
      });
    }

    it('the narrow menu opens with the sections and closes on navigation', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${server.url}/dashboard/w/${workspaceId}/keys`);
      const toggle = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Sections' });
      expect(await nav.isVisible()).toBe(false);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await screenshot(page, 'menu-open-375');
      expect(await axeViolations(page)).toEqual([]);
      await nav.getByRole('link', { name: 'Tags' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tags' }).waitFor();
      expect(await nav.isVisible()).toBe(false);
      await page.setViewportSize({ width: 1440, height: 900 });
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
      expect(await nav.isVisible()).toBe(true);
    });

    it('says so when a list is not offered (404) or the server cannot be reached, and retries', async () => {
      await page.route('**/api/v1/dashboard/workspaces/*/redirects**', (route) =>
        route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'NOT_FOUND', message: 'Not found', details: null }),
        }),
      );
      await page.goto(`${server.url}/dashboard/w/${workspaceId}/redirects`);
      await page.getByRole('alert').getByText('This server does not offer this list to the dashboard yet.').waitFor();
      await page.unroute('**/api/v1/dashboard/workspaces/*/redirects**');

      await page.route('**/api/v1/dashboard/workspaces/*/tags**', (route) => route.abort('connectionrefused'));
      await page.goto(`${server.url}/dashboard/w/${workspaceId}/tags`);
      const alert = page.getByRole('alert');
      await alert.getByText('The server could not be reached.', { exact: false }).waitFor();
      await page.unroute('**/api/v1/dashboard/workspaces/*/tags**');
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.locator('tbody tr').first().waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    });

    it('says that v1 has no scheduling on a published post dated in the future', async () => {
      // Only rows stored before the API refused such dates can look like this: the answer is rewritten.
      const url = `${server.url}/dashboard/w/${workspaceId}/posts/${content.everyBlockPostId}`;
      const notice = page.getByRole('note', { name: 'Dated in the future' });
      await page.goto(url);
      await page.getByRole('region', { name: 'Body' }).waitFor();
      expect(await notice.count()).toBe(0);
      await page.route(`**/api/v1/dashboard/workspaces/*/posts/${content.everyBlockPostId}`, async (route) => {
        const response = await route.fetch();
        const post = (await response.json()) as Record<string, unknown>;
        await route.fulfill({
          response,
          json: { ...post, status: 'published', publishedAt: '2030-01-01T00:00:00.000Z' },
        });
      });
      try {
        await page.goto(url);
        await notice.waitFor();
        await screenshot(page, 'post-dated-later');
        expect(await notice.innerText()).toMatch(/yet it is live now: v1 has no scheduling/);
      } finally {
        await page.unrouteAll();
      }
    });

    it('renders all thirteen block types of a post, and stored markup only as text', async () => {
      await page.goto(`${server.url}/dashboard/w/${workspaceId}/posts/${content.everyBlockPostId}`);
      const body = page.getByRole('region', { name: 'Body' });
      // The renderer loads with the first post opened.
      await body.locator('.blocks').waitFor();
      const count = (selector: string) => body.locator(selector).count();
      const expected: Record<string, string> = {
        paragraph: '.blocks > p',
        heading: '.blocks > h2[id^="heading-"], .blocks > h3[id^="heading-"]',
        list: '.blocks > ul, .blocks > ol',
        image: 'figure.quire-image picture img[alt="A seeded picture"]',
        code: 'pre code.language-ts',
        quote: 'figure.quire-quote blockquote',
        divider: 'hr',
        callout: 'aside.quire-callout--warning[role="note"]',
        video_embed: 'figure.quire-embed--video[data-provider="youtube"] a[href^="https://www.youtube.com/"]',
        tweet_embed: 'figure.quire-embed--post a[href^="https://x.com/"]',
        faq: '.quire-faq details',
        cta: '.quire-cta a[href="https://example.com/subscribe"]',
        key_takeaways: 'aside.quire-takeaways li',
      };
      for (const [type, selector] of Object.entries(expected)) expect(await count(selector), type).toBeGreaterThan(0);
      expect(await count('.blocks > ul, .blocks > ol')).toBe(2);

      const first = body.locator('.blocks > p').first();
      expect(await first.innerText()).toBe('Plain <img src=x onerror="alert(1)"> with bold, code and a bad link.');
      expect(HOSTILE_TEXT).toContain('<img');
      expect(await first.locator('strong').innerText()).toBe('bold');
      expect(await first.locator('code').innerText()).toBe('code');
      expect(await first.locator('img, a').count()).toBe(0);
      expect(await body.locator('a[href^="javascript:"]').count()).toBe(0);
      expect(await body.locator('.quire-faq details p').textContent()).toBe('Yes, <b>quite</b>.');
      // Embeds load nothing until asked: no player, no script.
      expect(await count('iframe, script')).toBe(0);
      // The table of contents points at the headings.
      expect(
        await page.getByRole('navigation', { name: 'Table of contents' }).getByRole('link').allTextContents(),
      ).toEqual(['Getting started', 'Details']);
      expect(await body.locator('#heading-getting-started, #heading-details').count()).toBe(2);
      // A link in a body opens in a new tab: the dashboard stays where it was.
      await page.context().route('https://example.com/**', (route) => route.fulfill({ body: 'elsewhere' }));
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        body.getByRole('link', { name: 'Sign up' }).click(),
      ]);
      expect(popup.url()).toBe('https://example.com/subscribe');
      await popup.close();
      await page.context().unrouteAll();
      expect(page.url()).toBe(`${server.url}/dashboard/w/${workspaceId}/posts/${content.everyBlockPostId}`);
    });
  },
);
