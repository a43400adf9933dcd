import type { Kysely } from 'kysely';
import { imageMediaIds, type BlockWrite, type StoredBlock } from '@quire/blocks';
import { imageIssues } from '../../blocks/image-references.js';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
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

/**
 * Every referenced id must be a live row of the bound workspace; one from another workspace and one
 * that does not exist are refused alike (400), naming the field.
 */
export async function checkPostReferences(
  db: Kysely<Database>,
  dialect: DialectHelpers,
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
    existingIds(db, dialect, 'media', workspaceId, mediaIds),
    existingIds(db, dialect, 'authors', workspaceId, refs.authorId ? [refs.authorId] : []),
    existingIds(db, dialect, 'categories', workspaceId, refs.categoryId ? [refs.categoryId] : []),
    existingIds(db, dialect, 'posts', workspaceId, refs.relatedPostIds ?? []),
  ]);
  const issues: ValidationIssue[] = [];
  const missing = (path: string, what: string) =>
    issues.push({ in: 'body', path, message: `no ${what} with this id in this workspace` });
  if (refs.featuredMediaId && !media.has(refs.featuredMediaId)) missing('/featuredMediaId', 'media');
  if (refs.authorId && !authors.has(refs.authorId)) missing('/authorId', 'author');
  if (refs.categoryId && !categories.has(refs.categoryId)) missing('/categoryId', 'category');
  refs.relatedPostIds?.forEach((id, index) => {
    if (id === stored.postId)
      issues.push({ in: 'body', path: `/relatedPostIds/${index}`, message: 'a post cannot be related to itself' });
    else if (!posts.has(id)) missing(`/relatedPostIds/${index}`, 'live post');
  });
  issues.push(
    ...imageIssues('/bodyJson', refs.bodyJson, stored.body, media),
    ...imageIssues('/structuredBlocks', refs.structuredBlocks, stored.structuredBlocks, media),
  );
  if (issues.length > 0) throw invalid(issues);
}
