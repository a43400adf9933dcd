import { badRequest } from '../errors.js';
import { createMediaStorage } from '../modules/media/storage/storage.js';
import type { Runtime } from '../runtime.js';
import { MAX_POSTS, seedWorkspace, type SeedSummary } from './seed.js';

export const DEFAULT_POSTS = 100;

/** `--posts`: a whole number from 1 to 1,000,000; absent means 100. */
export function parsePostCount(raw: string | boolean | undefined): number {
  if (raw === undefined) return DEFAULT_POSTS;
  const text = typeof raw === 'string' ? raw.trim() : '';
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_POSTS))
    throw badRequest(`--posts must be a whole number from 1 to ${MAX_POSTS}, got ${JSON.stringify(text)}`);
  return value;
}

/** `quire seed`: what the CLI runs, with a progress line on an interactive terminal. */
export async function seedCommand(
  runtime: Runtime,
  workspace: string,
  posts: number,
  { quiet = false } = {},
): Promise<SeedSummary> {
  const target = await runtime.services.accounts.requireWorkspace(workspace);
  const progress = !quiet && process.stderr.isTTY;
  const summary = await seedWorkspace(runtime.database, {
    workspaceId: target.id,
    posts,
    storage: createMediaStorage(runtime.config),
    ...(progress
      ? { onProgress: (done: number, total: number) => process.stderr.write(`\rseeding: ${done}/${total} posts`) }
      : {}),
  });
  if (progress) process.stderr.write('\r\x1b[K');
  return summary;
}

export function describeSeed(summary: SeedSummary): string {
  const { posts, authors, categories, tags, media, seconds, workspaceId } = summary;
  return `Seeded workspace ${workspaceId} in ${seconds.toFixed(1)} s: ${posts} posts, ${authors} authors, ${categories} categories, ${tags} tags, ${media} media.`;
}
