import { BLOCK_LIMITS, type BlockWrite } from './types.js';

/*
 * What the converters (html-to-blocks.ts, markdown-to-blocks.ts) share: their options, their report, the escaping
 * of text into inline Markdown and the fitting of a body into the block limits. Nothing of the input is lost
 * without a word: what has no block, what was approximated, cut or split, and every image is in the report.
 */

export interface ConvertOptions {
  /**
   * The media id of an image found in the input, or null when it has none (yet). An image resolved becomes an
   * image block where it stood; one not resolved is left out of the blocks and reported (`report.images` with
   * `mediaId: null`, and a note), so a caller can upload the sources and convert again with their ids.
   */
  resolveImage?: (src: string, alt: string) => string | null;
}

/** An image of the input: its source as written, its alt text, its caption, and the media id it resolved to. */
export interface ImageRef {
  type: 'image';
  src: string;
  alt: string;
  caption?: string;
  mediaId: string | null;
}

export type ConversionNoteKind =
  /** Content with no block (a table, an audio file, a script, a form…): not in the blocks. */
  | 'unsupported'
  /** Content given a block that holds it only in part (a nested list flattened, a table as paragraphs). */
  | 'approximated'
  /** An image no media id was found for: not in the blocks. */
  | 'unresolved-image'
  /** A link whose URL may not be one (javascript:, data:…): kept as its text. */
  | 'link-removed'
  /** A field over its limit, cut; or blocks over the body's limit, left out. */
  | 'truncated'
  /** A block over its limit, made into several. */
  | 'split';

export interface ConversionNote {
  kind: ConversionNoteKind;
  /** What it was about: an element's name (`table`, `iframe`), a Markdown node's type, or a block's type. */
  element: string;
  /** The start of the source it was read from (at most 120 characters), to find it again. */
  excerpt: string;
}

export interface ConversionReport {
  notes: ConversionNote[];
  images: ImageRef[];
}

export interface ConversionResult {
  blocks: BlockWrite[];
  report: ConversionReport;
}

const EXCERPT = 120;

/** A source shortened for a note: white space collapsed, at most 120 characters. */
export function excerptOf(source: string): string {
  const text = source.replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
}

/**
 * Text as inline Markdown that reads back as the same text: every character that could open an inline construct
 * (emphasis, code, link, autolink, strikethrough, escape) is escaped, and `&` where it would start a character
 * reference.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<~]|&(?=#?[A-Za-z0-9]+;)/g, (char) => `\\${char}`);
}

/** A URL as a Markdown link destination: in angle brackets when it holds a space or a parenthesis. */
export function linkDestination(url: string): string {
  // `&` escaped where it would start a character reference: the destination is read as it was checked.
  const escaped = url.replace(/\\|&(?=#?[A-Za-z0-9]+;)/g, (char) => `\\${char}`);
  return /[\s()<>]/.test(url) ? `<${escaped.replace(/[<>]/g, (char) => `\\${char}`)}>` : escaped;
}

/** The longest start of `text` within `max` characters, cut at a space when one is near, else anywhere. */
function cut(text: string, max: number): [head: string, rest: string] {
  if (text.length <= max) return [text, ''];
  const space = text.lastIndexOf(' ', max);
  const at = space > max / 2 ? space : max;
  return [text.slice(0, at).trimEnd(), text.slice(at).trimStart()];
}

/**
 * The blocks within BLOCK_LIMITS: a paragraph over its length becomes several, a list or a FAQ over its items
 * several, any other field over its length is cut, and blocks past the body's limit are left out; each with a
 * note.
 */
export function fitLimits(blocks: BlockWrite[], notes: ConversionNote[]): BlockWrite[] {
  const out: BlockWrite[] = [];
  const trunc = (block: BlockWrite, text: string, max: number): string => {
    if (text.length <= max) return text;
    notes.push({ kind: 'truncated', element: block.type, excerpt: excerptOf(text) });
    return cut(text, max)[0];
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'paragraph': {
        if (block.text.length <= BLOCK_LIMITS.paragraphText) {
          out.push(block);
          break;
        }
        notes.push({ kind: 'split', element: 'paragraph', excerpt: excerptOf(block.text) });
        let rest = block.text;
        while (rest !== '') {
          const [head, tail] = cut(rest, BLOCK_LIMITS.paragraphText);
          out.push({ type: 'paragraph', text: head });
          rest = tail;
        }
        break;
      }
      case 'heading':
        out.push({ ...block, text: trunc(block, block.text, 1000) });
        break;
      case 'list': {
        const items = block.items.map((item) => trunc(block, item, BLOCK_LIMITS.text));
        if (items.length > BLOCK_LIMITS.listItems)
          notes.push({ kind: 'split', element: 'list', excerpt: excerptOf(items[0] ?? '') });
        for (let i = 0; i < items.length; i += BLOCK_LIMITS.listItems)
          out.push({ type: 'list', style: block.style, items: items.slice(i, i + BLOCK_LIMITS.listItems) });
        break;
      }
      case 'faq': {
        const items = block.items.map((item) => ({
          question: trunc(block, item.question, 1000),
          answer: trunc(block, item.answer, BLOCK_LIMITS.text),
        }));
        if (items.length > BLOCK_LIMITS.faqItems.max)
          notes.push({ kind: 'split', element: 'faq', excerpt: excerptOf(items[0]?.question ?? '') });
        for (let i = 0; i < items.length; i += BLOCK_LIMITS.faqItems.max)
          out.push({ type: 'faq', items: items.slice(i, i + BLOCK_LIMITS.faqItems.max) });
        break;
      }
      case 'code':
        out.push({
          ...block,
          language: block.language.slice(0, 50),
          code: trunc(block, block.code, BLOCK_LIMITS.code),
        });
        break;
      case 'quote':
        out.push({
          type: 'quote',
          text: trunc(block, block.text, BLOCK_LIMITS.text),
          ...(block.attribution === undefined ? {} : { attribution: trunc(block, block.attribution, 500) }),
        });
        break;
      case 'callout':
        out.push({
          type: 'callout',
          variant: block.variant,
          ...(block.title === undefined ? {} : { title: trunc(block, block.title, 500) }),
          body: trunc(block, block.body, BLOCK_LIMITS.text),
        });
        break;
      case 'image':
        out.push({
          ...block,
          ...(block.alt === undefined ? {} : { alt: trunc(block, block.alt, 1000) }),
          ...(block.caption === undefined ? {} : { caption: trunc(block, block.caption, 1000) }),
        });
        break;
      case 'tweet_embed':
        // A URL cut is another URL: one over the limit is no embed.
        if (block.url.length > BLOCK_LIMITS.url)
          notes.push({ kind: 'truncated', element: block.type, excerpt: excerptOf(block.url) });
        else out.push(block);
        break;
      case 'video_embed':
        if (block.url.length > BLOCK_LIMITS.url) {
          notes.push({ kind: 'truncated', element: block.type, excerpt: excerptOf(block.url) });
          break;
        }
        out.push({
          type: 'video_embed',
          url: block.url,
          ...(block.title === undefined ? {} : { title: trunc(block, block.title, 500) }),
        });
        break;
      case 'cta':
        out.push({
          ...block,
          title: trunc(block, block.title, BLOCK_LIMITS.text),
          body: trunc(block, block.body, BLOCK_LIMITS.text),
          linkLabel: trunc(block, block.linkLabel, BLOCK_LIMITS.text),
          linkUrl: block.linkUrl.length > BLOCK_LIMITS.url ? trunc(block, block.linkUrl, 0) : block.linkUrl,
        });
        break;
      default:
        out.push(block);
    }
  }
  if (out.length > BLOCK_LIMITS.blocksPerBody) {
    const left = out.splice(BLOCK_LIMITS.blocksPerBody);
    notes.push({
      kind: 'truncated',
      element: 'body',
      excerpt: excerptOf(`${left.length} blocks past the limit of ${BLOCK_LIMITS.blocksPerBody}`),
    });
  }
  return out;
}
