import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  hasFocus,
  launchBrowser,
  pageFetch,
  screenshot,
  settled,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { workspaceApi } from './studio-helpers.js';

const OWNER = 'owner@audit.example.com';
const MEMBER = 'member@audit.example.com';
const HOOK = 'https://hooks.example.com/quire';
const DASHBOARD = '/api/v1/dashboard';
/** The screen's page size (AuditScreen's PAGE_SIZE). */
const PAGE = 50;
const suite = SKIP_REASON ? describe.skip : describe;

/** What the entries made before the tests say, newest first, as the screen words them. */
const MADE = [
  'Changed site settings: Site name',
  'Renamed the workspace to “Paper Trail”',
  `Added webhook ${HOOK}`,
  'Revealed API key “Deploy”',
  'Created API key “Deploy”',
  `Failed sign-in to ${OWNER}`,
  'Accepted the invitation, with a new account',
  `Invited ${MEMBER}`,
];

/** A `yyyy-mm-dd` day `offset` days from today, in the browser's time zone (UTC, as `desktop` sets it). */
const day = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The audit log screen: filters, sentences, who, paging with "Load older", the export, and who may see it. */
suite(`the audit log in Chromium${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, { timeout: 60_000 }, () => {
  const dir = tempDir('quire-audit-');
  let server: ServerProcess;
  let browser: Browser;
  let ownerContext: BrowserContext;
  let memberContext: BrowserContext;
  /** The owner's. */
  let page: Page;
  /** A member who may read posts only, not the log. */
  let member: Page;
  let workspace: { id: string; slug: string };
  let ownerId: string;
  let memberId: string;
  let keyId: string;

  const openAudit = async (query = '') => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/audit${query}`);
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await settled(page);
  };
  /** The rows' sentences, top to bottom, once the screen has settled. */
  const sentences = async () => {
    await settled(page);
    return page.locator('tbody th .audit-sentence').allTextContents();
  };
  const whoOf = (sentence: string) =>
    page
      .locator('tbody tr', { has: page.locator('.audit-sentence', { hasText: sentence }) })
      .locator('[data-label="Who"]');
  const loadOlder = () => page.getByRole('button', { name: 'Load older' });
  /** Screenshots at both widths; says what axe and the width check found rather than failing at the first. */
  const inspect = async (name: string) => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await screenshot(page, `${name}-${width}`);
      if (!(await fitsWidth(page))) problems.push(`${name} at ${width}px scrolls sideways`);
      for (const v of await axeViolations(page))
        problems.push(`${name} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    }
    await page.setViewportSize(desktop.viewport!);
    return problems;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
    // axe is injected as a script tag, which the dashboard's Content-Security-Policy would (rightly) block.
    ownerContext = await browser.newContext({ ...desktop, bypassCSP: true });
    page = await ownerContext.newPage();
    memberContext = await browser.newContext({ ...desktop, bypassCSP: true });
    member = await memberContext.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Audit Trail');
    const owner = workspaceApi(page, workspace.id);

    // A member who reads posts, by invitation: "Invited", then their "Accepted".
    const sent = await owner.post<{ link: string }>('/invitations', { email: MEMBER, permissions: ['posts:read'] });
    expect(sent.status).toBe(201);
    await member.goto(`${server.url}/dashboard/sign-in`);
    const accepted = await pageFetch<{ user: { id: string } }>(member, 'POST', `${DASHBOARD}/invitations/accept`, {
      body: { token: sent.body.link.split('#')[1], password: 'a member’s password' },
    });
    expect(accepted.status).toBe(200);
    memberId = accepted.body.user.id;

    // Someone not signed in tries the owner's account.
    const stranger = await browser.newContext(desktop);
    try {
      const tries = await stranger.newPage();
      await tries.goto(`${server.url}/dashboard/sign-in`);
      const failed = await pageFetch(tries, 'POST', `${DASHBOARD}/session`, {
        body: { email: OWNER, password: 'not the password' },
      });
      expect(failed.status).toBe(401);
    } finally {
      await stranger.close();
    }

    // A key, revealed in the Keys screen as a person would, which then adds a webhook on its own.
    const created = await owner.post<{ id: string; key: string }>('/api-keys', { name: 'Deploy' });
    expect(created.status).toBe(201);
    keyId = created.body.id;
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/keys`);
    await page.getByRole('button', { name: 'Reveal Deploy' }).click();
    await page
      .getByRole('dialog', { name: 'Reveal key “Deploy”?' })
      .getByRole('button', { name: 'Reveal key' })
      .click();
    const revealed = page.getByRole('dialog', { name: 'Key “Deploy”' });
    await revealed.getByRole('button', { name: 'Done' }).click();
    await revealed.waitFor({ state: 'detached' });
    const hook = await server.fetch('/api/v1/external/webhooks', {
      method: 'POST',
      headers: { 'X-API-Key': created.body.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: HOOK, eventTypes: ['post.published'] }),
    });
    expect(hook.status, await hook.clone().text()).toBe(201);

    expect((await owner.patch('', { name: 'Paper Trail' })).status).toBe(200);
    expect((await owner.patch('/settings', { siteName: 'The Trail' })).status).toBe(200);
    const session = await pageFetch<{ user: { id: string } }>(page, 'GET', `${DASHBOARD}/session`);
    ownerId = session.body.user.id;
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('lists what happened, newest first, in sentences, with who did it and from where', async () => {
    await page.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await page.getByText('Older entries are pruned after the period the server is set to keep them.').waitFor();
    expect(await sentences()).toEqual(MADE);

    expect(await whoOf('Changed site settings').textContent()).toBe(OWNER);
    expect(await whoOf('Added webhook').textContent()).toBe(`API key “Deploy” made by ${OWNER}`);
    expect(await whoOf('Failed sign-in').textContent()).toBe('Someone not signed in');
    expect(await whoOf('Accepted the invitation').textContent()).toBe(MEMBER);
    // What the sentence leaves out is a line of its own under it.
    await page.locator('tbody tr', { hasText: 'Added webhook' }).getByText('Events: post.published').waitFor();
    await page
      .locator('tbody tr', { hasText: 'Accepted the invitation' })
      .getByText('Permissions: posts:read')
      .waitFor();
    expect(await page.locator('tbody tr').first().locator('[data-label="Address"]').textContent()).toMatch(
      /^[\d.:a-f]+$/,
    );
    const when = page.locator('tbody tr').first().locator('time');
    expect(await when.getAttribute('dateTime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await when.getAttribute('title')).toBe(await when.getAttribute('dateTime'));
    await page
      .getByRole('status')
      .filter({ hasText: `Showing all ${MADE.length} entries.` })
      .waitFor();
    expect(await loadOlder().count()).toBe(0);

    expect(await inspect('team-audit')).toEqual([]);
  });

  it('filters by category, person and days; each filter is sent, and the export carries them', async () => {
    await openAudit();
    await page.getByLabel('Category').selectOption({ label: 'API keys' });
    await expect.poll(sentences).toEqual(['Revealed API key “Deploy”', 'Created API key “Deploy”']);
    expect(new URL(page.url()).searchParams.get('category')).toBe('api_key');

    await page.getByLabel('Category').selectOption({ label: 'Everything' });
    await page.getByLabel('Person').selectOption({ label: MEMBER });
    await expect.poll(sentences).toEqual(['Accepted the invitation, with a new account']);
    expect(new URL(page.url()).searchParams.get('actor')).toBe(memberId);
    await page.getByLabel('Person').selectOption({ label: OWNER });
    await expect.poll(sentences).toEqual(MADE.filter((sentence) => !/^(Accepted|Failed)/.test(sentence)));

    // The export: the same filters, as JSON lines to download.
    await page.getByLabel('Person').selectOption({ label: 'Anyone' });
    await page.getByLabel('Category').selectOption({ label: 'API keys' });
    await page.getByLabel('Person').selectOption({ label: OWNER });
    await expect.poll(sentences).toEqual(['Revealed API key “Deploy”', 'Created API key “Deploy”']);
    const link = page.getByRole('link', { name: 'Export JSON lines' });
    expect(await link.getAttribute('download')).not.toBeNull();
    const href = new URL((await link.getAttribute('href'))!, server.url);
    expect(href.pathname).toBe(`${DASHBOARD}/workspaces/${workspace.id}/audit/export`);
    expect(Object.fromEntries(href.searchParams)).toEqual({ category: 'api_key', actor: ownerId });
    const exported = await page.request.get(href.toString());
    expect(exported.status()).toBe(200);
    expect(exported.headers()['content-disposition']).toMatch(/^attachment; filename="audit-.*\.jsonl"$/);
    const lines = (await exported.text()).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { action: string }).action)).toEqual([
      'api_key.revealed',
      'api_key.created',
    ]);

    // Whole days in the browser's time zone: today holds all, yesterday nothing; an end before the start asks nothing.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(sentences).toEqual(MADE);
    await page.getByLabel('From').fill(day());
    await page.getByLabel('To', { exact: true }).fill(day());
    await expect.poll(sentences).toEqual(MADE);
    const range = new URL(page.url()).searchParams;
    expect([range.get('from'), range.get('to')]).toEqual([day(), day()]);
    const dated = new URL((await link.getAttribute('href'))!, server.url).searchParams;
    expect([dated.get('since'), dated.get('until')]).toEqual([`${day()}T00:00:00.000Z`, `${day(1)}T00:00:00.000Z`]);

    await page.getByLabel('From').fill(day(-1));
    await page.getByLabel('To', { exact: true }).fill(day(-1));
    await page.getByText('Nothing matches these filters.').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(0);

    await page.getByLabel('From').fill(day());
    await page.getByText('Choose a day on or after the “From” day.').waitFor();
    expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.locator('tbody tr').count()).toBe(0);
    expect(await inspect('team-audit-dates')).toEqual([]);
  });

  it('shows a page at a time: "Load older" appends the next, and a new filter starts again', async () => {
    // Enough renames of the key to spill past the first page.
    const owner = workspaceApi(page, workspace.id);
    const renames = PAGE + 5;
    for (let n = 1; n <= renames; n += 1)
      expect((await owner.patch(`/api-keys/${keyId}`, { name: `Deploy ${n}` })).status).toBe(200);
    const total = MADE.length + renames;

    await openAudit();
    const first = await sentences();
    expect(first).toHaveLength(PAGE);
    expect(first[0]).toBe(`Renamed API key to “Deploy ${renames}”`);
    await page
      .getByRole('status')
      .filter({ hasText: `Showing the newest ${PAGE} entries.` })
      .waitFor();
    expect(await inspect('team-audit-paged')).toEqual([]);

    await loadOlder().click();
    await expect.poll(sentences).toHaveLength(total);
    const all = await sentences();
    expect(all.slice(0, PAGE)).toEqual(first);
    expect(all.slice(renames)).toEqual(MADE);
    expect(await loadOlder().count()).toBe(0);
    const summary = page.getByRole('status').filter({ hasText: `Showing all ${total} entries.` });
    await summary.waitFor();
    // The button it pressed is gone: the focus is on the line that says all is shown.
    expect(await hasFocus(summary)).toBe(true);

    await page.getByLabel('Category').selectOption({ label: 'API keys' });
    await expect.poll(sentences).toHaveLength(PAGE);
    expect((await sentences())[0]).toBe(`Renamed API key to “Deploy ${renames}”`);
    await loadOlder().waitFor();
    await loadOlder().click();
    await expect.poll(sentences).toHaveLength(renames + 2);
    expect((await sentences()).slice(-2)).toEqual(['Revealed API key “Deploy”', 'Created API key “Deploy”']);
  });

  it('is not offered to a member without audit:read, and the server refuses them', async () => {
    await member.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
    await member.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
    const nav = member.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Members' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);

    const refused = await pageFetch(member, 'GET', `${DASHBOARD}/workspaces/${workspace.id}/audit`);
    expect(refused.status).toBe(403);
    await member.goto(`${server.url}/dashboard/w/${workspace.id}/audit`);
    await member.getByRole('alert').filter({ hasText: 'You do not have permission to do this.' }).waitFor();
    expect(await member.locator('tbody tr').count()).toBe(0);
  });
});
