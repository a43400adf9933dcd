import { parse, type DefaultTreeAdapterTypes, type ParserError } from 'parse5';

/** The parse5 tree the starter's checks walk, and where in the source each piece came from. */

export type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

export interface Parsed {
  document: DefaultTreeAdapterTypes.Document;
  errors: ParserError[];
}

export function parseHtml(html: string): Parsed {
  const errors: ParserError[] = [];
  const document = parse(html, { sourceCodeLocationInfo: true, onParseError: (error) => errors.push(error) });
  return { document, errors };
}

/**
 * Every element in document order. A <template>'s content is left out: it is inert until a script clones
 * it, so its ids and links are not the page's.
 */
export function* elements(node: Node): Generator<Element> {
  if (!('childNodes' in node)) return;
  for (const child of node.childNodes) {
    if ('tagName' in child) yield child;
    yield* elements(child);
  }
}

export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

export function textOf(element: Element): string {
  return element.childNodes
    .map((child) => ('value' in child && child.nodeName === '#text' ? child.value : ''))
    .join('');
}

/** Where an element (or one of its attributes) starts; an element the parser implied has no source: 1:1. */
export function where(element: Element | undefined, attr?: string): { line: number; col: number } {
  const location = element?.sourceCodeLocation;
  const at = (attr && location?.attrs?.[attr]) || location;
  return { line: at?.startLine ?? 1, col: at?.startCol ?? 1 };
}

/**
 * The URLs of a srcset, split the way the HTML standard's parser does: a URL runs to whitespace (a trailing
 * comma ends the candidate), its descriptors to the next comma outside parentheses.
 */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let i = 0;
  const at = (index: number) => srcset.charAt(index);
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(at(i))) i++;
    const start = i;
    while (i < srcset.length && !/\s/.test(at(i))) i++;
    let url = srcset.slice(start, i);
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else {
      let depth = 0;
      for (; i < srcset.length && (at(i) !== ',' || depth > 0); i++) {
        if (at(i) === '(') depth++;
        if (at(i) === ')') depth = Math.max(0, depth - 1);
      }
    }
    if (url) urls.push(url);
  }
  return urls;
}

/** The source line around an offset, cut short, for a message a reader can find in the file. */
export function excerpt(html: string, offset: number): string {
  const lineStart = html.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = html.indexOf('\n', offset);
  const line = html.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const from = Math.max(0, offset - lineStart - 30);
  return (from > 0 ? '…' : '') + line.slice(from, from + 70).trim() + (line.length > from + 70 ? '…' : '');
}
