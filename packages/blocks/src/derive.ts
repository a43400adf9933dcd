import type { Block, BlockWrite, HeadingLevel, StoredBlock, TocItem } from './types.js';

/** Any of the three shapes of a block: the derivations read only what they share. */
type AnyBlock = Block | BlockWrite | StoredBlock;

export const WORDS_PER_MINUTE = 230;

/**
 * Kebab-case of a text (contract §6): NFKD with combining marks removed, lowercased, every run of characters
 * other than a-z and 0-9 made one `-`, leading and trailing `-` trimmed. May be empty.
 */
export function kebabCase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A heading's id derived from its text; `section` when nothing is left. */
export function headingIdFrom(text: string): string {
  return kebabCase(text) || 'section';
}

/**
 * The id of every heading of a body, in order. An explicit id is kept as it is; a derived one is the kebab-case
 * of the text with `-1`, `-2` … appended until it differs from every explicit id in the body and every id
 * derived before it, so that ids are unique in the document whatever the order. Reads always carry ids; a body
 * being written (a preview) may not.
 */
export function headingIds(blocks: readonly AnyBlock[]): string[] {
  const used = new Set<string>();
  for (const block of blocks) if (block.type === 'heading' && block.id !== undefined) used.add(block.id);
  const ids: string[] = [];
  for (const block of blocks) {
    if (block.type !== 'heading') continue;
    if (block.id !== undefined) {
      ids.push(block.id);
      continue;
    }
    const base = headingIdFrom(block.text);
    let id = base;
    for (let suffix = 1; used.has(id); suffix += 1) id = `${base}-${suffix}`;
    used.add(id);
    ids.push(id);
  }
  return ids;
}

/** The table of contents of a body: its headings in order, each with its id (derived where it has none). */
export function tocItems(blocks: readonly AnyBlock[]): TocItem[] {
  const ids = headingIds(blocks);
  const items: TocItem[] = [];
  for (const block of blocks)
    if (block.type === 'heading')
      items.push({ level: block.level as HeadingLevel, text: block.text, id: ids[items.length]! });
  return items;
}

/** The human-readable text fields of one block, in reading order (contract §6). */
function blockTexts(block: AnyBlock): string[] {
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
export function bodyText(blocks: readonly AnyBlock[]): string {
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

/** Media ids of the image blocks of a body, in order, without repeats. */
export function imageMediaIds(blocks: readonly AnyBlock[]): string[] {
  const ids = new Set<string>();
  for (const block of blocks) if (block.type === 'image') ids.add(block.mediaId);
  return [...ids];
}
