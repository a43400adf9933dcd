import type { Definition, Nodes, Parent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import type { ConversionResult, ConvertOptions } from './convert-report.js';
import { element, escapeHtml } from './escape.js';
import { htmlToBlocks, MAX_DEPTH } from './html-to-blocks.js';

/*
 * Markdown to blocks: a CommonMark document (with GitHub's strikethrough and tables) is parsed into its tree,
 * written as the HTML a CommonMark renderer would write, raw HTML included as it stands, and that HTML converted
 * by htmlToBlocks.
 * One mapping for both inputs, so a Markdown heading, list or link becomes the block its HTML would, and HTML
 * inside Markdown is read by the same parser a browser would use. Nothing is run: the HTML is only parsed.
 */

const OPTIONS = {
  extensions: [gfmStrikethrough({ singleTilde: false }), gfmTable()],
  mdastExtensions: [gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown()],
};

type Definitions = ReadonlyMap<string, Definition>;

const normalize = (label: string) => label.replace(/\s+/g, ' ').trim().toLowerCase();

function link(url: string, title: string | null | undefined, inner: string): string {
  return element(
    'a',
    [
      ['href', url],
      ['title', title ?? undefined],
    ],
    inner,
  );
}

function image(url: string, alt: string | null | undefined, title: string | null | undefined): string {
  const attributes = `src="${escapeHtml(url)}" alt="${escapeHtml(alt ?? '')}"`;
  return title ? `<img ${attributes} title="${escapeHtml(title)}">` : `<img ${attributes}>`;
}

function html(node: Nodes, definitions: Definitions): string {
  const inner = () => ('children' in node ? node.children.map((child) => html(child, definitions)).join('') : '');
  switch (node.type) {
    case 'root':
      return node.children.map((child) => html(child, definitions)).join('\n');
    case 'paragraph':
      return element('p', [], inner());
    case 'heading':
      return element(`h${node.depth}`, [], inner());
    case 'thematicBreak':
      return '<hr>';
    case 'blockquote':
      return element('blockquote', [], inner());
    case 'list':
      return element(node.ordered ? 'ol' : 'ul', [], inner());
    case 'listItem':
      return element('li', [], node.children.map((child) => html(child, definitions)).join('\n'));
    case 'code':
      return element(
        'pre',
        [],
        element('code', [['class', node.lang ? `language-${node.lang}` : undefined]], escapeHtml(node.value)),
      );
    case 'html':
      return node.value;
    case 'text':
      return escapeHtml(node.value);
    case 'emphasis':
      return element('em', [], inner());
    case 'strong':
      return element('strong', [], inner());
    case 'delete':
      return element('del', [], inner());
    case 'inlineCode':
      return element('code', [], escapeHtml(node.value));
    case 'break':
      return '<br>';
    case 'link':
      return link(node.url, node.title, inner());
    case 'image':
      return image(node.url, node.alt, node.title);
    case 'linkReference': {
      const definition = definitions.get(normalize(node.identifier));
      return definition === undefined
        ? escapeHtml(`[${node.label ?? ''}]`) + inner()
        : link(definition.url, definition.title, inner());
    }
    case 'imageReference': {
      const definition = definitions.get(normalize(node.identifier));
      return definition === undefined ? escapeHtml(node.alt ?? '') : image(definition.url, node.alt, definition.title);
    }
    case 'definition':
      return '';
    // A table has no block: htmlToBlocks keeps its rows as paragraphs and says so.
    case 'table':
      return element('table', [], inner());
    case 'tableRow':
      return element('tr', [], inner());
    case 'tableCell':
      return element('td', [], inner());
    default:
      return inner();
  }
}

/**
 * The definitions of reference links (the first of a label wins, as CommonMark says), read without recursion; and
 * nodes nested deeper than htmlToBlocks reads markup keep their text alone, so the writing of the HTML stays
 * bounded too.
 */
function prepare(root: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const stack: Array<[Nodes, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.type === 'definition' && !definitions.has(normalize(node.identifier)))
      definitions.set(normalize(node.identifier), node);
    if (!('children' in node)) continue;
    if (depth < MAX_DEPTH) for (const child of node.children) stack.push([child, depth + 1]);
    else (node as Parent).children = [{ type: 'text', value: flatText(node) }];
  }
  return definitions;
}

function flatText(root: Nodes): string {
  let out = '';
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ('value' in node && node.type !== 'html') out += node.value;
    else if ('children' in node) stack.push(...[...node.children].reverse());
  }
  return out;
}

/** A Markdown document (a post's source, a Markdown folder's file) as blocks, and the report; see htmlToBlocks. */
export function markdownToBlocks(markdown: string, options: ConvertOptions = {}): ConversionResult {
  const tree = fromMarkdown(markdown, OPTIONS);
  return htmlToBlocks(html(tree, prepare(tree)), options);
}
