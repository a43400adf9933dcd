import type { Kysely } from 'kysely';
import { imageMediaIds, type BlockWrite, type StoredBlock } from '@quire/blocks';
import type { DialectHelpers } from '../db/dialects/dialect.js';
import { existingIds } from '../db/references.js';
import type { Database } from '../db/schema.js';
import { invalid, type ValidationIssue } from '../errors.js';

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
  dialect: DialectHelpers,
  workspaceId: string,
  pointer: string,
  blocks: readonly BlockWrite[] | undefined,
  stored: readonly StoredBlock[],
): Promise<ValidationIssue[]> {
  if (!blocks) return [];
  const known = await existingIds(db, dialect, 'media', workspaceId, imageMediaIds(blocks));
  return imageIssues(pointer, blocks, stored, known);
}

interface SeoImages {
  og?: { imageMediaId?: string | undefined } | undefined;
  twitter?: { imageMediaId?: string | undefined } | undefined;
}

/**
 * Refuses (400, naming the path) an `seo.og.imageMediaId` or `seo.twitter.imageMediaId` that is not a
 * media row of the bound workspace, as every other media reference is. An id the stored seo already
 * held is kept, as image blocks keep theirs: media deletion does not rewrite seo, so the round trip
 * GET → edit → PATCH of an seo whose image was deleted since must still work.
 */
export async function checkSeoMedia(
  db: Kysely<Database>,
  dialect: DialectHelpers,
  workspaceId: string,
  seo: SeoImages | null | undefined,
  storedSeoJson: string | null = null,
): Promise<void> {
  const stored = storedSeoJson === null ? null : (JSON.parse(storedSeoJson) as SeoImages | null);
  // Compared lower-cased, as both dialects would compare the ids (PostgreSQL's uuid type ignores case).
  const held = new Set([stored?.og?.imageMediaId?.toLowerCase(), stored?.twitter?.imageMediaId?.toLowerCase()]);
  const refs = (['og', 'twitter'] as const)
    .map((part) => ({ path: `/seo/${part}/imageMediaId`, id: seo?.[part]?.imageMediaId?.toLowerCase() }))
    .filter((ref): ref is { path: string; id: string } => ref.id !== undefined && !held.has(ref.id));
  const known = await existingIds(
    db,
    dialect,
    'media',
    workspaceId,
    refs.map((ref) => ref.id),
  );
  const issues = refs
    .filter((ref) => !known.has(ref.id))
    .map((ref): ValidationIssue => ({
      in: 'body',
      path: ref.path,
      message: 'no media with this id in this workspace',
    }));
  if (issues.length > 0) throw invalid(issues);
}
