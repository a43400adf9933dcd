import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROLES } from '../../src/security/roles.js';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { desktop, launchBrowser, pageFetch, screenshot, setUpOwner, SKIP_REASON, WIDTHS } from './browser.js';
import { saved, workspaceApi } from './studio-helpers.js';

const suite = SKIP_REASON ? describe.skip : describe;

/** A contributor (posts:draft, no posts:write) writes drafts in the studio, and is offered nothing that publishes. */
suite(`the studio for a contributor${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-contributor-');
  let server: ServerProcess;
  let browser: Browser;
  let ownerContext: BrowserContext;
  let writerContext: BrowserContext;
  let owner: Page;
  let writer: Page;
  let workspace: { id: string; slug: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ QUIRE_DATA_DIR: dir.dataDir }), launchBrowser()]);
    ownerContext = await browser.newContext(desktop);
    owner = await ownerContext.newPage();
    workspace = await setUpOwner(owner, server.url, 'owner@contributor.example.com', 'Drafts Only');
    // Invited as a contributor; this server sends no mail, so the answer carries the link's token.
    const sent = await workspaceApi(owner, workspace.id).post<{ link: string }>('/invitations', {
      email: 'writer@contributor.example.com',
      permissions: ROLES.contributor,
    });
    expect(sent.status).toBe(201);
    writerContext = await browser.newContext(desktop);
    writer = await writerContext.newPage();
    await writer.goto(`${server.url}/dashboard/sign-in`);
    const accepted = await pageFetch(writer, 'POST', '/api/v1/dashboard/invitations/accept', {
      body: { token: sent.body.link.split('#')[1], password: 'a contributor password' },
    });
    expect(accepted.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  it('saves a new draft, and offers no Publish, Archive, review link or Delete', async () => {
    await writer.goto(`${server.url}/dashboard/w/${workspace.id}/posts`);
    await writer.getByRole('link', { name: 'New post' }).click();
    await writer.getByLabel('Title', { exact: true }).fill('A contributor’s first draft');
    await writer.getByRole('button', { name: 'Save draft' }).click();
    await saved(writer);
    expect(await writer.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    const settings = writer
      .getByRole('region', { name: 'Publish' })
      .or(writer.locator('section[aria-labelledby="panel-publish"]'));
    await expect.poll(() => settings.getByText('someone who may publish').count()).toBe(1);
    for (const name of ['Archive', 'Delete post', 'Create review link'])
      expect(await writer.getByRole('button', { name }).count(), name).toBe(0);
    for (const width of WIDTHS) {
      await writer.setViewportSize({ width, height: 900 });
      await screenshot(writer, `studio-contributor-${width}`);
    }
    await writer.setViewportSize(desktop.viewport!);
    const posts = await workspaceApi(owner, workspace.id).get<{ data: Array<{ title: string; status: string }> }>(
      '/posts',
    );
    expect(posts.body.data).toEqual([
      expect.objectContaining({ title: 'A contributor’s first draft', status: 'draft' }),
    ]);
  });

  it('may edit a draft but not a published post', async () => {
    const api = workspaceApi(owner, workspace.id);
    const live = await api.post<{ id: string }>('/posts', { title: 'Already live', status: 'published' });
    const draft = await api.post<{ id: string }>('/posts', { title: 'Still a draft' });
    await writer.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${live.body.id}`);
    await writer.getByRole('heading', { level: 1, name: 'Already live' }).waitFor();
    expect(await writer.getByRole('link', { name: 'Edit post' }).count()).toBe(0);
    await writer.goto(`${server.url}/dashboard/w/${workspace.id}/posts/${draft.body.id}`);
    await writer.getByRole('heading', { level: 1, name: 'Still a draft' }).waitFor();
    await writer.getByRole('link', { name: 'Edit post' }).click();
    await writer.getByLabel('Title', { exact: true }).fill('Still a draft, better');
    await writer.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(writer);
    expect((await api.get<{ title: string }>(`/posts/${draft.body.id}`)).body.title).toBe('Still a draft, better');
  });
});
