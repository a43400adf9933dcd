import type { StoredBlock } from '@quire/blocks';
import type { PostRow } from '../../db/schema.js';
import { parseJson } from '../../shared/json.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import { readabilityScore } from '../seo/readability.js';
import { seoScore } from '../seo/seo-score.js';
import type { Seo } from '../seo/seo.schemas.js';
import { postsRepository } from './posts.repository.js';

type ScoredFields = Pick<
  PostRow,
  'title' | 'slug' | 'excerpt' | 'seo' | 'body_json' | 'body_text' | 'word_count' | 'featured_media_id'
>;

/**
 * The two stored scores of a post, from the row as it will be written (docs/seo.md). Readability reads the
 * text alone, and counting a long body's syllables was the larger half of scoring a title's PATCH: given
 * the row as it was, an unchanged text keeps its score.
 */
export function scoreColumns(
  row: ScoredFields,
  previous?: Pick<PostRow, 'body_text' | 'readability_score'>,
  blocks: readonly StoredBlock[] = JSON.parse(row.body_json) as StoredBlock[],
): { seo_score: number; readability_score: number } {
  return {
    seo_score: seoScore({
      title: row.title,
      slug: row.slug,
      excerpt: row.excerpt,
      seo: parseJson<Seo>(row.seo),
      blocks,
      bodyText: row.body_text,
      wordCount: row.word_count,
      featuredMediaId: row.featured_media_id,
    }),
    readability_score:
      previous !== undefined && previous.body_text === row.body_text
        ? previous.readability_score
        : readabilityScore(row.body_text),
  };
}

/**
 * Rescores posts whose inputs changed behind their back: a media row's deletion clears their featured image
 * through the foreign key, or leaves an image block of theirs without its file. One read and one update per
 * affected post, which moves its version (postsRepository.update); their text did not change, so each keeps
 * its readability score, as a PATCH that leaves the text alone does.
 */
export async function rescorePosts(
  trx: ContentTransaction,
  workspaceId: string,
  postIds: readonly string[],
): Promise<void> {
  if (postIds.length === 0) return;
  const rows = await trx
    .selectFrom('posts')
    .select([
      'id',
      'title',
      'slug',
      'excerpt',
      'seo',
      'body_json',
      'body_text',
      'word_count',
      'featured_media_id',
      'readability_score',
      'updated_at',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...postIds])
    .execute();
  for (const row of rows) {
    await postsRepository.update(trx, workspaceId, row, scoreColumns(row, row));
  }
}
