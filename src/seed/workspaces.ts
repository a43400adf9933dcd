import { COMMAND_LINE } from '../audit/audit-log.js';
import { badRequest } from '../errors.js';
import { checkWorkspaceName } from '../modules/accounts/accounts.service.js';
import { createMediaStorage } from '../modules/media/storage/storage.js';
import { silentProgress, type Progress } from '../operate/progress.js';
import type { Runtime } from '../runtime.js';
import { parseCountFlag } from './command.js';
import { analyzeSeeded, MAX_POSTS, seedWorkspace } from './seed.js';

/** A bound on one command's workspaces: ten thousand is ten times what the tenant benchmark asks for. */
export const MAX_WORKSPACES = 10_000;

export interface SeededWorkspace {
  id: string;
  slug: string;
  /** A key of the owner with every permission, named "seed": the only time it is shown. */
  key: string;
}

/** `--count`: a whole number from 1 to MAX_WORKSPACES. */
export function parseWorkspaceCount(raw: string | boolean | undefined): number {
  return parseCountFlag('count', raw, MAX_WORKSPACES);
}

/**
 * `quire seed workspaces`: `count` new workspaces of one owner, named "<name> 1" … "<name> N", each with
 * a key and `posts` seeded posts, in one process (what many tenants cost is measured on such a set:
 * docs/performance.md, "A thousand workspaces"). Each workspace is made, keyed and seeded before the next
 * begins; a failure stops the command, and the workspaces made before it stay, their keys unprinted (`quire key
 * create` gives them one).
 */
export async function seedWorkspacesCommand(
  runtime: Runtime,
  options: { count: number; posts: number; owner: string; name: string },
  progress: Progress = silentProgress,
): Promise<SeededWorkspace[]> {
  const { count, posts, owner, name } = options;
  if (count * posts > MAX_POSTS)
    throw badRequest(`--count × --posts must be at most ${MAX_POSTS} posts in all, got ${count * posts}`);
  const { accounts, apiKeys } = runtime.services;
  // The longest name is the last: refused before the first workspace is made, it leaves none behind.
  checkWorkspaceName(`${name} ${count}`);
  const storage = createMediaStorage(runtime.config);
  const seeded: SeededWorkspace[] = [];
  progress.start(`seed ${count} workspaces`, count, 'workspaces');
  for (let index = 1; index <= count; index += 1) {
    const workspace = await accounts.createWorkspace(`${name} ${index}`, owner);
    const issued = await apiKeys.issueKey(
      workspace.id,
      workspace.ownerUserId,
      { name: 'seed', expiresAt: null },
      COMMAND_LINE,
    );
    await seedWorkspace(runtime.database, { workspaceId: workspace.id, posts, storage, analyze: false });
    seeded.push({ id: workspace.id, slug: workspace.slug, key: issued.key });
    progress.update(index);
  }
  await analyzeSeeded(runtime.database);
  progress.end();
  return seeded;
}

export function describeSeededWorkspaces(seeded: SeededWorkspace[]): string {
  return [
    `Seeded ${seeded.length} workspace${seeded.length === 1 ? '' : 's'}; each key is shown only now:`,
    ...seeded.map((workspace) => `${workspace.slug}  ${workspace.id}  ${workspace.key}`),
  ].join('\n');
}
