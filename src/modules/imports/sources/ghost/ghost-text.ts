import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

export { storable, storableDeep } from '../../storable.js';
import { storable } from '../../storable.js';

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
