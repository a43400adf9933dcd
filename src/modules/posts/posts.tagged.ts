import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { nowIso } from '../../shared/time.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import { postsRepository } from './posts.repository.js';

/**
 * A tag about to go: every live post that carries it is locked and its version moved, since it answers without
 * the tag from now on (as a detach would leave it). Answers which posts they were, for the write's changes.
 */
export async function touchTaggedPosts(
  trx: ContentTransaction,
  dialect: DialectHelpers,
  workspaceId: string,
  tagId: string,
): Promise<{ id: string; slug: string }[]> {
  const posts = await postsRepository.withTag(trx, workspaceId, tagId, { dialect, strength: 'noKeyUpdate' });
  const now = nowIso();
  for (const post of posts) await postsRepository.update(trx, workspaceId, post, {}, now);
  return posts;
}
