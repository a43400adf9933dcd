import { defaultTreeAdapter, html as spec, parse, serialize, type DefaultTreeAdapterMap } from 'parse5';

/*
 * Clipboard HTML reshaped into the plain semantic HTML the shared converter (htmlToBlocks of @quire/blocks) reads
 * best, for what it does not know of the sources writers copy from. What it does know stays with it: Google Docs'
 * styled spans and its normal-weight wrapper, Word's list paragraphs, bullets, <o:p> and conditional comments
 * (docs/blocks.md, "Converting into blocks"). The HTML is parsed (parse5, as a browser parses it), never put in a
 * document, so nothing in it runs or loads.
 */

type Node = DefaultTreeAdapterMap['childNode'];
type Parent = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

export interface Normalised {
  /** The body's content as HTML. */
  html: string;
  /** How many navigation menus (a page's site chrome) were left out. */
  navigation: number;
}

const isElement = (node: Node): node is Element => 'tagName' in node;
const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
const classes = (element: Element) => (attr(element, 'class') ?? '').toLowerCase().split(/\s+/);
const childrenOf = (node: Parent): Node[] => node.childNodes as Node[];
const isBlank = (node: Node) =>
  node.nodeName === '#comment' ||
  (node.nodeName === '#text' && /^[ \t\n\r\f]*$/.test((node as DefaultTreeAdapterMap['textNode']).value));

/** Page machinery with nothing a reader sees: dropped without a word (the converter would report each). */
const MACHINERY = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'title', 'base']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LISTS = new Set(['ul', 'ol']);

function rename(element: Element, tag: string): void {
  element.tagName = tag;
  element.nodeName = tag;
}

/** `nodes` moved, in order, to the end of `parent`'s content; the caller takes them out of where they were. */
function adopt(parent: Parent, nodes: readonly Node[]): void {
  for (const node of nodes) {
    node.parentNode = parent;
    parent.childNodes.push(node);
  }
}

function fontWeight(element: Element): string | undefined {
  for (const declaration of (attr(element, 'style') ?? '').split(';')) {
    const [name, value] = declaration.split(':');
    if (name?.trim().toLowerCase() === 'font-weight' && value !== undefined) return value.trim().toLowerCase();
  }
  return undefined;
}

/** Whether text inside `element` is bold, as the converter reads it: no inner style turns an outer bold off. */
function isBold(element: Element, inherited: boolean): boolean {
  const weight = fontWeight(element);
  if (weight !== undefined) {
    const numeric = Number(weight);
    return inherited || weight === 'bold' || weight === 'bolder' || (Number.isFinite(numeric) && numeric >= 600);
  }
  return inherited || element.tagName === 'b' || element.tagName === 'strong';
}

/**
 * A heading set wholly in bold (a page's `<h2><strong>`, a Docs heading style of weight 700) loses the bold: a
 * heading is bold on the page already, and `**` around all of its text is noise in the writer's way. Bold on a
 * part of a heading is kept.
 */
function unboldHeading(heading: Element): void {
  let text = false;
  let plain = false;
  const inside: Element[] = [];
  const stack: Array<[Node, boolean]> = childrenOf(heading).map((node) => [node, false]);
  while (stack.length > 0) {
    const [node, bold] = stack.pop()!;
    if (isElement(node)) {
      inside.push(node);
      const own = isBold(node, bold);
      for (const child of childrenOf(node)) stack.push([child, own]);
    } else if (node.nodeName === '#text' && !isBlank(node)) {
      text = true;
      if (!bold) plain = true;
    }
  }
  if (!text || plain) return;
  for (const element of inside) {
    if (element.tagName === 'b' || element.tagName === 'strong') rename(element, 'span');
    for (const a of element.attrs)
      if (a.name === 'style')
        a.value = a.value
          .split(';')
          .filter((declaration) => declaration.split(':')[0]?.trim().toLowerCase() !== 'font-weight')
          .join(';');
  }
}

const isWordQuote = (node: Node) =>
  isElement(node) &&
  node.tagName === 'p' &&
  classes(node).some((name) => name === 'msoquote' || name === 'msointensequote');

/**
 * Word's quote paragraphs (`MsoQuote`, `MsoIntenseQuote`) next to each other as one blockquote: its last one,
 * when it opens with a dash, is then read as the attribution.
 */
function wordQuotes(parent: Parent): void {
  const nodes = childrenOf(parent);
  for (let i = 0; i < nodes.length; i += 1) {
    if (!isWordQuote(nodes[i]!)) continue;
    let end = i + 1;
    for (let j = i + 1; j < nodes.length && (isWordQuote(nodes[j]!) || isBlank(nodes[j]!)); j += 1)
      if (isWordQuote(nodes[j]!)) end = j + 1;
    const quote = defaultTreeAdapter.createElement('blockquote', spec.NS.HTML, []);
    adopt(quote, nodes.slice(i, end));
    quote.parentNode = parent;
    nodes.splice(i, end - i, quote);
  }
}

/**
 * A list put straight inside a list (Google Docs' nesting: `<ul><li>…</li><ul>…</ul></ul>`) moved into the item
 * before it, where HTML nests lists; the converter then flattens it into that list item by item, and says so.
 */
function nestInItems(list: Element): void {
  const nodes = childrenOf(list);
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    if (!isElement(node) || !LISTS.has(node.tagName)) continue;
    let previous = i - 1;
    while (previous >= 0 && isBlank(nodes[previous]!)) previous -= 1;
    const item = nodes[previous];
    if (item === undefined || !isElement(item) || item.tagName !== 'li') continue;
    nodes.splice(i, 1);
    adopt(item, [node]);
    i -= 1;
  }
}

/** The body of clipboard HTML, reshaped (see above). */
export function normaliseClipboardHtml(input: string): Normalised {
  const document = parse(input);
  const root = childrenOf(document).find((node): node is Element => isElement(node) && node.tagName === 'html');
  const body = root && childrenOf(root).find((node): node is Element => isElement(node) && node.tagName === 'body');
  if (body === undefined) return { html: '', navigation: 0 };
  let navigation = 0;
  // Depth first without recursion: the input may nest as deep as it likes.
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const element = stack.pop()!;
    const nodes = childrenOf(element);
    for (let i = nodes.length - 1; i >= 0; i -= 1) {
      const node = nodes[i]!;
      if (node.nodeName === '#comment') {
        nodes.splice(i, 1);
        continue;
      }
      if (!isElement(node)) continue;
      if (MACHINERY.has(node.tagName) || node.tagName === 'nav') {
        if (node.tagName === 'nav') navigation += 1;
        nodes.splice(i, 1);
        continue;
      }
      if (node.tagName === 'b' && (attr(node, 'id') ?? '').startsWith('docs-internal-guid')) {
        // Google Docs' wrapper around the whole paste: its content in its place, read next (the loop goes back).
        const inner = childrenOf(node);
        for (const child of inner) child.parentNode = element;
        nodes.splice(i, 1, ...inner);
        i += inner.length;
        continue;
      }
      if (node.tagName === 'p' && classes(node).includes('msotitle')) rename(node, 'h1');
      stack.push(node);
    }
    if (LISTS.has(element.tagName)) nestInItems(element);
    if (HEADINGS.has(element.tagName)) unboldHeading(element);
    wordQuotes(element);
  }
  return { html: serialize(body), navigation };
}
