import type { Block } from '../types.js';
import { tooLong } from '../validation-words.js';

/** The API's limits a writer should meet before saving (src/blocks/blocks.schemas.ts, contract §5). */
export const LIMITS = {
  blocks: 1000,
  paragraph: 10_000,
  title: 300,
  excerpt: 1000,
  faq: { min: 1, max: 50 },
  takeaways: { min: 1, max: 10 },
} as const;

export type BlockType = Block['type'];

export const BLOCK_LABELS: Record<BlockType, string> = {
  paragraph: 'Paragraph',
  heading: 'Heading',
  list: 'List',
  image: 'Image',
  code: 'Code',
  quote: 'Quote',
  divider: 'Divider',
  callout: 'Callout',
  video_embed: 'Video',
  tweet_embed: 'Social post',
  faq: 'FAQ',
  cta: 'Call to action',
  key_takeaways: 'Key takeaways',
};

export const BLOCK_TYPES = Object.keys(BLOCK_LABELS) as BlockType[];

/** The types a paragraph turns into and back: their text carries over. */
export const TEXT_TYPES = ['paragraph', 'heading', 'quote', 'list'] as const;
export type TextType = (typeof TEXT_TYPES)[number];

/**
 * A block being written. An image block may lack its media until one is chosen; everything else is the API's
 * own block object, kept as read so that an untouched block goes back exactly as it came.
 */
export type EditorBlock =
  Block | { type: 'image'; mediaId: string; alt?: string; caption?: string; url?: string | null };

export interface Item {
  /** React's key: blocks have no ids of their own. */
  key: string;
  block: EditorBlock;
}

let counter = 0;
export const newKey = () => `b${(counter += 1)}`;

export function blankBlock(type: BlockType): EditorBlock {
  switch (type) {
    case 'paragraph':
      return { type, text: '' };
    case 'heading':
      return { type, level: 2, text: '' } as EditorBlock;
    case 'list':
      return { type, style: 'bullet', items: [''] };
    case 'image':
      return { type, mediaId: '' };
    case 'code':
      return { type, language: '', code: '' };
    case 'quote':
      return { type, text: '' };
    case 'divider':
      return { type };
    case 'callout':
      return { type, variant: 'info', body: '' };
    case 'video_embed':
      return { type, url: '' };
    case 'tweet_embed':
      return { type, url: '' };
    case 'faq':
      return { type, items: [{ question: '', answer: '' }] };
    case 'cta':
      return { type, title: '', body: '', linkUrl: '', linkLabel: '', variant: 'default' };
    case 'key_takeaways':
      return { type, items: [''] };
  }
}

/** The text a paragraph, heading, quote or list holds, to carry it into another of those types. */
function textOf(block: EditorBlock): string {
  if (block.type === 'list') return block.items.join('\n');
  if ('text' in block && typeof block.text === 'string') return block.text;
  return '';
}

export function turnInto(block: EditorBlock, type: TextType): EditorBlock {
  if (block.type === type) return block;
  const text = textOf(block);
  switch (type) {
    case 'paragraph':
      return { type, text };
    case 'heading':
      // A new heading gets its id from the server, derived from its text.
      return { type, level: 2, text: text.replace(/\n+/g, ' ') } as EditorBlock;
    case 'quote':
      return { type, text };
    case 'list':
      return { type, style: 'bullet', items: text.split('\n') };
  }
}

/** A copy to insert after the original; a heading's id is left to the server, as two equal ids are refused. */
export function duplicate(block: EditorBlock): EditorBlock {
  const copy = structuredClone(block) as Record<string, unknown>;
  if (copy.type === 'heading') delete copy.id;
  return copy as EditorBlock;
}

export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list as T[];
  const next = list.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** Lowercase `a-z0-9` words joined by `-`, as the server derives a slug from a title (contract §5). */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '');
}

/** Problems the server would refuse, found before saving: JSON Pointer → words. */
export function localIssues(title: string, excerpt: string, items: readonly Item[]): Record<string, string> {
  const issues: Record<string, string> = {};
  if (title.length > LIMITS.title) issues['/title'] = tooLong(LIMITS.title);
  if (excerpt.length > LIMITS.excerpt) issues['/excerpt'] = tooLong(LIMITS.excerpt);
  if (items.length > LIMITS.blocks)
    issues['/bodyJson'] =
      `A body holds at most ${LIMITS.blocks.toLocaleString()} blocks; this one has ${items.length}.`;
  items.forEach(({ block }, index) => {
    const at = `/bodyJson/${index}`;
    if (block.type === 'paragraph' && block.text.length > LIMITS.paragraph)
      issues[`${at}/text`] =
        `A paragraph holds at most ${LIMITS.paragraph.toLocaleString()} characters; this one has ${block.text.length.toLocaleString()}. Split it in two.`;
    if (block.type === 'image' && !block.mediaId) issues[`${at}/mediaId`] = 'Choose an image, or delete this block.';
    if ((block.type === 'video_embed' || block.type === 'tweet_embed') && !/^https?:\/\/\S+$/.test(block.url))
      issues[`${at}/url`] = 'Enter a full address, starting with https://';
  });
  return issues;
}
