import { excerptOf, postEmbedOf, videoEmbedOf, type ConversionNote } from '@quire/blocks';
import type { Attachment, WxrIndex } from './wxr-index.js';

/*
 * What building one body's HTML needs and leaves behind: the attachments it can name, the notes of what it could
 * not keep, and the attachments it used (their URLs are part of what the body converts to, so of its fingerprint).
 */

export interface BodyContext {
  postId: string;
  index: WxrIndex;
  notes: ConversionNote[];
  used: Map<string, Attachment>;
}

export function note(context: BodyContext, kind: ConversionNote['kind'], element: string, source: string): void {
  context.notes.push({ kind, element, excerpt: excerptOf(source) });
}

export function attachment(context: BodyContext, id: string): Attachment | undefined {
  const found = context.index.attachments.get(id.trim());
  if (found !== undefined) context.used.set(found.id, found);
  return found;
}

export const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

/** An image, with its caption when it has one, as the HTML converter reads a figure. */
export function figureHtml(src: string, alt: string, caption: string): string {
  const image = `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}">`;
  return caption.trim() === ''
    ? `<figure>${image}</figure>`
    : `<figure>${image}<figcaption>${caption}</figcaption></figure>`;
}

/** An attachment's image, as a figure with its own caption. */
export const attachmentFigure = (found: Attachment) => figureHtml(found.url, found.alt, found.caption);

/**
 * A URL WordPress would embed, as HTML the converter makes an embed of (a YouTube or Vimeo video, an X post); any
 * other as a link in a paragraph of its own, noted as approximated (its player or card has no block).
 */
export function embedHtml(context: BodyContext, url: string, element: string): string {
  const trimmed = url.trim();
  if (trimmed === '') return '';
  const link = `<a href="${escapeAttribute(trimmed)}">${escapeText(trimmed)}</a>`;
  if (videoEmbedOf(trimmed) !== null || postEmbedOf(trimmed) !== null)
    return `<figure class="quire-embed">${link}</figure>`;
  note(context, 'approximated', element, trimmed);
  return /^https?:\/\//i.test(trimmed) ? `<p>${link}</p>` : '';
}
