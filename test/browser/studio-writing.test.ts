import { describe, expect, it } from 'vitest';
import { png } from '../helpers/media.js';
import { axeViolations, desktop, fitsWidth, screenshot, SKIP_REASON, WIDTHS } from './browser.js';
import { body, bodyBlock, caretAtEnd, saved, slash, workspaceApi } from './studio-helpers.js';
import { studioSuite } from './studio-suite.js';

const OWNER = 'typist@studio.example.com';
const suite = SKIP_REASON ? describe.skip : describe;

type Json = Record<string, unknown>;

suite(`the writing surface: typed, formatted, every block, undo${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const s = studioSuite('quire-writing-', OWNER, 'Typing Times');
  /** The post the first test writes, every block type in it. */
  let firstPost: string;
  const idFromUrl = () => s.page.url().match(/posts\/([0-9a-f-]{36})\/edit/)?.[1];

  it('writes a whole post by typing and shortcuts, every block type, and the API answers exactly that body', async () => {
    await s.page.goto(`${s.server.url}/dashboard/w/${s.workspace.id}/posts/new`);
    await s.page.getByLabel('Title', { exact: true }).fill('Typed from end to end');
    await body(s.page).click();
    const k = s.page.keyboard;
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
    await s.page.getByRole('group', { name: 'Link' }).getByLabel('Link address').fill('https://example.com/guide');
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

    await slash(s.page, 'Image');
    const image = bodyBlock(s.page, 'image');
    await image.getByRole('button', { name: 'Choose image' }).click();
    const picker = s.page.getByRole('dialog', { name: 'Choose an image' });
    await picker
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png(8, 6) });
    await picker.waitFor({ state: 'detached' });
    await image.locator('img').waitFor();
    await image.getByLabel('Alt text', { exact: true }).fill('A grey dot');
    await k.press('Escape');
    await k.press('ArrowDown');

    await slash(s.page, 'Callout');
    const callout = bodyBlock(s.page, 'callout');
    await callout.getByLabel('Kind', { exact: true }).selectOption('warning');
    await callout.getByLabel('Callout text', { exact: true }).fill('Mind the gap.');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(s.page, 'Video');
    await bodyBlock(s.page, 'video_embed')
      .getByLabel('Video address', { exact: true })
      .fill('https://video.example.com/v/1');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(s.page, 'Social post');
    await bodyBlock(s.page, 'tweet_embed')
      .getByLabel('Post address', { exact: true })
      .fill('https://social.example.com/p/2');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(s.page, 'FAQ');
    const faq = bodyBlock(s.page, 'faq');
    await faq.getByLabel('Question 1', { exact: true }).fill('Why?');
    await faq.getByLabel('Answer 1', { exact: true }).fill('Because.');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(s.page, 'Call to action');
    const cta = bodyBlock(s.page, 'cta');
    await cta.getByLabel('Call to action title', { exact: true }).fill('Try it');
    await cta.getByLabel('Call to action text', { exact: true }).fill('Sign up today.');
    await cta.getByLabel('Button label', { exact: true }).fill('Start');
    await cta.getByLabel('Button link', { exact: true }).fill('https://example.com/start');
    await k.press('Escape');
    await k.press('ArrowDown');
    await slash(s.page, 'Key takeaways');
    await bodyBlock(s.page, 'key_takeaways').getByLabel('Takeaway 1', { exact: true }).fill('Short');
    await k.press('Escape');
    await k.press('ArrowDown');
    await k.type('The end.');
    await k.press('Control+s');
    await saved(s.page);

    firstPost = idFromUrl()!;
    const post = await s.external(`/posts/${firstPost}`);
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
    const id = firstPost;
    await body(s.page).locator('h3').click();
    await s.page.keyboard.press('Alt+ArrowUp');
    await expect
      .poll(() =>
        body(s.page)
          .locator(':scope > *')
          .first()
          .evaluate((el) => (el as unknown as { tagName: string }).tagName),
      )
      .toBe('H3');
    await s.page.keyboard.press('Alt+ArrowDown');
    // The callout card: selected, deleted, brought back.
    await bodyBlock(s.page, 'callout')
      .getByRole('button', { name: /^Delete/ })
      .click();
    expect(await bodyBlock(s.page, 'callout').count()).toBe(0);
    await s.page.keyboard.press('Control+z');
    await bodyBlock(s.page, 'callout').waitFor();
    await s.page.keyboard.press('Control+Shift+z');
    await expect.poll(() => bodyBlock(s.page, 'callout').count()).toBe(0);
    await s.page.keyboard.press('Control+z');
    await bodyBlock(s.page, 'callout').waitFor();
    await s.page.keyboard.press('Control+s');
    await saved(s.page);
    const post = await s.external(`/posts/${id}`);
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
    const created = await workspaceApi(s.page, s.workspace.id).post('/posts', {
      title: 'Kept exactly',
      bodyJson: stored,
    });
    const id = created.body.id as string;
    const before = await s.external(`/posts/${id}`);
    const revisions = (await s.external(`/posts/${id}/revisions`)).total;
    await s.page.goto(`${s.server.url}/dashboard/w/${s.workspace.id}/posts/${id}/edit`);
    await bodyBlock(s.page, 'key_takeaways').waitFor();
    // What the surface cannot show as formatting (raw HTML, an inline image) is shown as its Markdown.
    expect(await body(s.page).locator('p.md-source').first().textContent()).toBe(stored[0]!.text);
    await body(s.page).click();
    await s.page.keyboard.press('Control+s');
    await s.page
      .getByRole('status')
      .filter({ hasText: /^Saved / })
      .waitFor();
    const after = await s.external(`/posts/${id}`);
    expect(after.bodyJson).toEqual(before.bodyJson);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect((await s.external(`/posts/${id}/revisions`)).total).toBe(revisions);

    // One heading typed into: it is written in the one canonical form; every other block stays as it was.
    await caretAtEnd(body(s.page).locator('h2'));
    await s.page.keyboard.type('!');
    await s.page.keyboard.press('Control+s');
    await saved(s.page);
    const edited = (await s.external(`/posts/${id}`)).bodyJson as Json[];
    expect(edited[1]).toEqual({ type: 'heading', level: 2, text: 'Kept *as* written!', id: 'custom-id' });
    expect(edited.filter((_, i) => i !== 1)).toEqual((before.bodyJson as Json[]).filter((_, i) => i !== 1));
  }, 60_000);

  it('holds back a block not filled in without an error, edits and removes a link, and jumps to a block the advice names', async () => {
    const long = Array.from({ length: 32 }, (_, i) => `Sentence ${i + 1} runs on a while.`).join(' ');
    const created = await workspaceApi(s.page, s.workspace.id).post('/posts', {
      title: 'Advice and links',
      bodyJson: [
        { type: 'paragraph', text: 'Read the [guide](https://example.com/guide) first.' },
        { type: 'paragraph', text: long },
      ],
    });
    const id = created.body.id as string;
    await s.page.goto(`${s.server.url}/dashboard/w/${s.workspace.id}/posts/${id}/edit`);
    await body(s.page).locator('p').nth(1).waitFor();

    // The link under the caret: its popover opens it, and Remove link takes the mark off (undone by Ctrl+Z).
    await body(s.page).locator('a', { hasText: 'guide' }).click();
    const popover = s.page.getByRole('group', { name: 'Link' });
    expect(await popover.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('https://example.com/guide');
    await popover.getByRole('button', { name: 'Remove link' }).click();
    await expect.poll(() => body(s.page).locator('a').count()).toBe(0);
    await s.page.keyboard.press('Control+z');
    await body(s.page).locator('a', { hasText: 'guide' }).waitFor();

    // A video block just inserted: no red error before anything is typed, and the save line says what it needs.
    await caretAtEnd(body(s.page).locator('p').nth(1));
    await s.page.keyboard.press('Enter');
    await slash(s.page, 'Video');
    await bodyBlock(s.page, 'video_embed').waitFor();
    expect(await bodyBlock(s.page, 'video_embed').locator('.field-error').count()).toBe(0);
    await s.page.keyboard.press('Control+s');
    await s.page
      .getByRole('status')
      .filter({ hasText: 'Not saved yet: a video block needs its address (or delete it).' })
      .waitFor();
    await bodyBlock(s.page, 'video_embed')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await s.page.keyboard.press('Control+s');
    await saved(s.page);
    expect((await s.external(`/posts/${id}`)).bodyJson).toEqual(created.body.bodyJson);

    // The readability advice names the long paragraph; its button puts the caret in it.
    const advice = s.page.getByRole('region', { name: 'Readability' });
    await advice
      .getByRole('list', { name: /^Blocks: Paragraph length/ })
      .getByRole('button', { name: /^Go to block 2/ })
      .click();
    await expect
      .poll(() =>
        s.page.evaluate(() => {
          type Element = { closest?(s: string): unknown; parentElement: Element | null };
          const g = globalThis as unknown as {
            getSelection(): { anchorNode: Element | null };
            document: { querySelectorAll(s: string): ArrayLike<unknown> };
          };
          const anchor = g.getSelection().anchorNode;
          const element = anchor?.closest ? anchor : anchor?.parentElement;
          const paragraph = element?.closest?.('.ProseMirror.document > p');
          return paragraph === g.document.querySelectorAll('.ProseMirror.document > p')[1];
        }),
      )
      .toBe(true);
  }, 60_000);

  it("types a card's text with formatting shown as formatting, its own undo and link, and keeps source it cannot show", async () => {
    const created = await workspaceApi(s.page, s.workspace.id).post('/posts', {
      title: 'Cards as text',
      bodyJson: [
        { type: 'callout', variant: 'info', body: 'Start' },
        { type: 'key_takeaways', items: ['One ![dot](https://example.com/dot.png) kept'] },
      ],
    });
    const id = created.body.id as string;
    await s.edit(id);
    const text = bodyBlock(s.page, 'callout').getByRole('textbox', { name: 'Callout text' });
    await text.click();
    await caretAtEnd(text);
    const k = s.page.keyboard;
    await k.type(' with ');
    await k.press('Control+b');
    await k.type('bold');
    await k.press('Control+b');
    await k.type(' and a link');
    await expect.poll(() => text.locator('strong').textContent()).toBe('bold');
    for (let i = 0; i < 4; i += 1) await k.press('Shift+ArrowLeft');
    await k.press('Control+k');
    const linkRow = bodyBlock(s.page, 'callout').getByRole('group', { name: 'Link' });
    await linkRow.getByLabel('Link address').fill('https://example.com/more');
    await k.press('Enter');
    await text.locator('a', { hasText: 'link' }).waitFor();
    await k.press('End');
    await k.type(' oops');
    await k.press('Control+z');
    await expect.poll(() => text.textContent()).toBe('Start with bold and a link');
    // Markdown the field cannot show as formatting (an inline image) stays a Markdown field holding it exactly.
    const takeaway = bodyBlock(s.page, 'key_takeaways').getByLabel('Takeaway 1', { exact: true });
    expect(await takeaway.inputValue()).toBe('One ![dot](https://example.com/dot.png) kept');
    await k.press('Control+s');
    await saved(s.page);
    expect((await s.external(`/posts/${id}`)).bodyJson).toEqual([
      { type: 'callout', variant: 'info', body: 'Start with **bold** and a [link](https://example.com/more)' },
      { type: 'key_takeaways', items: ['One ![dot](https://example.com/dot.png) kept'] },
    ]);
  }, 60_000);

  it('passes axe and fits 375 and 1440 px', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await s.page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await s.edit(firstPost);
      await bodyBlock(s.page, 'cta').waitFor();
      await body(s.page).locator('p').first().click();
      await screenshot(s.page, `studio-writing-${width}`);
      if (!(await fitsWidth(s.page))) problems.push(`the surface at ${width}px scrolls sideways`);
      for (const v of await axeViolations(s.page))
        problems.push(`${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    }
    await s.page.setViewportSize(desktop.viewport!);
    expect(problems).toEqual([]);
  }, 60_000);
});
