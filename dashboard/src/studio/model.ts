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

/** The blocks typed as text in the document (the others are cards, code and the divider). */
export const TEXT_TYPES = ['paragraph', 'heading', 'quote', 'list'] as const;

/**
 * A block being written. An image block may lack its media until one is chosen; everything else is the API's
 * own block object, kept as read so that an untouched block goes back exactly as it came.
 */
export type EditorBlock =
  Block | { type: 'image'; mediaId: string; alt?: string; caption?: string; url?: string | null };

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
export function localIssues(title: string, excerpt: string, blocks: readonly EditorBlock[]): Record<string, string> {
  const issues: Record<string, string> = {};
  if (title.length > LIMITS.title) issues['/title'] = tooLong(LIMITS.title);
  if (excerpt.length > LIMITS.excerpt) issues['/excerpt'] = tooLong(LIMITS.excerpt);
  if (blocks.length > LIMITS.blocks)
    issues['/bodyJson'] =
      `A body holds at most ${LIMITS.blocks.toLocaleString()} blocks; this one has ${blocks.length}.`;
  blocks.forEach((block, index) => {
    const at = `/bodyJson/${index}`;
    if (block.type === 'paragraph' && block.text.length > LIMITS.paragraph)
      issues[`${at}/text`] =
        `A paragraph holds at most ${LIMITS.paragraph.toLocaleString()} characters; this one has ${block.text.length.toLocaleString()}. Split it in two.`;
    if (
      (block.type === 'video_embed' || block.type === 'tweet_embed') &&
      block.url &&
      !/^https?:\/\/\S+$/.test(block.url)
    )
      issues[`${at}/url`] = 'Enter a full address, starting with https://';
  });
  return issues;
}

/**
 * Blocks just inserted and not filled in yet: an image with no media, a video or social post with no address. They
 * hold the save back (the server would refuse them) but are no error: the writer has not typed anything wrong.
 * The words say what is missing, for the save line.
 */
export function unfinished(blocks: readonly EditorBlock[]): string | null {
  const missing = new Set<string>();
  for (const block of blocks) {
    if (block.type === 'image' && !block.mediaId) missing.add('an image block needs its image');
    if ((block.type === 'video_embed' || block.type === 'tweet_embed') && !block.url)
      missing.add(`a ${block.type === 'video_embed' ? 'video' : 'social post'} block needs its address`);
  }
  if (missing.size === 0) return null;
  const words = [...missing].join(', and ');
  return `Not saved yet: ${words} (or delete it).`;
}
