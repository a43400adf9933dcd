import { element } from '../escape.js';
import type { HeadingBlock, HeadingBlockWrite, ListBlock, ParagraphBlock, QuoteBlock } from '../types.js';
import type { RenderContext } from './context.js';

export function paragraph(block: ParagraphBlock, context: RenderContext): string {
  return element('p', [], context.inline(block.text));
}

/** `id` is the block's own, or the one derived for it over the whole body (derive.ts, headingIds). */
export function heading(block: HeadingBlock | HeadingBlockWrite, id: string, context: RenderContext): string {
  const tag = block.level === 3 ? 'h3' : block.level === 4 ? 'h4' : 'h2';
  return element(tag, [['id', `${context.idPrefix}${id}`]], context.inline(block.text));
}

export function list(block: ListBlock, context: RenderContext): string {
  const items = block.items.map((item) => element('li', [], context.inline(item))).join('');
  return element(block.style === 'ordered' ? 'ol' : 'ul', [], items);
}

/** The attribution sits outside the quotation, as the figure's caption. */
export function quote(block: QuoteBlock, context: RenderContext): string {
  const quotation = element('blockquote', [], element('p', [], context.inline(block.text)));
  const caption = context.isBlank(block.attribution)
    ? ''
    : element('figcaption', [], element('cite', [], context.inline(block.attribution)));
  return element('figure', [['class', 'quire-quote']], quotation + caption);
}

export function divider(): string {
  return '<hr>';
}
