import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults, Result } from 'axe-core';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { ROOT } from '../e2e/helpers.js';
import { services } from '../helpers/services.js';

/** Why the browser suites cannot run here, or null when they can; it goes into the skipped suite's title. */
export const SKIP_REASON = services.chromium
  ? null
  : 'SKIPPED: /usr/bin/chromium is absent (bash .ci/run installs it with apt-get)';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');
export const WIDTHS = [375, 1440] as const;
export const PASSWORD = 'correct horse battery staple';

/**
 * Debian's Chromium, never a downloaded one. Playwright gives every launch a fresh temporary profile
 * (it refuses --user-data-dir in args; that flag belongs to launchPersistentContext).
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: services.chromium!,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    timeout: 20_000,
  });
}

export const desktop: BrowserContextOptions = {
  viewport: { width: 1440, height: 900 },
  locale: 'en-GB',
  timezoneId: 'UTC',
};

/** Globals of the page, typed just enough for the evaluations below (the test program has no DOM lib). */
interface PageGlobals {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
  navigator: { clipboard: { readText(): Promise<string> } };
  axe: { run(context: unknown, options: object): Promise<AxeResults> };
}

/** The serious and critical axe violations of the page as it is now. */
export async function axeViolations(
  page: Page,
): Promise<Array<Pick<Result, 'id' | 'impact' | 'help'> & { targets: string[] }>> {
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.addScriptTag({ path: AXE_PATH });
  const results = await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return g.axe.run(g.document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

/** True when the page is no wider than the viewport: nothing scrolls sideways. */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as PageGlobals).document.documentElement;
    return root.scrollWidth <= root.clientWidth;
  });
}

export function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Waits until no loading indicator is left: every request of the screen has answered. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
        '.status-loading, [aria-busy="true"]',
      ),
  );
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/**
 * A fetch made by the page itself (its cookie, its origin), so the server sees exactly what the
 * dashboard would send; `csrf` adds the session's token the way the app does.
 */
export function pageFetch<T = Record<string, unknown>>(
  page: Page,
  method: string,
  url: string,
  options: { body?: unknown; csrf?: boolean } = {},
): Promise<JsonResponse<T>> {
  return page.evaluate(
    async ({ method, url, body, csrf }) => {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (csrf) {
        const session = (await (await fetch('/api/v1/dashboard/session')).json()) as { csrfToken: string };
        headers['X-CSRF-Token'] = session.csrfToken;
      }
      const response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    },
    { method, url, body: options.body, csrf: options.csrf ?? false },
  );
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('main h1').filter({ hasNotText: 'Sign in' }).waitFor();
}

interface FocusNode {
  ownerDocument: { activeElement: unknown };
  contains(other: unknown): boolean;
}

/** Whether the element itself has the keyboard focus. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => (el as unknown as FocusNode).ownerDocument.activeElement === el);
}

/** Whether the focus is on the element or anywhere inside it. */
export function holdsFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const node = el as unknown as FocusNode;
    return node.contains(node.ownerDocument.activeElement);
  });
}

/** First-run setup through the UI; resolves to the new workspace's id and slug once the app shows it. */
export async function setUpOwner(
  page: Page,
  baseUrl: string,
  email: string,
  workspaceName: string,
): Promise<{ id: string; slug: string }> {
  await page.goto(`${baseUrl}/dashboard/setup`);
  await page.getByRole('heading', { name: 'Set up Quire' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Workspace name').fill(workspaceName);
  await page.getByRole('button', { name: 'Create owner and workspace' }).click();
  await page
    .getByRole('heading', { level: 1, name: 'Posts' })
    .waitFor()
    .catch(async (error: unknown) => {
      // Say what the page showed instead, so a failure on a busy CI machine can be read from its log.
      const headings = await page.getByRole('heading').allTextContents();
      const alerts = await page.getByRole('alert').allTextContents();
      throw new Error(
        `no Posts screen after setup at ${page.url()}: headings ${JSON.stringify(headings)}, alerts ${JSON.stringify(alerts)}`,
        { cause: error },
      );
    });
  const session = await pageFetch<{ workspaces: Array<{ id: string; slug: string }> }>(
    page,
    'GET',
    '/api/v1/dashboard/session',
  );
  return session.body.workspaces[0]!;
}

/** DOM pieces the layout checks below read, typed just enough (the test program has no DOM lib). */
interface LayoutNode {
  ownerDocument: {
    createTreeWalker(root: unknown, show: number): { nextNode(): { textContent: string | null } | null };
    createRange(): {
      setStart(node: unknown, offset: number): void;
      setEnd(node: unknown, offset: number): void;
      getClientRects(): ArrayLike<{ top: number; width: number }>;
    };
  };
}

/**
 * The words of the element's text that the layout split across lines ("Dashb|oard"). Words are runs of
 * letters and digits: a break after a hyphen, a dot or an @ is a break between words.
 */
export function wordsBrokenAcrossLines(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const node = element as unknown as LayoutNode;
    const document = node.ownerDocument;
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const value = text.textContent ?? '';
      for (const match of value.matchAll(/[\p{L}\p{N}]+/gu)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const tops = new Set(
          Array.from(range.getClientRects())
            .filter((rect) => rect.width > 0)
            .map((rect) => Math.round(rect.top)),
        );
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/** The distinct rounded tops of the elements: one value when they sit on one line. */
export async function lineTops(locator: Locator): Promise<number[]> {
  const tops = await locator.evaluateAll((elements) =>
    elements.map((element) =>
      Math.round((element as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top),
    ),
  );
  return [...new Set(tops)];
}
