import type { Locator, Page } from 'playwright-core';
import { pageFetch, settled } from './browser.js';

/** The dashboard's API under the workspace, called by the page itself (its session, its CSRF token). */
export function workspaceApi(page: Page, workspaceId: string) {
  const at = (path: string) => `/api/v1/dashboard/workspaces/${workspaceId}${path}`;
  return {
    get: <T = Record<string, unknown>>(path: string) => pageFetch<T>(page, 'GET', at(path)),
    post: <T = Record<string, unknown>>(path: string, body: unknown) =>
      pageFetch<T>(page, 'POST', at(path), { body, csrf: true }),
    patch: <T = Record<string, unknown>>(path: string, body: unknown) =>
      pageFetch<T>(page, 'PATCH', at(path), { body, csrf: true }),
  };
}

/** Waits for the save status line to say the editor's copy is saved. */
export async function saved(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved / })
    .waitFor({ timeout: 15_000 });
  await settled(page);
}

/** Presses Tab until the focused element's accessible text matches, as a keyboard user would look for it. */
export async function tabTo(page: Page, name: RegExp, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: Record<string, unknown> | null } }).document
        .activeElement as unknown as {
        getAttribute(n: string): string | null;
        textContent: string | null;
        labels?: ArrayLike<{ textContent: string | null }>;
      } | null;
      if (!el) return '';
      const labelled = el.labels && el.labels.length > 0 ? el.labels[0]!.textContent : null;
      return (el.getAttribute('aria-label') ?? labelled ?? el.textContent ?? '').trim();
    });
    if (name.test(label)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

/** The writing surface: the body's editable document. */
export function body(page: Page): Locator {
  return page.locator('.ProseMirror.document[contenteditable="true"]');
}

/** The first card of a block type in the body (image, callout, faq…). */
export function bodyBlock(page: Page, type: string): Locator {
  return body(page).locator(`.card[data-block-type="${type}"]`).first();
}

/** Turns the empty paragraph at the cursor into a block through the "/" menu, typed as a writer does. */
export async function slash(page: Page, label: string): Promise<void> {
  await page.keyboard.type(`/${label.toLowerCase().split(' ')[0]}`);
  const menu = page.getByRole('group', { name: 'Block types' });
  await menu
    .getByRole('button', { name: label, exact: true })
    .waitFor({ timeout: 20_000 })
    .catch(async (error: Error) => {
      // Where the keys went instead, for a failure seen only on a loaded machine.
      throw new Error(`the "/" menu never offered ${label}; ${await whereKeysGo(page)}`, { cause: error });
    });
  // The menu's first match is the one Enter takes; arrows reach the others.
  const names = await menu.getByRole('button').allTextContents();
  for (let i = 0; i < names.indexOf(label); i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** What has the focus and what the document holds around the caret, for a failure's message. */
async function whereKeysGo(page: Page): Promise<string> {
  return page.evaluate(() => {
    type Element = { outerHTML: string; textContent: string };
    const g = globalThis as unknown as {
      document: { activeElement: Element | null; querySelector(s: string): Element | null };
      getSelection(): { anchorNode: { textContent: string | null } | null } | null;
    };
    const focused = g.document.activeElement?.outerHTML.slice(0, 300) ?? 'nothing';
    const selection = g.getSelection();
    const atCaret = selection?.anchorNode?.textContent?.slice(0, 120) ?? '';
    const text = g.document.querySelector('.ProseMirror.document')?.textContent.slice(-300) ?? '';
    return `focused: ${focused}; at the caret: ${JSON.stringify(atCaret)}; the body ends: ${JSON.stringify(text)}`;
  });
}

/** A paste as the browser delivers it, of the given clipboard types (the test program has no DOM lib). */
export async function pasteInto(target: Locator, data: Record<string, string>): Promise<void> {
  await target.evaluate((el, entries) => {
    const g = globalThis as unknown as Record<string, new (...args: unknown[]) => Record<string, unknown>>;
    const transfer = new g.DataTransfer!() as unknown as { setData(t: string, v: string): void };
    for (const [type, value] of Object.entries(entries)) transfer.setData(type, value);
    const event = new g.ClipboardEvent!('paste', { clipboardData: transfer, bubbles: true, cancelable: true });
    (el as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(event);
  }, data);
}

/** Puts the caret at the end of an element's text, as a click after its last word would (End stops at a wrap). */
export async function caretAtEnd(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    const doc = (el as unknown as { ownerDocument: Record<string, () => Record<string, (...a: unknown[]) => void>> })
      .ownerDocument;
    const range = doc.createRange!();
    range.selectNodeContents!(el);
    range.collapse!(false);
    const selection = (
      globalThis as unknown as { getSelection(): Record<string, (...a: unknown[]) => void> }
    ).getSelection();
    selection.removeAllRanges!();
    selection.addRange!(range);
  });
}
