import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['childNode'];

/** Elements whose text a reader never sees. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript']);
/** Elements that part their text from what follows (a word must not run into the next paragraph's). */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'figure',
  'tr',
  'td',
  'th',
]);

/** An HTML fragment's text (an excerpt's, a caption's), white space collapsed. Iterative: any depth. */
export function htmlText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return html.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  const stack: Node[] = [...(parseFragment(html).childNodes as Node[])].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') out.push((node as DefaultTreeAdapterMap['textNode']).value);
    else if ('tagName' in node && !HIDDEN.has(node.tagName)) {
      if (BLOCKS.has(node.tagName)) out.push(' ');
      stack.push(...[...(node.childNodes as Node[])].reverse());
    }
  }
  return out.join('').replace(/\s+/g, ' ').trim();
}
