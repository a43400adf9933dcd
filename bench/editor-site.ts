import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BlockWrite } from '@quire/blocks';
import sharp from 'sharp';
import { datasetEnv } from './dataset.js';
import { BIN, binNodeFlags, freePort, launch, waitFor, type Child } from './processes.js';

/*
 * The Quire `npm run bench:editor` opens the studio of: `quire serve` on a new SQLite data dir, set up through the
 * dashboard's own API (owner, workspace, an uploaded image, posts), as the dashboard itself would make them.
 */

const DASHBOARD_API = '/api/v1/dashboard';

export interface EditorSite {
  url: string;
  /** The owner's session cookie, for the browser. */
  cookie: { name: string; value: string };
  workspaceId: string;
  mediaId: string;
  /** A new draft post of `body`; its id. */
  newPost(body: BlockWrite[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startEditorSite(): Promise<EditorSite> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-editor-'));
  const port = await freePort();
  const env = {
    ...datasetEnv({ dataDir: path.join(root, 'data'), databaseUrl: null }),
    HOST: '127.0.0.1',
    PORT: String(port),
    QUIRE_RATE_LIMIT_MAX: '1000000000',
  };
  let server: Child | null = null;
  const stop = async () => {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    server = launch([...binNodeFlags(), BIN, 'serve'], env, port);
    await waitFor(`${server.url}/healthz`, {}, performance.now(), 30_000, server);
    const url = server.url;

    const setup = await fetch(`${url}${DASHBOARD_API}/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.com',
        password: crypto.randomBytes(18).toString('base64url'),
        workspaceName: 'Editor bench',
      }),
    });
    if (setup.status !== 201) throw new Error(`POST /setup answered ${setup.status}: ${await setup.text()}`);
    const session = (await setup.json()) as { csrfToken: string; workspaces: Array<{ id: string }> };
    const [name, value] = (setup.headers.getSetCookie()[0] ?? '').split(';', 1)[0]!.split('=') as [string, string];
    const workspaceId = session.workspaces[0]!.id;
    const headers = { cookie: `${name}=${value}`, 'x-csrf-token': session.csrfToken };
    const at = (pathname: string) => `${url}${DASHBOARD_API}/workspaces/${workspaceId}${pathname}`;

    const form = new FormData();
    const jpeg = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 90, g: 120, b: 160 } },
    })
      .jpeg()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'harbour.jpg');
    form.append('alt', 'A harbour at dusk');
    const upload = await fetch(at('/media'), { method: 'POST', headers, body: form });
    if (upload.status !== 201) throw new Error(`POST /media answered ${upload.status}: ${await upload.text()}`);
    const mediaId = ((await upload.json()) as { id: string }).id;

    let posts = 0;
    return {
      url,
      cookie: { name, value },
      workspaceId,
      mediaId,
      async newPost(body) {
        posts += 1;
        const response = await fetch(at('/posts'), {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `A thousand blocks, ${posts}`, status: 'draft', bodyJson: body }),
        });
        if (response.status !== 201)
          throw new Error(`POST /posts answered ${response.status}: ${await response.text()}`);
        return ((await response.json()) as { id: string }).id;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
