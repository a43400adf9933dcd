import type { Kysely } from 'kysely';
import type { BlockWrite, StoredBlock } from '../../blocks/blocks.schemas.js';
import { imageMediaIds } from '../../blocks/derive.js';
import { existingIds } from '../../db/references.js';
import type { Database } from '../../db/schema.js';
import { invalid, type ValidationIssue } from '../../errors.js';

export interface PostReferences {
  featuredMediaId?: string | null | undefined;
  authorId?: string | null | undefined;
  categoryId?: string | null | undefined;
  relatedPostIds?: readonly string[] | undefined;
  bodyJson?: readonly BlockWrite[] | undefined;
  structuredBlocks?: readonly BlockWrite[] | undefined;
}

export interface StoredBodies {
  postId: string | null;
  body: readonly StoredBlock[];
  structuredBlocks: readonly StoredBlock[];
}

/** Image blocks whose media is new to the stored body; a media id the body already held is kept even if deleted since. */
function newImageIssues(
  pointer: string,
  blocks: readonly BlockWrite[] | undefined,
  stored: readonly StoredBlock[],
  known: Set<string>,
): Array<{ path: string; id: string }> {
  if (!blocks) return [];
  const held = new Set(imageMediaIds(stored));
  const out: Array<{ path: string; id: string }> = [];
  blocks.forEach((block, index) => {
    if (block.type === 'image' && !held.has(block.mediaId) && !known.has(block.mediaId))
      out.push({ path: `${pointer}/${index}/mediaId`, id: block.mediaId });
  });
  return out;
}

/**
 * Every referenced id must be a live row of the bound workspace; one from another workspace and one
 * that does not exist are refused alike (400), naming the field.
 */
export async function checkPostReferences(
  db: Kysely<Database>,
  workspaceId: string,
  refs: PostReferences,
  stored: StoredBodies,
): Promise<void> {
  const mediaIds = [
    ...(refs.featuredMediaId ? [refs.featuredMediaId] : []),
    ...imageMediaIds(refs.bodyJson ?? []),
    ...imageMediaIds(refs.structuredBlocks ?? []),
  ];
  const [media, authors, categories, posts] = await Promise.all([
    existingIds(db, 'media', workspaceId, mediaIds),
    existingIds(db, 'authors', workspaceId, refs.authorId ? [refs.authorId] : []),
    existingIds(db, 'categories', workspaceId, refs.categoryId ? [refs.categoryId] : []),
    existingIds(db, 'posts', workspaceId, refs.relatedPostIds ?? []),
  ]);
  const issues: ValidationIssue[] = [];
  const missing = (path: string, what: string) =>
    issues.push({ in: 'body', path, message: `no ${what} with this id in this workspace` });
  if (refs.featuredMediaId && !media.has(refs.featuredMediaId)) missing('/featuredMediaId', 'media');
  if (refs.authorId && !authors.has(refs.authorId)) missing('/authorId', 'author');
  if (refs.categoryId && !categories.has(refs.categoryId)) missing('/categoryId', 'category');
  refs.relatedPostIds?.forEach((id, index) => {
    // The schema's uniqueItems is case-sensitive; the same post twice would break the table's key.
    if (refs.relatedPostIds!.indexOf(id) < index)
      issues.push({ in: 'body', path: `/relatedPostIds/${index}`, message: 'this post is already listed' });
    else if (id === stored.postId)
      issues.push({ in: 'body', path: `/relatedPostIds/${index}`, message: 'a post cannot be related to itself' });
    else if (!posts.has(id)) missing(`/relatedPostIds/${index}`, 'live post');
  });
  for (const issue of [
    ...newImageIssues('/bodyJson', refs.bodyJson, stored.body, media),
    ...newImageIssues('/structuredBlocks', refs.structuredBlocks, stored.structuredBlocks, media),
  ]) {
    missing(issue.path, 'media');
  }
  if (issues.length > 0) throw invalid(issues);
}
