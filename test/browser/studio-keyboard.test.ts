import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { png } from '../helpers/media.js';
import { SKIP_REASON } from './browser.js';
import { body, bodyBlock, saved, slash, tabTo } from './studio-helpers.js';
import { studioSuite } from './studio-suite.js';

const suite = SKIP_REASON ? describe.skip : describe;

type Json = Record<string, unknown>;

/** The element that has the keyboard: its role or tag, and its accessible name. */
async function focused(s: { page: Page }): Promise<string> {
  return s.page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: Record<string, unknown> | null } }).document
      .activeElement as unknown as {
      getAttribute(n: string): string | null;
      tagName: string;
      labels?: ArrayLike<{ textContent: string | null }>;
    } | null;
    if (!el) return '';
    const name = el.getAttribute('aria-label') ?? (el.labels?.[0]?.textContent ?? '').trim();
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} ${name}`.trim();
  });
}

/** Escape in a card's field gives the keyboard back to the document, the card selected (a key then acts on it). */
async function leaveCard(s: { page: Page }): Promise<void> {
  await s.page.keyboard.press('Escape');
  await expect.poll(() => focused(s)).toBe('textbox Body of the post');
  expect(await s.page.locator('.card.card-selected').count()).toBe(1);
}

suite(`the writing surface by keyboard alone${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const s = studioSuite('quire-keyboard-', 'keys@studio.example.com', 'Keyboard Times');

  it('writes, formats, inserts every block type, moves, deletes, undoes and publishes without the mouse', async () => {
    await s.page.goto(`${s.server.url}/dashboard/w/${s.workspace.id}/posts/new`);
    const k = s.page.keyboard;
    await tabTo(s.page, /^Title$/);
    await k.type('Written by keys');
    await tabTo(s.page, /^Body of the post$/);
    await k.type('Plain, ');
    await k.press('Control+b');
    await k.type('bold');
    await k.press('Control+b');
    await k.type(', ');
    await k.press('Control+i');
    await k.type('italic');
    await k.press('Control+i');
    await k.type('.');
    // The first autosave gives the post its address; the writer keeps the keyboard where they were typing.
    await s.page.waitForURL(/\/posts\/[0-9a-f-]{36}\/edit$/);
    expect(await focused(s)).toBe('textbox Body of the post');
    await k.press('Enter');
    await k.type('## A heading');
    await k.press('Enter');
    await k.type('- one');
    await k.press('Enter');
    await k.press('Enter');
    await k.type('> quoted');
    await k.press('Enter');
    await k.type('```js ');
    await k.type('let a = 1;');
    await k.press('Control+Enter');
    await k.type('---');

    // Each card from the "/" menu takes the keyboard in its first field; Tab walks its fields, Escape leaves it.
    await slash(s.page, 'Image');
    // The card's fields are drawn after the insertion; its first (Choose image) takes the keyboard in that frame.
    await expect.poll(() => focused(s)).toBe('button');
    const chooser = s.page.waitForEvent('filechooser');
    await k.press('Enter');
    await s.page.getByRole('dialog', { name: 'Choose an image' }).waitFor();
    await tabTo(s.page, /^Upload$/);
    await k.press('Enter');
    await (await chooser).setFiles({ name: 'keys.png', mimeType: 'image/png', buffer: png(6, 4) });
    await bodyBlock(s.page, 'image').locator('img').waitFor();
    await tabTo(s.page, /^Alt text$/);
    await k.type('Six by four');
    await leaveCard(s);
    await k.press('ArrowDown');

    await slash(s.page, 'Callout');
    await tabTo(s.page, /^Callout text$/);
    await k.type('Careful ');
    await k.press('Control+b');
    await k.type('now');
    await leaveCard(s);
    await k.press('ArrowDown');
    await slash(s.page, 'Video');
    await expect.poll(() => focused(s)).toMatch(/Video address$/);
    await k.type('https://video.example.com/v/3');
    await leaveCard(s);
    await k.press('ArrowDown');
    await slash(s.page, 'Social post');
    await expect.poll(() => focused(s)).toMatch(/Post address$/);
    await k.type('https://social.example.com/p/3');
    await leaveCard(s);
    await k.press('ArrowDown');
    await slash(s.page, 'FAQ');
    await expect.poll(() => focused(s)).toMatch(/Question 1$/);
    await k.type('Who?');
    await k.press('Tab');
    await k.type('Everyone.');
    await leaveCard(s);
    await k.press('ArrowDown');
    await slash(s.page, 'Call to action');
    await tabTo(s.page, /^Call to action title$/);
    await k.type('Join');
    await k.press('Tab');
    await k.type('It is free.');
    await k.press('Tab');
    await k.type('Sign up');
    await k.press('Tab');
    await k.type('https://example.com/join');
    await leaveCard(s);
    await k.press('ArrowDown');
    await slash(s.page, 'Key takeaways');
    await expect.poll(() => focused(s)).toMatch(/Takeaway 1$/);
    await k.type('Keys suffice');
    await leaveCard(s);
    await k.press('ArrowDown');
    await k.type('Last words.');

    // Move the last paragraph up over the takeaways, delete the takeaways card, and undo the deletion.
    await k.press('Alt+ArrowUp');
    await k.press('ArrowDown');
    expect(await bodyBlock(s.page, 'key_takeaways').getAttribute('class')).toContain('card-selected');
    await k.press('Delete');
    await expect.poll(() => bodyBlock(s.page, 'key_takeaways').count()).toBe(0);
    await k.press('Control+z');
    await bodyBlock(s.page, 'key_takeaways').waitFor();

    await tabTo(s.page, /^Publish$/, 200);
    await k.press('Enter');
    await s.page.locator('.studio-head .badge', { hasText: 'published' }).waitFor({ timeout: 15_000 });
    await saved(s.page);

    const id = s.page.url().match(/posts\/([0-9a-f-]{36})\/edit/)![1]!;
    const post = await s.external(`/posts/${id}`);
    expect(post.status).toBe('published');
    const blocks = post.bodyJson as Json[];
    expect(blocks.map((b) => b.type)).toEqual([
      'paragraph',
      'heading',
      'list',
      'quote',
      'code',
      'divider',
      'image',
      'callout',
      'video_embed',
      'tweet_embed',
      'faq',
      'cta',
      'paragraph',
      'key_takeaways',
    ]);
    expect(blocks[0]).toEqual({ type: 'paragraph', text: 'Plain, **bold**, *italic*.' });
    expect(blocks[6]).toMatchObject({ type: 'image', alt: 'Six by four' });
    expect(blocks[7]).toEqual({ type: 'callout', variant: 'info', body: 'Careful **now**' });
    expect(blocks[10]).toEqual({ type: 'faq', items: [{ question: 'Who?', answer: 'Everyone.' }] });
    expect(blocks[11]).toMatchObject({ title: 'Join', body: 'It is free.', linkLabel: 'Sign up' });
    expect(blocks[12]).toEqual({ type: 'paragraph', text: 'Last words.' });
    expect(blocks[13]).toEqual({ type: 'key_takeaways', items: ['Keys suffice'] });
    expect(await body(s.page).count()).toBe(1);
  }, 120_000);
});
