import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';
import { compileSerializer } from './http/serialization.js';
import { Author } from './modules/authors/authors.schemas.js';
import { Category } from './modules/categories/categories.schemas.js';
import { Media } from './modules/media/media.schemas.js';
import { pageColumns } from './modules/pages/pages.columns.js';
import { pagesRepository } from './modules/pages/pages.repository.js';
import { Page } from './modules/pages/pages.schemas.js';
import { postColumns } from './modules/posts/posts.columns.js';
import { postsRepository } from './modules/posts/posts.repository.js';
import { Post } from './modules/posts/posts.schemas.js';
import { Redirect } from './modules/redirects/redirects.schemas.js';
import { SiteSettings } from './modules/site-settings/site-settings.schemas.js';
import { Tag } from './modules/tags/tags.schemas.js';
import type { ContentKinds, Snapshot } from './writes/kinds.js';

type Executor = Kysely<Database>;

/**
 * The writable fields of posts as their rows hold them inside the write: every field of the column map, the
 * bodies in their stored form (heading ids assigned, no image urls) and the live related posts in order. A
 * PATCH of these fields makes the post what it was.
 */
async function postSnapshots(trx: Executor, workspaceId: string, ids: string[]): Promise<Map<string, Snapshot>> {
  const rows = await postsRepository.findByIds(trx, workspaceId, ids);
  const related = new Map<string, string[]>();
  for (const row of await postsRepository.relatedOf(trx, workspaceId, ids))
    related.set(row.post_id, [...(related.get(row.post_id) ?? []), row.id]);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        slug: row.slug,
        title: row.title,
        fields: {
          ...postColumns.read(row),
          bodyJson: JSON.parse(row.body_json) as unknown,
          structuredBlocks: JSON.parse(row.structured_blocks) as unknown,
          relatedPostIds: related.get(row.id) ?? [],
        },
      },
    ]),
  );
}

/** The writable fields of pages as their rows hold them inside the write (see postSnapshots). */
async function pageSnapshots(trx: Executor, workspaceId: string, ids: string[]): Promise<Map<string, Snapshot>> {
  const rows = await pagesRepository.findByIds(trx, workspaceId, ids);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        slug: row.slug,
        title: row.title,
        fields: { ...pageColumns.read(row), bodyJson: JSON.parse(row.body_json) as unknown },
      },
    ]),
  );
}

/**
 * Every kind of content the write path writes, as it needs them (writes/kinds.ts): each answer serialized as
 * the external API answers it, fields the schema lacks left out (a webhook's `data`), and the revision
 * snapshots of posts and pages. createServices hands them to the write path.
 */
export const CONTENT_KINDS: ContentKinds = {
  post: { serialize: compileSerializer(Post), snapshots: postSnapshots },
  page: { serialize: compileSerializer(Page), snapshots: pageSnapshots },
  media: { serialize: compileSerializer(Media) },
  author: { serialize: compileSerializer(Author) },
  category: { serialize: compileSerializer(Category) },
  tag: { serialize: compileSerializer(Tag) },
  redirect: { serialize: compileSerializer(Redirect) },
  settings: { serialize: compileSerializer(SiteSettings) },
};
