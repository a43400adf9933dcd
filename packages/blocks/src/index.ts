export {
  BLOCK_LIMITS,
  BLOCK_TYPES,
  type Block,
  type BlockType,
  type BlockWrite,
  type CalloutBlock,
  type CalloutVariant,
  type CodeBlock,
  type CommonBlock,
  type CtaBlock,
  type DividerBlock,
  type FaqBlock,
  type FaqItem,
  type HeadingBlock,
  type HeadingBlockWrite,
  type HeadingLevel,
  type ImageBlock,
  type ImageBlockWrite,
  type ImagePlaceholder,
  type ImageSrcset,
  type KeyTakeawaysBlock,
  type ListBlock,
  type ParagraphBlock,
  type QuoteBlock,
  type SrcsetEntry,
  type StoredBlock,
  type StoredImageBlock,
  type TocItem,
  type TweetEmbedBlock,
  type VideoEmbedBlock,
} from './types.js';
export {
  bodyText,
  headingIdFrom,
  headingIds,
  imageMediaIds,
  kebabCase,
  readingTimeMin,
  tocItems,
  wordCount,
  WORDS_PER_MINUTE,
} from './derive.js';
export { parseInline, plainText, strongLead } from './inline.js';
export { DEFAULT_SIZES, renderBlocks, renderInline, type RenderOptions } from './render.js';
export { postEmbedOf, videoEmbedOf, type PostEmbed, type VideoEmbed, type VideoProvider } from './embeds.js';
export { enhanceEmbeds } from './enhance.js';
export {
  type ConversionNote,
  type ConversionNoteKind,
  type ConversionReport,
  type ConversionResult,
  type ConvertOptions,
  type ImageRef,
  escapeMarkdown,
  excerptOf,
  linkDestination,
} from './convert-report.js';
export { htmlToBlocks } from './html-to-blocks.js';
export { markdownToBlocks } from './markdown-to-blocks.js';
