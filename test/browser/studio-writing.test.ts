import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EXTERNAL, startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { png } from '../helpers/media.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  screenshot,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { body, bodyBlock, caretAtEnd, saved, slash, workspaceApi } from './studio-helpers.js';

const OWNER = 'typist@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;

type Json = Record<string, unknown>;

suite(`the writing surface: typed, formatted, every block, undo${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-writing-');
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let workspace: { id: string; slug: string };
  let key: string;

  const external = async (path: string): Promise<Json> => {
    const response = await server.fetch(`${EXTERNAL}${path}`, { headers: { 'X-API-Key': key } });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };
  const idFromUrl = () => page.url().match(/posts\/([0-9a-f-]{36})\/edit/)?.[1];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
    page = await (await browser.newContext({ ...desktop, bypassCSP: true })).newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Typing Times');
    key = (await workspaceApi(page, workspace.id).post('/api-keys', { name: 'Reader' })).body.key as string;
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('writes a whole post by typing and shortcuts, every block type, and the API answers exactly that body', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/new`);
    await page.getByLabel('Title', { exact: true }).fill('Typed from end to end');
    await body(page).click();
    const k = page.keyboard;
    await k.type('Studio ');
    await k.press('Control+b');
    await k.type('first');
    await k.press('Control+b');
    await k.type(' words, *typed* and `coded`.');
    await k.press('Enter');
    await k.type('### A fresh section');
    await k.press('Enter');
    await k.type('1. One');
    await k.press('Enter');
    await k.type('Two');
    await k.press('Enter');
    await k.press('Enter');
    await k.type('- Bullet with a ');
    // A link: the text selected, Ctrl+K, the address, Enter.
    await k.type('link');
    for (let i = 0; i < 4; i += 1) await k.press('Shift+ArrowLeft');
    await k.press('Control+k');
    await page.getByRole('group', { name: 'Link' }).getByLabel('Link address').fill('https://example.com/guide');
    await k.press('Enter');
    await k.press('End');
    await k.press('Enter');
    await k.press('Enter');
    await k.type('```ts ');
    await k.type('const x = 1;');
    await k.press('Control+Enter');
    await k.type('> To be');
    await k.press('Enter');
    await k.type('---');
    await k.type('After the line.');
    await k.press('Enter');

    await slash(page, 'Image');
    const image = bodyBlock(page, 'image');
    await image.getByRole('button', { name: 'Choose image' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image' });
    await picker
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png(8, 6) });
    await picker.waitFor({ state: 'detached' });
    await image.locator('img').waitFor();
    await image.getByLabel('Alt text', { exact: true }).fill('A grey dot');
    await k.press('Escape');
    await k.press('ArrowDown');

    await slash(page, 'Callout');
    const callout = bodyBlock(page, 'callout');
    await callout.getByLabel('Kind', { exact: true }).selectOption('warning');
    await callout.getByLabel('Callout text', { exact: true }).fill('Mind the gap.');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(page, 'Video');
    await bodyBlock(page, 'video_embed')
      .getByLabel('Video address', { exact: true })
      .fill('https://video.example.com/v/1');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(page, 'Social post');
    await bodyBlock(page, 'tweet_embed')
      .getByLabel('Post address', { exact: true })
      .fill('https://social.example.com/p/2');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(page, 'FAQ');
    const faq = bodyBlock(page, 'faq');
    await faq.getByLabel('Question 1', { exact: true }).fill('Why?');
    await faq.getByLabel('Answer 1', { exact: true }).fill('Because.');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(page, 'Call to action');
    const cta = bodyBlock(page, 'cta');
    await cta.getByLabel('Call to action title', { exact: true }).fill('Try it');
    await cta.getByLabel('Call to action text', { exact: true }).fill('Sign up today.');
    await cta.getByLabel('Button label', { exact: true }).fill('Start');
    await cta.getByLabel('Button link', { exact: true }).fill('https://example.com/start');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(page, 'Key takeaways');
    await bodyBlock(page, 'key_takeaways').getByLabel('Takeaway 1', { exact: true }).fill('Short');
    await k.press('Escape');
    await k.press('ArrowDown');
    await k.type('The end.');
    await k.press('Control+s');
    await saved(page);

    const post = await external(`/posts/${idFromUrl()}`);
    const img = (post.bodyJson as Json[])[8]!;
    expect(post.bodyJson).toEqual([
      { type: 'paragraph', text: 'Studio **first** words, *typed* and `coded`.' },
      { type: 'heading', level: 3, text: 'A fresh section', id: 'a-fresh-section' },
      { type: 'list', style: 'ordered', items: ['One', 'Two'] },
      { type: 'list', style: 'bullet', items: ['Bullet with a [link](https://example.com/guide)'] },
      { type: 'code', language: 'ts', code: 'const x = 1;' },
      { type: 'quote', text: 'To be' },
      { type: 'divider' },
      { type: 'paragraph', text: 'After the line.' },
      {
        type: 'image',
        mediaId: img.mediaId,
        alt: 'A grey dot',
        url: img.url,
        width: img.width,
        height: img.height,
        srcset: img.srcset,
        placeholder: img.placeholder,
      },
      { type: 'callout', variant: 'warning', body: 'Mind the gap.' },
      { type: 'video_embed', url: 'https://video.example.com/v/1' },
      { type: 'tweet_embed', url: 'https://social.example.com/p/2' },
      { type: 'faq', items: [{ question: 'Why?', answer: 'Because.' }] },
      {
        type: 'cta',
        title: 'Try it',
        body: 'Sign up today.',
        linkUrl: 'https://example.com/start',
        linkLabel: 'Start',
        variant: 'default',
      },
      { type: 'key_takeaways', items: ['Short'] },
      { type: 'paragraph', text: 'The end.' },
    ]);
  }, 120_000);

  it('undoes a deletion and redoes it, and moves a block with Alt+arrows', async () => {
    const id = idFromUrl()!;
    await body(page).locator('h3').click();
    await page.keyboard.press('Alt+ArrowUp');
    await expect
      .poll(() =>
        body(page)
          .locator(':scope > *')
          .first()
          .evaluate((el) => (el as unknown as { tagName: string }).tagName),
      )
      .toBe('H3');
    await page.keyboard.press('Alt+ArrowDown');
    // The callout card: selected, deleted, brought back.
    await bodyBlock(page, 'callout')
      .getByRole('button', { name: /^Delete/ })
      .click();
    expect(await bodyBlock(page, 'callout').count()).toBe(0);
    await page.keyboard.press('Control+z');
    await bodyBlock(page, 'callout').waitFor();
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => bodyBlock(page, 'callout').count()).toBe(0);
    await page.keyboard.press('Control+z');
    await bodyBlock(page, 'callout').waitFor();
    await page.keyboard.press('Control+s');
    await saved(page);
    const post = await external(`/posts/${id}`);
    expect((post.bodyJson as Json[]).map((b) => b.type)).toContain('callout');
    expect((post.bodyJson as Json[])[0]).toEqual({
      type: 'paragraph',
      text: 'Studio **first** words, *typed* and `coded`.',
    });
  }, 60_000);

  it('opens and saves a body it did not touch as it was, and writes only the block typed into', async () => {
    const stored = [
      { type: 'paragraph', text: 'Bold the __other__ way, a <b>tag</b>, an ![image](https://example.com/i.png).' },
      { type: 'heading', level: 2, text: 'Kept _as_ written', id: 'custom-id' },
      { type: 'list', style: 'bullet', items: ['*one*', '__two__', ''] },
      { type: 'quote', text: 'Quoted\nover two lines', attribution: 'Me' },
      { type: 'code', language: '', code: '  indented\n' },
      { type: 'paragraph', text: '' },
      { type: 'divider' },
      { type: 'callout', variant: 'info', body: 'A __callout__.' },
      { type: 'video_embed', url: 'https://video.example.com/v/9' },
      { type: 'tweet_embed', url: 'https://social.example.com/p/9' },
      { type: 'faq', items: [{ question: 'Q?', answer: 'A.' }] },
      { type: 'cta', title: 'T', body: 'B', linkUrl: 'https://example.com', linkLabel: 'Go', variant: 'outlined' },
      { type: 'key_takeaways', items: ['K'] },
      { type: 'paragraph', text: 'Last  one with  double spaces.' },
    ];
    const created = await workspaceApi(page, workspace.id).post('/posts', { title: 'Kept exactly', bodyJson: stored });
    const id = created.body.id as string;
    const before = await external(`/posts/${id}`);
    const revisions = (await external(`/posts/${id}/revisions`)).total;
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${id}/edit`);
    await bodyBlock(page, 'key_takeaways').waitFor();
    // What the surface cannot show as formatting (raw HTML, an inline image) is shown as its Markdown.
    expect(await body(page).locator('p.md-source').first().textContent()).toBe(stored[0]!.text);
    await body(page).click();
    await page.keyboard.press('Control+s');
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved / })
      .waitFor();
    const after = await external(`/posts/${id}`);
    expect(after.bodyJson).toEqual(before.bodyJson);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect((await external(`/posts/${id}/revisions`)).total).toBe(revisions);

    // One heading typed into: it is written in the one canonical form; every other block stays as it was.
    await caretAtEnd(body(page).locator('h2'));
    await page.keyboard.type('!');
    await page.keyboard.press('Control+s');
    await saved(page);
    const edited = (await external(`/posts/${id}`)).bodyJson as Json[];
    expect(edited[1]).toEqual({ type: 'heading', level: 2, text: 'Kept *as* written!', id: 'custom-id' });
    expect(edited.filter((_, i) => i !== 1)).toEqual((before.bodyJson as Json[]).filter((_, i) => i !== 1));
  }, 60_000);

  it('passes axe and fits 375 and 1440 px', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await page.reload();
      await bodyBlock(page, 'cta').waitFor();
      await body(page).locator('p').first().click();
      await screenshot(page, `studio-writing-${width}`);
      if (!(await fitsWidth(page))) problems.push(`the surface at ${width}px scrolls sideways`);
      for (const v of await axeViolations(page))
        problems.push(`${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    }
    await page.setViewportSize(desktop.viewport!);
    expect(problems).toEqual([]);
  }, 60_000);
});
