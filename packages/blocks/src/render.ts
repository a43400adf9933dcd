import { headingIds } from './derive.js';
import { inlineHtml } from './inline.js';
import { callout } from './renderers/callout.js';
import { code } from './renderers/code.js';
import { RenderContext } from './renderers/context.js';
import { cta } from './renderers/cta.js';
import { tweetEmbed, videoEmbed } from './renderers/embeds.js';
import { faq } from './renderers/faq.js';
import { image } from './renderers/image.js';
import { keyTakeaways } from './renderers/takeaways.js';
import { divider, heading, list, paragraph, quote } from './renderers/text.js';
import type { Block, BlockWrite, StoredBlock } from './types.js';
import { parseLinkBase } from './url.js';

export interface RenderOptions {
  /**
   * The `sizes` of every image's sources: how wide the image is shown at each viewport width, which picks the
   * srcset entry a browser loads. Default `(min-width: 768px) 768px, 100vw`: a column of at most 768 px.
   */
  sizes?: string;
  /**
   * An absolute http(s) URL that site-relative links and sources (`/x`, `x/y`, `?q`) are resolved against, for
   * HTML read away from the site (another origin, an email). Without it they stay relative. A `#fragment` always
   * stays as it is.
   */
  linkBase?: string;
  /** Put before every heading's id (`heading-` → `id="heading-intro"`), where the page has ids of its own. */
  idPrefix?: string;
  /** The words the output holds of its own: the key takeaways' heading (default `Key takeaways`). */
  labels?: { keyTakeaways?: string };
}

export const DEFAULT_SIZES = '(min-width: 768px) 768px, 100vw';

function contextOf(options: RenderOptions): RenderContext {
  return new RenderContext(
    parseLinkBase(options.linkBase),
    options.sizes ?? DEFAULT_SIZES,
    options.idPrefix ?? '',
    options.labels?.keyTakeaways ?? 'Key takeaways',
  );
}

/**
 * A body as HTML: the same blocks give the same string, each block's element on a line of its own. Safe by
 * construction: every text escaped by one escaper, every attribute quoted, links and sources only where the
 * URL is allowed (url.ts), no script, no iframe, no event handler. Headings keep their ids; a heading without one
 * (a body being written) gets the id a save would derive.
 */
export function renderBlocks(
  blocks: ReadonlyArray<Block | BlockWrite | StoredBlock>,
  options: RenderOptions = {},
): string {
  const context = contextOf(options);
  const ids = headingIds(blocks);
  let headings = 0;
  const out: string[] = [];
  for (const block of blocks) {
    const html = renderBlock(block, context, () => ids[headings++]!);
    if (html !== '') out.push(html);
  }
  return out.join('\n');
}

function renderBlock(block: Block | BlockWrite | StoredBlock, context: RenderContext, nextId: () => string): string {
  switch (block.type) {
    case 'paragraph':
      return paragraph(block, context);
    case 'heading':
      return heading(block, nextId(), context);
    case 'list':
      return list(block, context);
    case 'image':
      return image(block, context);
    case 'code':
      return code(block);
    case 'quote':
      return quote(block, context);
    case 'divider':
      return divider();
    case 'callout':
      return callout(block, context);
    case 'video_embed':
      return videoEmbed(block, context);
    case 'tweet_embed':
      return tweetEmbed(block, context);
    case 'faq':
      return faq(block, context);
    case 'cta':
      return cta(block, context);
    case 'key_takeaways':
      return keyTakeaways(block, context);
    default:
      // A block type this version does not know renders nothing rather than failing the whole body.
      return '';
  }
}

/** One inline Markdown string as HTML phrasing content (what a paragraph holds), links checked as in a body. */
export function renderInline(markdown: string, options: Pick<RenderOptions, 'linkBase'> = {}): string {
  return inlineHtml(markdown, { links: true, base: parseLinkBase(options.linkBase) });
}
