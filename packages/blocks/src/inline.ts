import type { Nodes, Paragraph, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { element, escapeHtml } from './escape.js';
import { safeUrl } from './url.js';

/*
 * Text fields of blocks hold inline Markdown (the specification's word), read by a CommonMark parser (micromark,
 * through mdast) with only its inline constructs on: a title "1. Introduction", "# of guests" or "> 50 tips" is
 * text, not a list, a heading or a quote. Raw HTML is off too, so `<b>` is the text `<b>`, escaped like any other.
 * GitHub's `~~strikethrough~~` is on (two tildes only: "~5 minutes" stays as written). The HTML renderer and the
 * plain text below read the same tree, so what a reader sees on a page and in a search result agree.
 */
const OFF = [
  'blockQuote',
  'codeFenced',
  'codeIndented',
  'definition',
  'headingAtx',
  'htmlFlow',
  'htmlText',
  'list',
  'setextUnderline',
  'thematicBreak',
];
const OPTIONS = {
  extensions: [{ disable: { null: OFF } }, gfmStrikethrough({ singleTilde: false })],
  mdastExtensions: [gfmStrikethroughFromMarkdown()],
};

/**
 * What can make the parser's reading differ from the input: a character that opens an inline construct
 * (`! & * < [ \ ] _ ~` and the backtick), a line ending, a NUL or byte order mark (replaced or dropped), and white
 * space at either end (a paragraph is trimmed). A string with none of them reads as itself, and most strings have
 * none: they skip the parse, which is costly even for a short string. The tests check this against the parser on
 * arbitrary strings.
 */
const MAY_CHANGE = /[!&*<[\\\]_`~\r\n\0\uFEFF]|^[ \t]|[ \t]$/u;

/** The mdast tree of an inline Markdown string: a root of paragraphs (a blank line parts two). */
export function parseInline(markdown: string): Root {
  return fromMarkdown(markdown, OPTIONS);
}

export interface InlineContext {
  /** Links are rendered as their text: inside a link, or a `<summary>` (one control in another). */
  links: boolean;
  base: URL | undefined;
}

function renderNode(node: Nodes, context: InlineContext): string {
  switch (node.type) {
    case 'root':
      // Paragraphs (a blank line in the text) stay apart as they would on the page, inside one run of text.
      return node.children.map((child) => renderNode(child, context)).join('<br><br>');
    case 'text':
      return escapeHtml(node.value);
    case 'break':
      return '<br>';
    case 'inlineCode':
      return element('code', [], escapeHtml(node.value));
    case 'emphasis':
      return element('em', [], renderChildren(node.children, context));
    case 'strong':
      return element('strong', [], renderChildren(node.children, context));
    case 'delete':
      return element('del', [], renderChildren(node.children, context));
    case 'link': {
      const inner = renderChildren(node.children, context);
      const href = context.links ? safeUrl(node.url, context.base) : null;
      return href === null
        ? inner
        : element(
            'a',
            [
              ['href', href],
              ['title', node.title ?? undefined],
            ],
            inner,
          );
    }
    case 'image':
    case 'imageReference':
      // Pictures are image blocks; inside text an image reads as its alt text, and nothing is loaded.
      return escapeHtml(node.alt ?? '');
    default:
      if ('value' in node) return escapeHtml(node.value);
      return 'children' in node ? renderChildren(node.children as PhrasingContent[], context) : '';
  }
}

function renderChildren(children: readonly Nodes[], context: InlineContext): string {
  let out = '';
  for (const child of children) out += renderNode(child, context);
  return out;
}

/** Inline Markdown as HTML phrasing content, in a context (links or not, their base). */
export function inlineHtml(markdown: string, context: InlineContext): string {
  return MAY_CHANGE.test(markdown) ? renderNode(parseInline(markdown), context) : escapeHtml(markdown);
}

function textOf(node: Nodes): string {
  switch (node.type) {
    case 'break':
      return '\n';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'root':
      return node.children.map(textOf).join('\n\n');
    default:
      if ('value' in node) return node.value;
      return 'children' in node ? node.children.map(textOf).join('') : '';
  }
}

/** The parser's reading of an inline Markdown string as plain text, always parsed. */
export function parsedText(markdown: string): string {
  return textOf(parseInline(markdown));
}

/**
 * The text a reader sees of an inline Markdown string: emphasis and code spans lose their markers, a link keeps
 * its text, an image its alt, character references and backslash escapes are decoded, a hard break is a line
 * break, paragraphs are parted by a blank line.
 */
export function plainText(markdown: string): string {
  return MAY_CHANGE.test(markdown) ? parsedText(markdown) : markdown;
}

/**
 * A step written as `**Mix** the flour and water` is titled by its bold lead: that lead as plain text, or
 * undefined when the string does not open with strong emphasis.
 */
export function strongLead(markdown: string): string | undefined {
  if (!markdown.includes('**') && !markdown.includes('__')) return undefined;
  const first = parseInline(markdown).children[0] as Paragraph | undefined;
  const lead = first?.children[0];
  if (lead?.type !== 'strong') return undefined;
  const text = textOf(lead).trim();
  return text === '' ? undefined : text;
}
