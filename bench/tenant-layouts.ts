import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createDatabase, datasetEnv, dropDatabase } from './dataset.js';
import type { Dialect } from './flags.js';
import { quire } from './processes.js';

/*
 * The two ways of holding the same number of posts that bench:scale compares: `many` workspaces of a few
 * posts each, and `one` workspace of all of them. Each is seeded by one `quire seed workspaces` and kept
 * beside its data as layout.json, so a later run can reuse it (`--reuse`).
 */

export type LayoutName = 'many' | 'one';

export interface Layout {
  name: LayoutName;
  dialect: Dialect;
  dataDir: string;
  databaseUrl: string | null;
  /** Every workspace of the layout and its owner's key. */
  workspaces: Array<{ id: string; slug: string; key: string }>;
  postsPerWorkspace: number;
  seedSeconds: number;
}

const MANIFEST = 'layout.json';
const OWNER = 'scale@example.com';

export function readLayout(root: string, name: LayoutName, dialect: Dialect): Layout | null {
  const file = path.join(root, name, MANIFEST);
  if (!fs.existsSync(file)) return null;
  const layout = JSON.parse(fs.readFileSync(file, 'utf8')) as Layout;
  if (layout.dialect !== dialect)
    throw new Error(`${file} holds a ${layout.dialect} layout; run with --db ${layout.dialect}`);
  return layout;
}

/** Seeds `workspaces` × `posts` under root/name; the seed's JSON (every key) stays beside the data, mode 0600. */
export async function seedLayout(
  root: string,
  name: LayoutName,
  dialect: Dialect,
  workspaces: number,
  posts: number,
  log: (line: string) => void,
): Promise<Layout> {
  const dataDir = path.join(root, name, 'data');
  const databaseUrl = dialect === 'postgres' ? await createDatabase() : null;
  const env = datasetEnv({ dataDir, databaseUrl });
  try {
    await quire(
      ['user', 'create', '--email', OWNER, `--password=${crypto.randomBytes(18).toString('base64url')}`],
      env,
    );
    log(`seeding ${name}: ${workspaces} workspace(s) of ${posts} posts on ${dialect}`);
    const started = performance.now();
    const seeded = await quire<Layout['workspaces']>(
      ['seed', 'workspaces', '--count', String(workspaces), '--posts', String(posts), '--owner', OWNER, '--name', name],
      env,
      // Several times the seed's pace (docs/performance.md, "A thousand workspaces"): only a stuck seed meets it.
      600_000 + workspaces * posts * 20 + workspaces * 3_000,
    );
    const layout: Layout = {
      name,
      dialect,
      dataDir,
      databaseUrl,
      workspaces: seeded,
      postsPerWorkspace: posts,
      seedSeconds: Math.round(performance.now() - started) / 1000,
    };
    fs.writeFileSync(path.join(root, name, MANIFEST), `${JSON.stringify(layout)}\n`, { mode: 0o600 });
    return layout;
  } catch (error) {
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl).catch(() => undefined);
    throw error;
  }
}

export async function disposeLayout(layout: Layout): Promise<void> {
  fs.rmSync(path.dirname(layout.dataDir), { recursive: true, force: true });
  if (layout.databaseUrl) await dropDatabase(layout.databaseUrl);
}
