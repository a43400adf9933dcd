import type { Kysely } from 'kysely';
import { existingIds } from '../db/references.js';
import type { Database } from '../db/schema.js';
import type { ValidationIssue } from '../errors.js';
import type { BlockWrite, StoredBlock } from './blocks.schemas.js';
import { imageMediaIds } from './derive.js';

/**
 * Issues for image blocks whose media is neither among `known` (media of the bound workspace) nor already
 * held by the stored body: a media id the body held is kept even when its media was deleted since (it reads
 * `url: null`), so GET → edit → PATCH round trips keep working (contract §5).
 */
export function imageIssues(
  pointer: string,
  blocks: readonly BlockWrite[] | undefined,
  stored: readonly StoredBlock[],
  known: ReadonlySet<string>,
): ValidationIssue[] {
  if (!blocks) return [];
  const held = new Set(imageMediaIds(stored));
  const issues: ValidationIssue[] = [];
  blocks.forEach((block, index) => {
    if (block.type === 'image' && !held.has(block.mediaId) && !known.has(block.mediaId))
      issues.push({
        in: 'body',
        path: `${pointer}/${index}/mediaId`,
        message: 'no media with this id in this workspace',
      });
  });
  return issues;
}

/** The same check for one body, with its own lookup of the media ids it names. */
export async function imageReferenceIssues(
  db: Kysely<Database>,
  workspaceId: string,
  pointer: string,
  blocks: readonly BlockWrite[] | undefined,
  stored: readonly StoredBlock[],
): Promise<ValidationIssue[]> {
  if (!blocks) return [];
  const known = await existingIds(db, 'media', workspaceId, imageMediaIds(blocks));
  return imageIssues(pointer, blocks, stored, known);
}
