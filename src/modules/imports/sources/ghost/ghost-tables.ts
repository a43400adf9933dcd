import { readExport, type Row } from './ghost-json.js';

/*
 * The first pass over an export: the small tables that say who wrote a post, how it is tagged and what its SEO
 * is, held in memory so the second pass can stream the posts one at a time and complete each from them.
 */

export interface PostTag {
  tagId: string;
  sortOrder: number;
}

export interface GhostTables {
  meta: Row | null;
  users: Row[];
  tags: Row[];
  /** By post id, in the export's order (sorted by sort_order when read). */
  postsTags: Map<string, PostTag[]>;
  /** Author ids by post id, by sort_order. */
  postsAuthors: Map<string, string[]>;
  postsMeta: Map<string, Row>;
  /** The settings' values by key (`url`, `title`). */
  settings: Map<string, unknown>;
  /** Rows of `posts`: posts and pages. */
  postCount: number;
}

const RELATIONS = new Set(['users', 'tags', 'posts_tags', 'posts_authors', 'posts_meta', 'settings']);

export const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

const order = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function byOrder<T extends { sortOrder: number }>(map: Map<string, T[]>): void {
  for (const list of map.values()) list.sort((a, b) => a.sortOrder - b.sortOrder);
}

export async function collectTables(file: string): Promise<GhostTables> {
  const tables: GhostTables = {
    meta: null,
    users: [],
    tags: [],
    postsTags: new Map(),
    postsAuthors: new Map(),
    postsMeta: new Map(),
    settings: new Map(),
    postCount: 0,
  };
  const authors = new Map<string, Array<{ authorId: string; sortOrder: number }>>();
  for await (const event of readExport(file, { assemble: RELATIONS, count: new Set(['posts']) })) {
    if (event.kind === 'meta') {
      tables.meta ??= event.value;
      continue;
    }
    if (event.kind === 'counted') {
      tables.postCount += 1;
      continue;
    }
    const row = event.value;
    const postId = text(row.post_id);
    switch (event.table) {
      case 'users':
        tables.users.push(row);
        break;
      case 'tags':
        tables.tags.push(row);
        break;
      case 'posts_tags': {
        const tagId = text(row.tag_id);
        if (postId === null || tagId === null) break;
        const list = tables.postsTags.get(postId) ?? [];
        list.push({ tagId, sortOrder: order(row.sort_order) });
        tables.postsTags.set(postId, list);
        break;
      }
      case 'posts_authors': {
        const authorId = text(row.author_id);
        if (postId === null || authorId === null) break;
        const list = authors.get(postId) ?? [];
        list.push({ authorId, sortOrder: order(row.sort_order) });
        authors.set(postId, list);
        break;
      }
      case 'posts_meta':
        if (postId !== null) tables.postsMeta.set(postId, row);
        break;
      case 'settings': {
        const key = text(row.key);
        if (key !== null) tables.settings.set(key, row.value);
        break;
      }
    }
  }
  byOrder(tables.postsTags);
  byOrder(authors);
  for (const [postId, list] of authors)
    tables.postsAuthors.set(
      postId,
      list.map((entry) => entry.authorId),
    );
  return tables;
}
