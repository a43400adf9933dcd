import type { Kysely } from 'kysely';
import { imageMediaIds, type StoredBlock } from '@quire/blocks';
import type { Database, StoredPost } from '../../db/schema.js';
import { authorsRepository } from '../authors/authors.repository.js';
import { categoriesRepository } from '../categories/categories.repository.js';
import { mediaRepository } from '../media/media.repository.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import { presentTag } from '../tags/tags.presenter.js';
import { presentPost } from './posts.presenter.js';
import { postsRepository } from './posts.repository.js';
import type { ParsedPost, PostEmbeds } from './posts.embeds.types.js';
import type { Post } from './posts.schemas.js';

export function parsePost(row: StoredPost): ParsedPost {
  return {
    row,
    body: JSON.parse(row.body_json) as StoredBlock[],
    structuredBlocks: JSON.parse(row.structured_blocks) as StoredBlock[],
  };
}

function groupBy<T extends { post_id: string }, U>(rows: readonly T[], map: (row: T) => U): Map<string, U[]> {
  const groups = new Map<string, U[]>();
  for (const row of rows) {
    const group = groups.get(row.post_id);
    if (group) group.push(map(row));
    else groups.set(row.post_id, [map(row)]);
  }
  return groups;
}

function byId<T extends { id: string }>(rows: readonly T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Six queries at most for any number of posts: site settings, tags, related posts, authors,
 * categories with their ancestors, then every media row (featured images, avatars, image blocks of
 * every body and the site logo) in ONE lookup.
 */
export async function loadPostEmbeds(
  db: Kysely<Database>,
  workspaceId: string,
  posts: readonly ParsedPost[],
): Promise<PostEmbeds> {
  const ids = posts.map((p) => p.row.id);
  const authorIds = posts.flatMap((p) => (p.row.author_id ? [p.row.author_id] : []));
  const categoryIds = posts.flatMap((p) => (p.row.category_id ? [p.row.category_id] : []));
  const [settings, tagRows, relatedRows, authorRows, categoryRows] = await Promise.all([
    loadSiteSettings(db, workspaceId),
    postsRepository.tagsOf(db, workspaceId, ids),
    postsRepository.relatedOf(db, workspaceId, ids),
    authorsRepository.findMany(db, workspaceId, authorIds),
    categoriesRepository.findManyWithAncestors(db, workspaceId, categoryIds),
  ]);
  const mediaIds = [
    ...posts.flatMap((p) => (p.row.featured_media_id ? [p.row.featured_media_id] : [])),
    ...posts.flatMap((p) => [...imageMediaIds(p.body), ...imageMediaIds(p.structuredBlocks)]),
    ...authorRows.flatMap((a) => (a.avatar_media_id ? [a.avatar_media_id] : [])),
    ...(settings.logoMediaId ? [settings.logoMediaId] : []),
  ];
  const mediaRows = await mediaRepository.findMany(db, workspaceId, mediaIds);
  return {
    settings,
    tags: groupBy(tagRows, presentTag),
    related: groupBy(relatedRows, (row) => row),
    authors: byId(authorRows),
    categories: byId(categoryRows),
    media: byId(mediaRows),
  };
}

/** Posts as the API answers them, with everything they embed: a fixed number of queries for any number of posts. */
export async function presentPosts(
  db: Kysely<Database>,
  workspaceId: string,
  posts: readonly ParsedPost[],
  publicUrl: string,
): Promise<Post[]> {
  const embeds = await loadPostEmbeds(db, workspaceId, posts);
  return posts.map((post) => presentPost(post, embeds, publicUrl));
}
