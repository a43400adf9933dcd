import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { compileSerializer } from '../../http/serialization.js';
import { jsonWithRaw } from '../../shared/json.js';
import type { ContentKind, Snapshot } from '../../writes/kinds.js';
import { postColumns } from './posts.columns.js';
import { postsRepository } from './posts.repository.js';
import { Post } from './posts.schemas.js';

/**
 * The writable fields of posts as their rows hold them inside the write: every field of the column map, the
 * bodies in their stored form (heading ids assigned, no image urls) and the live related posts in order. A
 * PATCH of these fields makes the post what it was.
 */
async function postSnapshots(
  trx: Kysely<Database>,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, Snapshot>> {
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
        status: row.status,
        fields: jsonWithRaw(postColumns.read(row), {
          bodyJson: row.body_json,
          structuredBlocks: row.structured_blocks,
          relatedPostIds: JSON.stringify(related.get(row.id) ?? []),
        }),
      },
    ]),
  );
}

/** What the write path needs of posts: their webhook answer and their revisions (writes/kinds.ts). */
export const postKind: ContentKind = { serialize: compileSerializer(Post), snapshots: postSnapshots };
