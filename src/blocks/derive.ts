import { invalid, type ValidationIssue } from '../errors.js';
import { kebabCase } from '../shared/slug.js';
import type { BlockWrite, StoredBlock } from './blocks.schemas.js';

export const WORDS_PER_MINUTE = 230;

/**
 * The version of the rules behind every derived field (bodyText, word count, reading time, heading
 * ids, tocItems, seoScore, readabilityScore; docs/seo.md). Sent as `Quire-Derived-Version` on every
 * external response; a change of rule raises it, and the migration that ships it re-derives every row.
 */
export const DERIVED_FIELDS_VERSION = 1;

export interface TocItem {
  level: 2 | 3 | 4;
  text: string;
  id: string;
}

/** The human-readable text fields of one block, in reading order (contract §6). */
function blockTexts(block: BlockWrite | StoredBlock): string[] {
  switch (block.type) {
    case 'paragraph':
    case 'heading':
      return [block.text];
    case 'list':
    case 'key_takeaways':
      return block.items;
    case 'quote':
      return [block.text, block.attribution ?? ''];
    case 'callout':
      return [block.title ?? '', block.body];
    case 'image':
      return [block.caption ?? ''];
    case 'video_embed':
      return [block.title ?? ''];
    case 'faq':
      return block.items.flatMap((item) => [item.question, item.answer]);
    case 'cta':
      return [block.title, block.body, block.linkLabel];
    case 'code':
    case 'divider':
    case 'tweet_embed':
      return [];
  }
}

/**
 * bodyText: fields of one block joined by `\n`, blocks by `\n\n`; code, URLs, alt texts and dividers
 * contribute nothing, and an empty field or block leaves no empty segment.
 */
export function bodyText(blocks: ReadonlyArray<BlockWrite | StoredBlock>): string {
  const segments: string[] = [];
  for (const block of blocks) {
    const texts = blockTexts(block).filter((text) => text.trim() !== '');
    if (texts.length > 0) segments.push(texts.join('\n'));
  }
  return segments.join('\n\n');
}

export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** ceil(words / 230), at least 1: 230 words read in one minute, 231 in two, an empty body in one. */
export function readingTimeMin(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** A heading's id derived from its text; `section` when nothing is left. */
export function headingIdFrom(text: string): string {
  return kebabCase(text) || 'section';
}

/**
 * Gives every heading an id. Explicit ids are kept and must be unique (two equal → 400). A derived id
 * is the kebab-case of the text with `-1`, `-2` … appended until it differs from every explicit id in
 * the body and every id derived before it, so that ids are unique in the document whatever the order.
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

  const used = new Set(explicit.keys());
  return blocks.map((block): StoredBlock => {
    if (block.type === 'image') {
      // The url of a write is accepted so GET → edit → PATCH round trips work, and never stored.
      const stored: StoredBlock = { type: 'image', mediaId: block.mediaId };
      if (block.alt !== undefined) stored.alt = block.alt;
      if (block.caption !== undefined) stored.caption = block.caption;
      return stored;
    }
    if (block.type !== 'heading' || block.id !== undefined) return block as StoredBlock;
    const base = headingIdFrom(block.text);
    let id = base;
    for (let suffix = 1; used.has(id); suffix += 1) id = `${base}-${suffix}`;
    used.add(id);
    return { ...block, id };
  });
}

export function tocItems(blocks: readonly StoredBlock[]): TocItem[] {
  const items: TocItem[] = [];
  for (const block of blocks)
    if (block.type === 'heading') items.push({ level: block.level, text: block.text, id: block.id });
  return items;
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

/** Media ids of the image blocks of a body, in order, without repeats. */
export function imageMediaIds(blocks: ReadonlyArray<BlockWrite | StoredBlock>): string[] {
  const ids = new Set<string>();
  for (const block of blocks) if (block.type === 'image') ids.add(block.mediaId);
  return [...ids];
}
