import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { EXTERNAL, startServer, tempDir, type Env, type ServerProcess } from '../e2e/helpers.js';
import { desktop, launchBrowser, setUpOwner } from './browser.js';
import { body, workspaceApi } from './studio-helpers.js';

type Json = Record<string, unknown>;

export interface StudioSuite {
  server: ServerProcess;
  browser: Browser;
  /** A desktop page signed in as the owner (CSP bypassed: axe is injected as a script tag). */
  page: Page;
  workspace: { id: string; slug: string };
  /** A key that reads through the external API, to see what a site would. */
  key: string;
  /** GET on the external API with the key; a 200 is expected. */
  external(path: string): Promise<Json>;
  /** A post made through the dashboard API; its id. */
  newPost(fields: Json): Promise<string>;
  /** Opens a post in the studio and waits for its body. */
  edit(id: string): Promise<void>;
}

/**
 * The set-up every writing-surface suite shares: a server on a data dir of its own, Chromium, an owner with a
 * workspace and a reading key; torn down after the suite. Call it inside the suite's describe; `env` adds to the
 * server's environment.
 */
export function studioSuite(prefix: string, owner: string, workspaceName: string, env: Env = {}): StudioSuite {
  const dir = tempDir(prefix);
  const suite = {
    async external(path: string): Promise<Json> {
      const response = await suite.server.fetch(`${EXTERNAL}${path}`, { headers: { 'X-API-Key': suite.key } });
      expect(response.status).toBe(200);
      return (await response.json()) as Json;
    },
    async newPost(fields: Json): Promise<string> {
      const created = await workspaceApi(suite.page, suite.workspace.id).post('/posts', fields);
      expect(created.status).toBe(201);
      return created.body.id as string;
    },
    async edit(id: string): Promise<void> {
      await suite.page.goto(`${suite.server.url}/dashboard/w/${suite.workspace.id}/posts/${id}/edit`);
      await body(suite.page).waitFor();
    },
  } as StudioSuite;

  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([
      startServer({ ...env, QUIRE_DATA_DIR: dir.dataDir }),
      launchBrowser(),
    ]);
    suite.page = await (await suite.browser.newContext({ ...desktop, bypassCSP: true })).newPage();
    suite.workspace = await setUpOwner(suite.page, suite.server.url, owner, workspaceName);
    const created = await workspaceApi(suite.page, suite.workspace.id).post('/api-keys', { name: 'Reader' });
    suite.key = created.body.key as string;
  }, 120_000);
  afterAll(async () => {
    await suite.browser?.close().catch(() => undefined);
    await suite.server?.stop().catch(() => undefined);
    dir.remove();
  });
  return suite;
}
