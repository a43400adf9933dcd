import { defaultTreeAdapter as tree, html, type DefaultTreeAdapterMap } from 'parse5';

/*
 * WordPress's wpautop for classic posts, on parsed HTML rather than on the string: the classic editor stores
 * paragraphs as blank lines and line breaks as newlines, and WordPress adds the `<p>` and `<br>` on display. Here
 * runs of text and inline elements outside any block element are parted at blank lines, each part a paragraph,
 * and a single newline inside a part a `<br>`. As in WordPress: nothing changes inside `pre`, `script`, `style`
 * or `textarea`; white space between block elements is dropped; the text of a list item, a table cell or a `div`
 * stays unwrapped unless a blank line parts it, and a quote's text is always in paragraphs.
 */

type Node = DefaultTreeAdapterMap['childNode'];
type Parent = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];
type Text = DefaultTreeAdapterMap['textNode'];

/** WordPress's `$allblocks`, and the elements of the HTML standard it lacks that end a paragraph. */
const BLOCKS = new Set(
  (
    'address article aside blockquote caption col colgroup dd details div dl dt fieldset figcaption figure footer ' +
    'form h1 h2 h3 h4 h5 h6 header hgroup hr legend li main map math menu nav ol option p pre section select ' +
    'summary table tbody td tfoot th thead tr ul style script iframe video audio object embed noscript textarea'
  ).split(' '),
);
/** Elements whose content wpautop leaves as it is. */
const VERBATIM = new Set(['pre', 'script', 'style', 'textarea', 'svg', 'math', 'code', 'iframe', 'select', 'option']);
/** Elements whose flow content is always read into paragraphs (the top level is too). */
const ALWAYS_PARAGRAPHS = new Set(['blockquote']);

const isElement = (node: Node): node is Element => 'tagName' in node;
const isText = (node: Node): node is Text => node.nodeName === '#text';
const isBlock = (node: Node) => isElement(node) && BLOCKS.has(node.tagName);
const BLANK_LINE = /\n[ \t\r\f]*\n/;

/** The fragment with paragraphs and line breaks where WordPress would add them, changed in place. */
export function wpautop(root: Parent): void {
  autopChildren(root, true);
}

function autopChildren(parent: Parent, always: boolean): void {
  const old = parent.childNodes as Node[];
  const out: Node[] = [];
  let run: Node[] = [];
  const end = () => {
    out.push(...paragraphs(run, always));
    run = [];
  };
  for (const node of old) {
    if (isBlock(node)) {
      end();
      const element = node as Element;
      if (!VERBATIM.has(element.tagName) && element.tagName !== 'p')
        autopChildren(element, ALWAYS_PARAGRAPHS.has(element.tagName));
      else if (element.tagName === 'p') breaks(element);
      out.push(node);
    } else run.push(node);
  }
  end();
  parent.childNodes = [];
  for (const node of out) tree.appendChild(parent, node);
}

/** A run of inline content as paragraphs parted at its blank lines (unwrapped when `wrap` is off and it has none). */
function paragraphs(run: Node[], always: boolean): Node[] {
  const parts: Node[][] = [[]];
  for (const node of run) {
    if (!isText(node) || !BLANK_LINE.test(node.value)) {
      parts.at(-1)!.push(node);
      continue;
    }
    const pieces = node.value.split(/\n[ \t\r\f]*\n[\s]*/);
    pieces.forEach((piece, at) => {
      if (at > 0) parts.push([]);
      if (piece !== '') parts.at(-1)!.push(tree.createTextNode(piece));
    });
  }
  const filled = parts.filter((part) => part.some((node) => !isText(node) || node.value.trim() !== ''));
  if (filled.length === 0) return run.filter((node) => !isText(node));
  const wrap = always || filled.length > 1;
  return filled
    .map((part) => {
      trimEnds(part);
      if (!wrap) {
        const holder = tree.createElement('span', html.NS.HTML, []);
        for (const node of part) tree.appendChild(holder, node);
        breaks(holder);
        return holder.childNodes as Node[];
      }
      const paragraph = tree.createElement('p', html.NS.HTML, []);
      for (const node of part) tree.appendChild(paragraph, node);
      breaks(paragraph);
      return [paragraph];
    })
    .flat();
}

/** White space at a paragraph's ends is no line break. */
function trimEnds(part: Node[]): void {
  const first = part[0];
  if (first !== undefined && isText(first)) first.value = first.value.replace(/^\s+/, '');
  const last = part.at(-1);
  if (last !== undefined && isText(last)) last.value = last.value.replace(/\s+$/, '');
}

/** Each newline in the element's text (not in verbatim elements) made a `<br>`. */
function breaks(element: Parent): void {
  const out: Node[] = [];
  const nodes = element.childNodes as Node[];
  const isBreak = (node: Node | undefined) => node !== undefined && isElement(node) && node.tagName === 'br';
  nodes.forEach((node, at) => {
    if (isText(node)) {
      // A `<br>` written beside a newline is one line break, not two.
      if (isBreak(out.at(-1))) node.value = node.value.replace(/^[ \t]*\r?\n/, '');
      if (isBreak(nodes[at + 1])) node.value = node.value.replace(/\r?\n[ \t]*$/, '');
    }
    if (isElement(node)) {
      if (!VERBATIM.has(node.tagName)) breaks(node);
      out.push(node);
    } else if (isText(node) && node.value.includes('\n')) {
      node.value.split(/[ \t]*\r?\n[ \t]*/).forEach((line, at) => {
        if (at > 0) out.push(tree.createElement('br', html.NS.HTML, []));
        if (line !== '') out.push(tree.createTextNode(line));
      });
    } else out.push(node);
  });
  element.childNodes = [];
  for (const node of out) tree.appendChild(element, node);
}
