import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ROLES } from '../../src/security/roles.js';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import {
  axeViolations,
  desktop,
  fitsWidth,
  launchBrowser,
  pageFetch,
  screenshot,
  settled,
  setUpOwner,
  SKIP_REASON,
  WIDTHS,
} from './browser.js';
import { workspaceApi } from './studio-helpers.js';

const OWNER = 'owner@roles.example.com';
const WRITER = 'writer@roles.example.com';
const THIRD = 'third@roles.example.com';
const DASHBOARD = '/api/v1/dashboard';
const suite = SKIP_REASON ? describe.skip : describe;

const RESOURCE_LABELS: Record<string, string> = {
  posts: 'Posts',
  pages: 'Pages',
  media: 'Media',
  authors: 'Authors',
  categories: 'Categories',
  tags: 'Tags',
  redirects: 'Redirects',
  'link-health': 'Link health',
  'api-keys': 'API keys',
  webhooks: 'Webhooks',
  'site-settings': 'Site settings',
};
/** The label the grid gives a permission's checkbox. */
function labelOf(permission: string): string {
  if (permission === 'members:write') return 'Manage members and invitations';
  if (permission === 'site-settings:write') return 'Edit site settings';
  if (permission === 'audit:read') return 'Read the audit log';
  const [resource, access] = permission.split(':') as [string, string];
  const name = RESOURCE_LABELS[resource]!;
  return access === 'draft' ? `${name}: drafts only (write drafts, cannot publish)` : `${name}: ${access}`;
}

/** The names of the checked boxes in `scope`: their aria-label, or the text of the label around them. */
const checkedLabels = (scope: Locator) =>
  scope.locator('input[type="checkbox"]:checked').evaluateAll((inputs) =>
    inputs.map((input) => {
      const el = input as unknown as { getAttribute(n: string): string | null; closest(s: string): unknown };
      const label = el.closest('label') as { textContent: string | null } | null;
      return el.getAttribute('aria-label') ?? label?.textContent?.trim() ?? '';
    }),
  );
const sorted = (list: readonly string[]) => [...list].sort();

/** Roles in the invite and permissions dialogs, the Role column, managing by permission, and ending sessions. */
suite(`members with roles in Chromium${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, { timeout: 30_000 }, () => {
  const dir = tempDir('quire-roles-');
  let server: ServerProcess;
  let browser: Browser;
  let ownerContext: BrowserContext;
  let writerContext: BrowserContext;
  /** The owner's. */
  let page: Page;
  /** The invited member's: a contributor, then an admin, then an editor who manages members. */
  let writer: Page;
  let workspace: { id: string; slug: string };

  const openMembers = async (on: Page) => {
    await on.goto(`${server.url}/dashboard/w/${workspace.id}/members`);
    await on.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await settled(on);
  };
  const memberRow = (on: Page, email: string) => on.locator('tbody tr', { hasText: email });
  const roleOfRow = (on: Page, email: string) => memberRow(on, email).locator('[data-label="Role"]').textContent();
  /** Screenshots at both widths; says what axe and the width check found rather than failing at the first. */
  const inspect = async (on: Page, name: string) => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await on.setViewportSize({ width, height: width < 800 ? 812 : 900 });
      await screenshot(on, `${name}-${width}`);
      if (!(await fitsWidth(on))) problems.push(`${name} at ${width}px scrolls sideways`);
      for (const v of await axeViolations(on))
        problems.push(`${name} at ${width}px: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
    }
    await on.setViewportSize(desktop.viewport!);
    return problems;
  };
  /** Opens the permissions dialog of `email` from `on`'s members table. */
  const editPermissions = async (on: Page, email: string) => {
    await memberRow(on, email)
      .getByRole('button', { name: `Edit permissions of ${email}` })
      .click();
    return on.getByRole('dialog', { name: `Permissions of ${email}` });
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
    // axe is injected as a script tag, which the dashboard's Content-Security-Policy would (rightly) block.
    ownerContext = await browser.newContext({ ...desktop, bypassCSP: true });
    page = await ownerContext.newPage();
    writerContext = await browser.newContext({ ...desktop, bypassCSP: true });
    writer = await writerContext.newPage();
    workspace = await setUpOwner(page, server.url, OWNER, 'Role Play');
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('invites as a Contributor: the role fills the grid, a hand edit reads Custom, the table says Contributor', async () => {
    await openMembers(page);
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a member' });
    const role = dialog.getByRole('group', { name: 'Role' });
    // A new invitation starts as a Contributor.
    expect(await role.getByRole('radio', { name: 'Contributor' }).isChecked()).toBe(true);
    expect(sorted(await checkedLabels(dialog))).toEqual(sorted(ROLES.contributor.map(labelOf)));
    await dialog.getByText('Writes drafts and uploads media; cannot publish').waitFor();

    await role.getByRole('radio', { name: 'Editor' }).check();
    expect(sorted(await checkedLabels(dialog))).toEqual(sorted(ROLES.editor.map(labelOf)));
    await role.getByRole('radio', { name: 'Contributor' }).check();
    expect(sorted(await checkedLabels(dialog))).toEqual(sorted(ROLES.contributor.map(labelOf)));
    // By hand: no longer a preset, then the preset again.
    await dialog.getByLabel('Tags: read').uncheck();
    expect(await role.getByRole('radio', { name: 'Custom' }).isChecked()).toBe(true);
    await dialog.getByLabel('Tags: read').check();
    expect(await role.getByRole('radio', { name: 'Contributor' }).isChecked()).toBe(true);

    await dialog.getByLabel('Email', { exact: true }).fill(WRITER);
    const problems = await inspect(page, 'team-roles-invite');
    await dialog.getByRole('button', { name: 'Create invitation' }).click();
    const shown = page.getByRole('dialog', { name: 'Pass the link on' });
    const link = await shown.getByLabel(`Invitation link for ${WRITER}`).inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();

    await writer.goto(`${server.url}/dashboard/sign-in`);
    const accepted = await pageFetch(writer, 'POST', `${DASHBOARD}/invitations/accept`, {
      body: { token: link.slice(link.indexOf('#') + 1), password: 'a writer’s password' },
    });
    expect(accepted.status).toBe(200);
    await openMembers(page);
    expect(await roleOfRow(page, WRITER)).toBe('Contributor');
    expect(await roleOfRow(page, OWNER)).toBe('Owner');
    expect(problems).toEqual([]);
  });

  it('makes them an Admin, then a manager without everything: they may manage, but grant only what they hold', async () => {
    // A third member, for the manager to edit.
    const sent = await workspaceApi(page, workspace.id).post<{ link: string }>('/invitations', {
      email: THIRD,
      permissions: ROLES.contributor,
    });
    expect(sent.status).toBe(201);
    const throwaway = await browser.newContext(desktop);
    try {
      const third = await throwaway.newPage();
      await third.goto(`${server.url}/dashboard/sign-in`);
      const accepted = await pageFetch(third, 'POST', `${DASHBOARD}/invitations/accept`, {
        body: { token: sent.body.link.split('#')[1], password: 'a third password' },
      });
      expect(accepted.status).toBe(200);
    } finally {
      await throwaway.close();
    }

    await openMembers(page);
    let dialog = await editPermissions(page, WRITER);
    await dialog.getByRole('radio', { name: 'Admin' }).check();
    expect(await dialog.getByLabel('Manage members and invitations').isChecked()).toBe(true);
    expect(await dialog.getByLabel('Edit site settings').isChecked()).toBe(true);
    const problems = await inspect(page, 'team-roles-edit');
    await dialog.getByRole('button', { name: 'Save permissions' }).click();
    await dialog.waitFor({ state: 'detached' });
    await settled(page);
    expect(await roleOfRow(page, WRITER)).toBe('Admin');

    // The admin manages members, but does not transfer the workspace nor end anyone's sessions.
    await openMembers(writer);
    await writer.getByRole('button', { name: 'Invite member' }).waitFor();
    await memberRow(writer, THIRD)
      .getByRole('button', { name: `Edit permissions of ${THIRD}` })
      .waitFor();
    expect(await writer.getByRole('button', { name: /Transfer/ }).count()).toBe(0);
    expect(await writer.getByRole('button', { name: /End sessions/ }).count()).toBe(0);
    expect(await memberRow(writer, OWNER).getByRole('button').count()).toBe(0);

    // Now an Editor who also manages members: a custom set, lacking keys, webhooks, drafts-only and settings.
    dialog = await editPermissions(page, WRITER);
    await dialog.getByRole('radio', { name: 'Editor' }).check();
    await dialog.getByLabel('Manage members and invitations').check();
    expect(await dialog.getByRole('radio', { name: 'Custom' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Save permissions' }).click();
    await dialog.waitFor({ state: 'detached' });
    await settled(page);
    expect(await roleOfRow(page, WRITER)).toBe('Custom');
    expect(await roleOfRow(page, THIRD)).toBe('Contributor');
    problems.push(...(await inspect(page, 'team-roles-table')));

    await openMembers(writer);
    dialog = await editPermissions(writer, THIRD);
    for (const lacking of ['api-keys:read', 'webhooks:write', 'posts:draft', 'site-settings:write'])
      expect(await dialog.getByLabel(labelOf(lacking)).isDisabled(), lacking).toBe(true);
    for (const held of ['posts:write', 'tags:write', 'members:write'])
      expect(await dialog.getByLabel(labelOf(held)).isEnabled(), held).toBe(true);
    await dialog.getByText('Greyed-out boxes are permissions you do not hold yourself').waitFor();
    // Contributor holds drafts-only, Admin everything: neither can they grant. Editor they can.
    expect(await dialog.getByRole('radio', { name: 'Admin' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('radio', { name: 'Contributor' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('radio', { name: 'Editor' }).isEnabled()).toBe(true);
    problems.push(...(await inspect(writer, 'team-roles-manager-edit')));
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Forced past the disabled box, the server refuses, naming what they lack.
    const third = (
      await pageFetch<Array<{ userId: string; email: string }>>(
        writer,
        'GET',
        `${DASHBOARD}/workspaces/${workspace.id}/members`,
      )
    ).body.find((m) => m.email === THIRD)!;
    const forced = await pageFetch<{ error: { details?: { permissions?: string[] } } }>(
      writer,
      'PATCH',
      `${DASHBOARD}/workspaces/${workspace.id}/members/${third.userId}`,
      { body: { permissions: ['posts:read', 'api-keys:read'] }, csrf: true },
    );
    expect(forced.status).toBe(403);
    expect(JSON.stringify(forced.body)).toContain('api-keys:read');
    expect(problems).toEqual([]);
  });

  it('ends a member’s sessions: the owner confirms, and their next page asks them to sign in', async () => {
    await openMembers(writer);
    await openMembers(page);
    await memberRow(page, WRITER)
      .getByRole('button', { name: `End sessions of ${WRITER}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `Sign ${WRITER} out everywhere?` });
    await confirm.getByText('They can sign in again.').waitFor();
    await confirm.getByRole('button', { name: 'End sessions' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(page.getByRole('status').filter({ hasText: 'Signed ' }).textContent()).resolves.toBe(
      `Signed ${WRITER} out of 1 session.`,
    );

    await writer.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
    await writer.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The owner is still signed in.
    expect((await pageFetch(page, 'GET', `${DASHBOARD}/session`)).status).toBe(200);
  });
});
