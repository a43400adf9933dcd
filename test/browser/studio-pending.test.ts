import fs from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { EXTERNAL } from '../e2e/helpers.js';
import { fitsWidth, SCREENSHOT_DIR, settled, SKIP_REASON, WIDTHS } from './browser.js';
import { body, caretAtEnd, workspaceApi } from './studio-helpers.js';
import { studioSuite } from './studio-suite.js';

const suite = SKIP_REASON ? describe.skip : describe;
type Json = Record<string, unknown>;
const CONTENT = '/api/v1/content';
/** Longer than the studio's AUTOSAVE_MS (1.5 s): each pause is an autosave. */
const PAUSE_MS = 2_000;

const paragraphs = (...texts: string[]) => texts.map((text) => ({ type: 'paragraph', text }));

/** A viewport's picture (the bar stays in view at the top, a dialog over the page). */
async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

suite(`the studio keeps a live post's edits unpublished until Update${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  // The receiver is on loopback, which only this flag lets an endpoint name.
  const s = studioSuite('quire-studio-pending-', 'live@studio.example.com', 'Live Press', {
    QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  let receiver: Receiver;
  let contentKey: string;
  let webhookId: string;
  let tagId: string;
  const api = () => workspaceApi(s.page, s.workspace.id);

  beforeAll(async () => {
    receiver = await startReceiver();
    contentKey = (await api().post('/content-keys', { name: 'Site' })).body.key as string;
    const hook = await api().post('/webhooks', { url: receiver.url('/live'), eventTypes: ['post.updated'] });
    expect(hook.status).toBe(201);
    webhookId = hook.body.id as string;
    tagId = (await api().post('/tags', { name: 'Fresh' })).body.id as string;
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
  });

  const write = (method: string, p: string, payload: unknown, headers: Record<string, string> = {}) =>
    s.server.fetch(`${EXTERNAL}${p}`, {
      method,
      headers: { 'X-API-Key': s.key, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(payload),
    });
  const content = async (p: string) =>
    (await (
      await s.server.fetch(`${CONTENT}${p}${p.includes('?') ? '&' : '?'}key=${encodeURIComponent(contentKey)}`)
    ).json()) as Json;
  const pendingOf = (id: string) => api().get(`/posts/${id}/pending`);
  const livePost = (title: string, ...texts: string[]) =>
    s.newPost({ title, status: 'published', bodyJson: paragraphs(...texts) });

  /** The change feed's events of one post, by their type. */
  const feedOf = async (id: string) =>
    ((await s.external('/changes?limit=100')).data as Json[]).filter((e) => e.id === id).map((e) => e.event);

  /** Everything outside the studio that a live post's edits may reach: none of it may move before Update. */
  async function outside(id: string) {
    const deliveries = await api().get<{ data: unknown[] }>(`/webhooks/${webhookId}/deliveries`);
    return {
      post: await s.external(`/posts/${id}`),
      content: await content(`/posts/${id}`),
      revisions: (await s.external(`/posts/${id}/revisions`)).total as number,
      feed: await feedOf(id),
      deliveries: deliveries.body.data.length,
      received: receiver.received.filter((r) => r.event.data.id === id).length,
    };
  }

  const bar = () => s.page.getByRole('region', { name: 'Writing tools' });
  const state = (text: string) =>
    bar()
      .locator('.live-state')
      .filter({ hasText: new RegExp(`^${text}$`) });
  /** Waits for the studio to say the edits are saved as unpublished changes. */
  const savedPending = () =>
    bar()
      .getByRole('status')
      .filter({ hasText: /^Saved .*, not live yet\.$/ })
      .waitFor({ timeout: 15_000 });
  const savedLive = () =>
    bar()
      .getByRole('status')
      .filter({ hasText: /^Saved (?!.*not live yet).*\.$/ })
      .waitFor({ timeout: 15_000 });
  const typeAtEnd = async (n: number, text: string) => {
    const paragraph = body(s.page).locator('p').nth(n);
    await paragraph.click();
    await caretAtEnd(paragraph);
    await s.page.keyboard.type(text);
    // The studio has taken the edit once it says so; until then the status may still be the last save's "Saved".
    await bar()
      .getByRole('status')
      .filter({ hasText: /^Unsaved changes/ })
      .waitFor({ timeout: 15_000 });
  };

  it('saves each pause of an edit to the pending set, which nothing outside sees; Update writes it once', async () => {
    const id = await livePost('A live story', 'The live words.');
    const before = await outside(id);
    const requests: string[] = [];
    const log = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.includes(`/posts/${id}`)) requests.push(`${request.method()} ${url.pathname.split(id)[1]}`);
    };
    s.page.on('request', log);
    try {
      await s.edit(id);
      await state('Published').waitFor();

      // Three pauses longer than the autosave's: three saves of a half-typed edit.
      for (const words of [' Good', ' luck and', ' enjoy.']) {
        await typeAtEnd(0, words);
        await s.page.waitForTimeout(PAUSE_MS);
        await savedPending();
      }
      await s.page.getByRole('region', { name: 'Details' }).getByRole('checkbox', { name: 'Fresh' }).check();
      await s.page.waitForTimeout(PAUSE_MS);
      await savedPending();
      await state('Published · unpublished changes').waitFor();

      expect(requests.filter((r) => r === 'PUT /pending').length).toBeGreaterThanOrEqual(4);
      expect(requests.filter((r) => r.startsWith('PATCH') || r.includes('/tags') || r.includes('/apply'))).toEqual([]);
      expect(await outside(id)).toEqual(before);
      const pending = await pendingOf(id);
      expect(pending.status).toBe(200);
      expect(pending.body.changes).toEqual({
        bodyJson: paragraphs('The live words. Good luck and enjoy.'),
        tagIds: [tagId],
      });

      // The set is the server's: a reload (another device, a crash) shows it again.
      await s.page.reload();
      await body(s.page).locator('p', { hasText: 'The live words. Good luck and enjoy.' }).waitFor();
      await state('Published · unpublished changes').waitFor();
      expect(
        await s.page.getByRole('region', { name: 'Details' }).getByRole('checkbox', { name: 'Fresh' }).isChecked(),
      ).toBe(true);
      expect(await outside(id)).toEqual(before);

      await bar().getByRole('button', { name: 'Update', exact: true }).click();
      await state('Published').waitFor({ timeout: 15_000 });
      await savedLive();
      const after = await outside(id);
      expect(after.post.bodyText).toBe('The live words. Good luck and enjoy.');
      expect((after.post.tags as Json[]).map((tag) => tag.id)).toEqual([tagId]);
      expect(after.content.bodyText).toBe('The live words. Good luck and enjoy.');
      expect(after.revisions).toBe(before.revisions + 1);
      expect(after.feed).toEqual([...before.feed, 'post.updated']);
      expect(after.deliveries).toBe(before.deliveries + 1);
      await receiver.waitFor(1, (r) => r.event.data.id === id && r.event.type === 'post.updated');
      await s.page.waitForTimeout(500);
      expect(receiver.received.filter((r) => r.event.data.id === id).length).toBe(1);
      expect((await pendingOf(id)).status).toBe(404);
    } finally {
      s.page.off('request', log);
    }
  }, 120_000);

  it('opens Update on a live version changed meanwhile as a conflict, merges both and updates with both', async () => {
    const id = await livePost('Two hands', 'First.', 'Second.');
    await s.edit(id);
    await typeAtEnd(0, ' Mine.');
    await savedPending();
    // Someone changes the live post through the API between the edits and Update.
    const live = await s.external(`/posts/${id}`);
    const theirs = await write(
      'PATCH',
      `/posts/${id}`,
      { bodyJson: paragraphs('First.', 'Second. Theirs.') },
      {
        'If-Match': `"${String(live.updatedAt)}"`,
      },
    );
    expect(theirs.status).toBe(200);

    await bar().getByRole('button', { name: 'Update', exact: true }).click();
    const panel = s.page.getByRole('dialog', { name: 'A newer copy of this post was saved' });
    await panel.waitFor({ timeout: 15_000 });
    await panel.getByText('1 change of theirs and 1 change of yours merge without overlapping.').waitFor();
    await panel.getByRole('button', { name: 'Save merged' }).click();
    await panel.waitFor({ state: 'detached' });
    await savedPending();
    // Merged and saved on the live version now, still not live.
    expect((await s.external(`/posts/${id}`)).bodyJson).toEqual(paragraphs('First.', 'Second. Theirs.'));
    const pending = await pendingOf(id);
    expect(pending.body).toMatchObject({ stale: false, baseVersion: (await s.external(`/posts/${id}`)).updatedAt });

    await bar().getByRole('button', { name: 'Update', exact: true }).click();
    await state('Published').waitFor({ timeout: 15_000 });
    expect((await s.external(`/posts/${id}`)).bodyJson).toEqual(paragraphs('First. Mine.', 'Second. Theirs.'));
  }, 90_000);

  it('opens changes made on a live version replaced since as a conflict, from the version they were made on', async () => {
    const id = await livePost('Left open', 'Alpha.', 'Beta.');
    await s.edit(id);
    await typeAtEnd(0, ' Mine.');
    await savedPending();
    const live = await s.external(`/posts/${id}`);
    const patched = await write(
      'PATCH',
      `/posts/${id}`,
      { bodyJson: paragraphs('Alpha.', 'Beta. Theirs.') },
      { 'If-Match': `"${String(live.updatedAt)}"` },
    );
    expect(patched.status).toBe(200);
    expect((await pendingOf(id)).body.stale).toBe(true);

    // Opened again (another day, another device): Update would undo theirs, so the studio says so first.
    await s.edit(id);
    const notice = s.page.getByRole('alert').filter({ hasText: 'The live post was changed after your changes' });
    await notice.waitFor();
    expect(await bar().getByRole('button', { name: 'Update', exact: true }).isDisabled()).toBe(true);
    await notice.getByRole('button', { name: 'Compare and merge' }).click();
    const panel = s.page.getByRole('dialog', { name: 'A newer copy of this post was saved' });
    // Merged from the version the changes were made on (its revision): theirs and mine both kept, nothing to ask.
    await panel.getByText('1 change of theirs and 1 change of yours merge without overlapping.').waitFor();
    await panel.getByRole('button', { name: 'Save merged' }).click();
    await savedPending();
    await bar().getByRole('button', { name: 'Update', exact: true }).click();
    await state('Published').waitFor({ timeout: 15_000 });
    expect((await s.external(`/posts/${id}`)).bodyJson).toEqual(paragraphs('Alpha. Mine.', 'Beta. Theirs.'));
  }, 90_000);

  it('tells of another writer who saved the set meanwhile, and merges theirs with mine', async () => {
    const id = await livePost('Shared desk', 'Opening.', 'Closing.');
    await s.edit(id);
    await typeAtEnd(0, ' By me.');
    await savedPending();
    // Another writer (a key) saves the set, on top of what they read of it.
    const read = await pendingOf(id);
    const other = await write(
      'PUT',
      `/posts/${id}/pending`,
      {
        baseVersion: read.body.baseVersion,
        changes: { bodyJson: paragraphs('Opening. By me.', 'Closing. By them.') },
      },
      { 'If-Match': `"${String(read.body.updatedAt)}"` },
    );
    expect(other.status).toBe(200);

    await s.page.getByLabel('Title', { exact: true }).fill('Shared desk, retitled');
    const panel = s.page.getByRole('dialog', { name: 'Someone else saved changes to this post' });
    await panel.waitFor({ timeout: 15_000 });
    await panel.getByText(/^An API key saved changes that are not live yet/).waitFor();
    await panel.getByRole('button', { name: 'Save merged' }).click();
    await savedPending();
    expect((await pendingOf(id)).body.changes).toEqual({
      title: 'Shared desk, retitled',
      bodyJson: paragraphs('Opening. By me.', 'Closing. By them.'),
    });
    expect((await s.external(`/posts/${id}`)).title).toBe('Shared desk');
  }, 90_000);

  it('reviews the changes against the live version, previews them, and discards them after asking', async () => {
    const id = await livePost('Under review', 'The live text stays.');
    await s.edit(id);
    await s.page.getByLabel('Title', { exact: true }).fill('Under closer watch');
    await typeAtEnd(0, ' Until Update.');
    await savedPending();

    // A preview token carries the pending changes; the published post is still the live one.
    const publish = s.page.getByRole('region', { name: 'Publish' });
    await publish.getByRole('button', { name: 'Preview on site' }).click();
    const address = new URL(await publish.getByLabel('Content API address of this draft').inputValue());
    const token = address.searchParams.get('token')!;
    const previewed = (await content(`/preview/posts/${id}?token=${encodeURIComponent(token)}`)) as Json;
    expect(previewed).toMatchObject({ title: 'Under closer watch', bodyText: 'The live text stays. Until Update.' });
    expect(((await content(`/posts/${id}`)) as Json).title).toBe('Under review');

    for (const width of WIDTHS) {
      await s.page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await state('Published · unpublished changes').waitFor();
      await settled(s.page);
      expect(await fitsWidth(s.page)).toBe(true);
      await shot(s.page, `studio-pending-bar-${width}`);
      await bar().getByRole('button', { name: 'Review changes' }).click();
      const review = s.page.getByRole('dialog', { name: 'Changes not live yet' });
      await review.locator('del', { hasText: 'review' }).first().waitFor();
      await review.locator('ins', { hasText: 'closer' }).first().waitFor();
      await review.locator('ins', { hasText: 'Until' }).first().waitFor();
      expect(await fitsWidth(s.page)).toBe(true);
      await shot(s.page, `studio-pending-review-${width}`);
      await review.getByRole('button', { name: 'Close', exact: true }).last().click();
      await review.waitFor({ state: 'detached' });
    }
    await s.page.setViewportSize({ width: 1280, height: 900 });

    // A restore over the live version goes out at once and drops the set: the question says so.
    const history = s.page.getByRole('region', { name: 'History' });
    await history.getByRole('list', { name: 'Revisions, newest first' }).getByRole('button', { name: /^#1 / }).click();
    const revision = s.page.getByRole('dialog', { name: 'Revision #1', exact: true });
    await revision.getByRole('button', { name: 'Restore revision #1' }).click();
    const restoring = s.page.getByRole('dialog', { name: 'Restore revision #1?' });
    await restoring.getByText('the live post shows it at once, without Update', { exact: false }).waitFor();
    await restoring.getByText('Your changes that are not live yet are in no revision').waitFor();
    await restoring.getByRole('button', { name: 'Cancel' }).click();
    await restoring.waitFor({ state: 'detached' });
    await s.page.keyboard.press('Escape');
    await revision.waitFor({ state: 'detached' });

    await bar().getByRole('button', { name: 'Discard changes' }).click();
    const confirm = s.page.getByRole('dialog', { name: 'Discard your changes?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await pendingOf(id)).status).toBe(200);
    await bar().getByRole('button', { name: 'Discard changes' }).click();
    await confirm.getByRole('button', { name: 'Discard changes' }).click();
    await state('Published').waitFor({ timeout: 15_000 });
    await body(s.page)
      .locator('p', { hasText: /^The live text stays\.$/ })
      .waitFor();
    expect(await s.page.getByLabel('Title', { exact: true }).inputValue()).toBe('Under review');
    expect((await pendingOf(id)).status).toBe(404);
  }, 120_000);

  it('asks which copy to keep when a post with changes is unpublished, and keeps them in the draft when told', async () => {
    const id = await livePost('Going back', 'Live words.');
    const revisions = (await s.external(`/posts/${id}/revisions`)).total as number;
    await s.edit(id);
    await typeAtEnd(0, ' Kept in the draft.');
    await savedPending();
    const publish = s.page.getByRole('region', { name: 'Publish' });
    const question = s.page.getByRole('dialog', { name: 'Unpublish with your changes?' });
    for (const width of WIDTHS) {
      await s.page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      if (width < 1024) await bar().getByRole('button', { name: 'Settings' }).click();
      await publish.getByRole('button', { name: 'Unpublish to draft' }).click();
      await question.waitFor();
      expect(await fitsWidth(s.page)).toBe(true);
      await shot(s.page, `studio-pending-unpublish-${width}`);
      await question.getByRole('button', { name: 'Cancel' }).click();
      await question.waitFor({ state: 'detached' });
      if (width < 1024) await s.page.keyboard.press('Escape');
    }
    await s.page.setViewportSize({ width: 1280, height: 900 });
    expect((await s.external(`/posts/${id}`)).status).toBe('published');

    await publish.getByRole('button', { name: 'Unpublish to draft' }).click();
    await question.getByRole('button', { name: 'Unpublish with my changes' }).click();
    await s.page.locator('.studio-head .badge', { hasText: 'draft' }).waitFor({ timeout: 15_000 });
    const post = await s.external(`/posts/${id}`);
    expect(post).toMatchObject({ status: 'draft', bodyText: 'Live words. Kept in the draft.' });
    // One write: one revision.
    expect((await s.external(`/posts/${id}/revisions`)).total).toBe(revisions + 1);
    expect((await pendingOf(id)).status).toBe(404);

    // Drafts are saved as before: straight to the post.
    await typeAtEnd(0, ' Draft edit.');
    await savedLive();
    expect((await s.external(`/posts/${id}`)).bodyText).toBe('Live words. Kept in the draft. Draft edit.');
  }, 120_000);

  it('does the same for a page: its saves pending, Update writing them', async () => {
    const created = await api().post('/pages', {
      title: 'About us',
      status: 'published',
      bodyJson: paragraphs('We are live.'),
    });
    const id = created.body.id as string;
    await s.page.goto(`${s.server.url}/dashboard/w/${s.workspace.id}/pages/${id}/edit`);
    await body(s.page).waitFor();
    await typeAtEnd(0, ' And growing.');
    await savedPending();
    expect((await api().get(`/pages/${id}/pending`)).body.changes).toEqual({
      bodyJson: paragraphs('We are live. And growing.'),
    });
    expect((await s.external(`/pages/${id}`)).bodyText).toBe('We are live.');
    await bar().getByRole('button', { name: 'Update', exact: true }).click();
    await state('Published').waitFor({ timeout: 15_000 });
    expect((await s.external(`/pages/${id}`)).bodyText).toBe('We are live. And growing.');
  }, 90_000);

  it('unpublishes the live version and drops the changes when told so', async () => {
    const id = await livePost('Dropping out', 'As it is live.');
    await s.edit(id);
    await typeAtEnd(0, ' Not wanted.');
    await savedPending();
    await s.page.getByRole('region', { name: 'Publish' }).getByRole('button', { name: 'Unpublish to draft' }).click();
    await s.page
      .getByRole('dialog', { name: 'Unpublish with your changes?' })
      .getByRole('button', { name: 'Unpublish the live version and drop my changes' })
      .click();
    await s.page.locator('.studio-head .badge', { hasText: 'draft' }).waitFor({ timeout: 15_000 });
    expect(await s.external(`/posts/${id}`)).toMatchObject({ status: 'draft', bodyText: 'As it is live.' });
    await body(s.page)
      .locator('p', { hasText: /^As it is live\.$/ })
      .waitFor();
    expect((await pendingOf(id)).status).toBe(404);
  }, 90_000);
});
