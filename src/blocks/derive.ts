import {
  bodyText,
  headingIds,
  readingTimeMin,
  tocItems,
  wordCount,
  type BlockWrite,
  type StoredBlock,
  type TocItem,
} from '@quire/blocks';
import { invalid, type ValidationIssue } from '../errors.js';

/**
 * The version of the rules behind every derived field (bodyText, word count, reading time, heading
 * ids, tocItems, seoScore, readabilityScore; docs/seo.md; the first five are @quire/blocks'). Sent as
 * `Quire-Derived-Version` on every external response; a change of rule raises it, and the migration that
 * ships it re-derives every row.
 */
export const DERIVED_FIELDS_VERSION = 1;

/**
 * Gives every heading an id (@quire/blocks' headingIds: explicit ids kept, derived ones unique in the
 * document whatever the order). Explicit ids must be unique: two equal → 400 naming the second.
 */
export function assignHeadingIds(blocks: readonly BlockWrite[], pointer = '/bodyJson'): StoredBlock[] {
  const explicit = new Map<string, number>();
  const issues: ValidationIssue[] = [];
  blocks.forEach((block, index) => {
    if (block.type !== 'heading' || block.id === undefined) return;
    const first = explicit.get(block.id);
    if (first === undefined) explicit.set(block.id, index);
    else
      issues.push({
        in: 'body',
        path: `${pointer}/${index}/id`,
        message: `heading id "${block.id}" is already used by block ${first}`,
      });
  });
  if (issues.length > 0) throw invalid(issues);

  const ids = headingIds(blocks);
  let headings = 0;
  return blocks.map((block): StoredBlock => {
    if (block.type === 'image') {
      // The url of a write is accepted so GET → edit → PATCH round trips work, and never stored.
      const stored: StoredBlock = { type: 'image', mediaId: block.mediaId };
      if (block.alt !== undefined) stored.alt = block.alt;
      if (block.caption !== undefined) stored.caption = block.caption;
      return stored;
    }
    if (block.type !== 'heading') return block;
    const id = ids[headings++]!;
    return block.id === id ? (block as StoredBlock) : { ...block, id };
  });
}

export interface DerivedBody {
  blocks: StoredBlock[];
  bodyText: string;
  wordCount: number;
  readingTimeMin: number;
  tocItems: TocItem[];
}

/** Everything recomputed on each write of a body. */
export function deriveBody(blocks: readonly BlockWrite[], pointer = '/bodyJson'): DerivedBody {
  const stored = assignHeadingIds(blocks, pointer);
  const text = bodyText(stored);
  const words = wordCount(text);
  return {
    blocks: stored,
    bodyText: text,
    wordCount: words,
    readingTimeMin: readingTimeMin(words),
    tocItems: tocItems(stored),
  };
}
