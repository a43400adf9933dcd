import { defaultTreeAdapter, type DefaultTreeAdapterMap } from 'parse5';

/* The parsed HTML as the converter walks it (html-to-blocks.ts): parse5's tree, read without its adapter's ceremony. */

export type Node = DefaultTreeAdapterMap['childNode'];
export type Element = DefaultTreeAdapterMap['element'];

export const isElement = (node: Node): node is Element => 'tagName' in node;
export const attr = (element: Element, name: string): string | undefined =>
  element.attrs.find((attribute) => attribute.name === name)?.value;
export const classes = (element: Element): string[] => (attr(element, 'class') ?? '').toLowerCase().split(/\s+/);
export const hasClass = (element: Element, name: string) => classes(element).includes(name);
export const children = (element: Element): Node[] =>
  element.tagName === 'template' ? [] : (element.childNodes as Node[]);

/** The declarations of a `style` attribute, by property (lowercased). */
export function styleOf(element: Element): Map<string, string> {
  const style = new Map<string, string>();
  for (const declaration of (attr(element, 'style') ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0)
      style.set(
        declaration.slice(0, colon).trim().toLowerCase(),
        declaration
          .slice(colon + 1)
          .trim()
          .toLowerCase(),
      );
  }
  return style;
}

export function descendants(element: Element, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const visit = (nodes: Node[]) => {
    for (const node of nodes)
      if (isElement(node)) {
        if (test(node)) found.push(node);
        visit(children(node));
      }
  };
  visit(children(element));
  return found;
}

/** The text of an element as it stands in the source (code keeps its white space); a `<br>` is a line ending. */
export function textContent(element: Element): string {
  let out = '';
  for (const node of children(element)) {
    if (node.nodeName === '#text') out += (node as DefaultTreeAdapterMap['textNode']).value;
    else if (isElement(node)) out += node.tagName === 'br' ? '\n' : textContent(node);
  }
  return out;
}

/** How deep elements may nest before their content is read as text: enough for any page, and the stack's bound. */
export const MAX_DEPTH = 100;

/** The text of a subtree, read without recursion (it may be as deep as the input). */
export function flatText(root: Element): string {
  let out = '';
  const stack: Node[] = [...children(root)].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') out += (node as DefaultTreeAdapterMap['textNode']).value;
    else if (isElement(node)) stack.push(...[...children(node)].reverse());
  }
  return out;
}

/**
 * Elements nested deeper than MAX_DEPTH keep their text and lose their markup, so the conversion's recursion stays
 * bounded whatever the input; returns the text so kept, for the report.
 */
export function flattenDeep(body: Element): string[] {
  const flattened: string[] = [];
  const stack: Array<[Element, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (depth < MAX_DEPTH) {
      for (const child of children(element)) if (isElement(child)) stack.push([child, depth + 1]);
      continue;
    }
    const text = flatText(element);
    element.childNodes = [];
    if (text !== '') defaultTreeAdapter.insertText(element, text);
    flattened.push(text);
  }
  return flattened;
}
