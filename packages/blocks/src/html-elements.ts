import {
  descendants,
  isElement,
  styleOf,
  classes,
  hasClass,
  children,
  textContent,
  type Element,
  type Node,
} from './html-tree.js';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { HeadingLevel } from './types.js';

/*
 * What the HTML converter (html-to-blocks.ts) knows of elements: which have a block, which have none, and which
 * marks each turns on.
 */

/** Elements that hold no content a block could: reported with an excerpt, their content left alone. */
export const UNSUPPORTED = new Set([
  'applet',
  'audio',
  'button',
  'canvas',
  'dialog',
  'embed',
  'form',
  'frame',
  'frameset',
  'iframe',
  'input',
  'map',
  'math',
  'noscript',
  'object',
  'script',
  'select',
  'style',
  'svg',
  'template',
  'textarea',
  'video',
]);
/** Elements of a document's head, which hold no content, when a clipboard puts them in the body. */
export const IGNORED = new Set(['base', 'link', 'meta', 'title', 'o:p', 'wbr', 'col', 'colgroup', 'source', 'track']);
/** Elements that end a paragraph: everything outside phrasing content. */
export const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
export const HEADING: Readonly<Record<string, HeadingLevel>> = { h1: 2, h2: 2, h3: 3, h4: 4, h5: 4, h6: 4 };

/** Text that holds nothing a reader sees (white space only), or a comment. */
export function isBlank(node: Node): boolean {
  if (node.nodeName === '#comment') return true;
  if (node.nodeName === '#text') return /^[ \t\n\r\f]*$/.test((node as DefaultTreeAdapterMap['textNode']).value);
  return isElement(node) && IGNORED.has(node.tagName);
}

/** An element whose content is a block's, not a paragraph's. */
export const isBlockLike = (element: Element) =>
  BLOCK.has(element.tagName) || isWordListParagraph(element) || isButton(element) || element.tagName === 'img';
export const hasBlockInside = (element: Element) =>
  descendants(element, (inner) => BLOCK.has(inner.tagName) || isButton(inner)).length > 0;

/** Word's list items are paragraphs with an `mso-list` style (and most often a `MsoListParagraph…` class). */
export function isWordListParagraph(element: Element): boolean {
  if (element.tagName !== 'p') return false;
  const list = styleOf(element).get('mso-list');
  return (
    (list !== undefined && list !== 'ignore') || classes(element).some((name) => name.startsWith('msolistparagraph'))
  );
}
export const isWordListMarker = (element: Element) => styleOf(element).get('mso-list') === 'ignore';
/** WordPress's and Ghost's buttons. */
export const isButton = (element: Element) =>
  element.tagName === 'a' && (hasClass(element, 'wp-block-button__link') || hasClass(element, 'kg-btn'));

export interface Marks {
  bold: boolean;
  italic: boolean;
  strike: boolean;
}
export const NO_MARKS: Marks = { bold: false, italic: false, strike: false };

/** Which marks an element turns on: by its tag, then by its style (clipboards carry them as styles). */
export function marksOf(element: Element): Marks {
  const tag = element.tagName;
  let bold = tag === 'b' || tag === 'strong';
  let italic = tag === 'i' || tag === 'em';
  let strike = tag === 's' || tag === 'del' || tag === 'strike';
  const style = styleOf(element);
  const weight = style.get('font-weight');
  if (weight !== undefined) {
    const numeric = Number(weight);
    bold = weight === 'bold' || weight === 'bolder' || (Number.isFinite(numeric) && numeric >= 600);
  }
  const fontStyle = style.get('font-style');
  if (fontStyle !== undefined) italic = fontStyle === 'italic' || fontStyle === 'oblique';
  const decoration = `${style.get('text-decoration') ?? ''} ${style.get('text-decoration-line') ?? ''}`;
  if (decoration.includes('line-through')) strike = true;
  return { bold, italic, strike };
}

/** A code span holding `code`, its fence longer than any run of backticks inside. */
export function codeSpan(code: string): string {
  const runs = code.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((run) => run.length)) + 1);
  const pad = code.startsWith('`') || code.endsWith('`') || (/^ .*[^ ].* $/s.test(code) && code.length > 2);
  return pad ? `${fence} ${code} ${fence}` : `${fence}${code}${fence}`;
}

export const HARD_BREAK = '\\\n';

/** Inline Markdown as written piece by piece: white space collapsed as a browser would, then trimmed. */
export function tidy(markdown: string): string {
  return markdown
    .replace(/ {2,}/g, ' ')
    .replace(/ *\\\n */g, HARD_BREAK)
    .replace(/^(?:\\\n| )+|(?:\\\n| )+$/g, '');
}

/** The URL an iframe or a link names, absolute where it was protocol-relative (old embed codes). */
export const absolute = (url: string) => (url.startsWith('//') ? `https:${url}` : url).trim();

/** A quotation's last paragraph when it opens with a dash (`— Ada Lovelace`): its attribution, by convention. */
export function signature(quote: Element): Element | undefined {
  const content = children(quote).filter((node) => !isBlank(node));
  const last = content.at(-1);
  if (content.length < 2 || last === undefined || !isElement(last) || last.tagName !== 'p') return undefined;
  return /^\s*(?:—|–|--)/.test(textContent(last)) ? last : undefined;
}

/** Marks around text, with the white space at its ends left outside (where Markdown needs it). */
export function wrap(inner: string, marker: string): string {
  const core = inner.replace(/^[ ]+|[ ]+$/g, '');
  if (core === '' || core === HARD_BREAK) return inner;
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  return `${lead}${marker}${core}${marker}${trail}`;
}
