/*
 * The block format as plain types: what a client writes (BlockWrite), what the database holds (StoredBlock) and
 * what every read answers (Block). The server's TypeBox schemas (src/blocks/blocks.schemas.ts) are checked at
 * compile time to describe exactly these types.
 */

/** Limits of the specification, and Quire's where it is silent (docs/decisions.md). */
export const BLOCK_LIMITS = {
  blocksPerBody: 1000,
  paragraphText: 10_000,
  text: 10_000,
  code: 100_000,
  url: 2_000,
  listItems: 500,
  faqItems: { min: 1, max: 50 },
  keyTakeaways: { min: 1, max: 10 },
  headingId: 200,
} as const;

export const BLOCK_TYPES = [
  'paragraph',
  'heading',
  'list',
  'image',
  'code',
  'quote',
  'divider',
  'callout',
  'video_embed',
  'tweet_embed',
  'faq',
  'cta',
  'key_takeaways',
] as const;

export type BlockType = (typeof BLOCK_TYPES)[number];
export type HeadingLevel = 2 | 3 | 4;

export type ParagraphBlock = { type: 'paragraph'; text: string };
export type ListBlock = { type: 'list'; style: 'bullet' | 'ordered'; items: string[] };
export type CodeBlock = { type: 'code'; language: string; code: string };
export type QuoteBlock = { type: 'quote'; text: string; attribution?: string };
export type DividerBlock = { type: 'divider' };
export type CalloutVariant = 'info' | 'warning' | 'success' | 'error';
export type CalloutBlock = { type: 'callout'; variant: CalloutVariant; title?: string; body: string };
export type VideoEmbedBlock = { type: 'video_embed'; url: string; title?: string };
export type TweetEmbedBlock = { type: 'tweet_embed'; url: string };
export type FaqItem = { question: string; answer: string };
export type FaqBlock = { type: 'faq'; items: FaqItem[] };
export type CtaBlock = {
  type: 'cta';
  title: string;
  body: string;
  linkUrl: string;
  linkLabel: string;
  variant: 'default' | 'outlined';
};
export type KeyTakeawaysBlock = { type: 'key_takeaways'; items: string[] };

/** The blocks whose shape is the same written, stored and read. */
export type CommonBlock =
  | ParagraphBlock
  | ListBlock
  | CodeBlock
  | QuoteBlock
  | DividerBlock
  | CalloutBlock
  | VideoEmbedBlock
  | TweetEmbedBlock
  | FaqBlock
  | CtaBlock
  | KeyTakeawaysBlock;

/** A heading as a client writes it: its id may be left out (one is derived from its text). */
export type HeadingBlockWrite = { type: 'heading'; level: HeadingLevel; text: string; id?: string };
/** A heading as stored and read: it always has its id. */
export type HeadingBlock = { type: 'heading'; level: HeadingLevel; text: string; id: string };

export type SrcsetEntry = { width: number; url: string };
/** Resized copies of an image, per format, narrowest first. */
export type ImageSrcset = { avif: SrcsetEntry[]; webp: SrcsetEntry[]; original: SrcsetEntry[] };
/** A tiny blurred preview (a WebP data URI) and the dominant colour (#rrggbb), to hold the image's place. */
export type ImagePlaceholder = { dataUri: string; color: string };

/**
 * An image as a client writes it: the url and what a read adds beside it are accepted back (a read sent back as it
 * came) and never stored.
 */
export type ImageBlockWrite = {
  type: 'image';
  mediaId: string;
  alt?: string;
  caption?: string;
  url?: string | null;
  width?: unknown;
  height?: unknown;
  srcset?: unknown;
  placeholder?: unknown;
};
/** An image as every read answers it: url null once its media is gone (and nothing beside it then). */
export type ImageBlock = {
  type: 'image';
  mediaId: string;
  alt?: string;
  caption?: string;
  url: string | null;
  width?: number | null;
  height?: number | null;
  srcset?: ImageSrcset | null;
  placeholder?: ImagePlaceholder | null;
};
/** An image as the database holds it: its media, never its url. */
export type StoredImageBlock = { type: 'image'; mediaId: string; alt?: string; caption?: string };

export type BlockWrite = CommonBlock | HeadingBlockWrite | ImageBlockWrite;
export type Block = CommonBlock | HeadingBlock | ImageBlock;
/** What the database holds: headings with ids, images without urls. */
export type StoredBlock = CommonBlock | HeadingBlock | StoredImageBlock;

/** One entry of a body's table of contents: a heading's level, text and id. */
export type TocItem = { level: HeadingLevel; text: string; id: string };
