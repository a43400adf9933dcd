import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

/*
 * Text as it may be stored: a database text column cannot hold U+0000, and a lone surrogate (which a JSON `\ud800`
 * escape can carry) is no character of UTF-8. Both are dropped from everything a reader hands on.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const storable = (text: string): string => text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '');

/** Every string inside `value` (blocks, notes) made storable; the shape is unchanged. */
export function storableDeep<T>(value: T): T {
  if (typeof value === 'string') return storable(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableDeep(item)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, storableDeep(inner)])) as T;
  return value;
}

type Node = DefaultTreeAdapterMap['childNode'];

/** The text a reader sees of an HTML fragment (a caption, a bio), white space collapsed; `<br>` a space. */
export function htmlText(html: string): string {
  let out = '';
  const stack: Node[] = [...(parseFragment(html).childNodes as Node[])].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') out += (node as DefaultTreeAdapterMap['textNode']).value;
    else if ('tagName' in node) {
      if (node.tagName === 'br' || node.tagName === 'p') out += ' ';
      if (node.tagName !== 'script' && node.tagName !== 'style' && node.tagName !== 'template')
        stack.push(...([...node.childNodes] as Node[]).reverse());
    }
  }
  return storable(out.replace(/\s+/g, ' ').trim());
}

/** Text for an HTML document: `& < > " '` as references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
