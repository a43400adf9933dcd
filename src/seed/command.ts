import { silentProgress, type Progress } from '../operate/progress.js';
import { badRequest } from '../errors.js';
import { createMediaStorage } from '../modules/media/storage/storage.js';
import type { Runtime } from '../runtime.js';
import { MAX_POSTS, seedWorkspace, type SeedSummary } from './seed.js';

export const DEFAULT_POSTS = 100;

/** A count flag's value: a whole number from 1 to `max`, or a 400 naming the flag and what it got. */
export function parseCountFlag(flag: string, raw: string | boolean | undefined, max: number): number {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= max))
    throw badRequest(`--${flag} must be a whole number from 1 to ${max}, got ${JSON.stringify(text)}`);
  return value;
}

/** `--posts`: a whole number from 1 to 1,000,000; absent means 100. */
export function parsePostCount(raw: string | boolean | undefined): number {
  return raw === undefined ? DEFAULT_POSTS : parseCountFlag('posts', raw, MAX_POSTS);
}

/** `quire seed`: what the CLI runs, showing its progress in posts. */
export async function seedCommand(
  runtime: Runtime,
  workspace: string,
  posts: number,
  progress: Progress = silentProgress,
): Promise<SeedSummary> {
  const target = await runtime.services.accounts.requireWorkspace(workspace);
  progress.start(`seed ${target.slug}`, posts, 'posts');
  const summary = await seedWorkspace(runtime.database, {
    workspaceId: target.id,
    posts,
    storage: createMediaStorage(runtime.config),
    onProgress: (done) => progress.update(done),
  });
  progress.end();
  return summary;
}

export function describeSeed(summary: SeedSummary): string {
  const { posts, authors, categories, tags, media, seconds, workspaceId } = summary;
  return `Seeded workspace ${workspaceId} in ${seconds.toFixed(1)} s: ${posts} posts, ${authors} authors, ${categories} categories, ${tags} tags, ${media} media.`;
}
