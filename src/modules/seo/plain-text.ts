import type { Nodes, Paragraph } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

/*
 * JSON-LD text is plain text: a search engine shows `**Tip:** see [the docs](…)` as it is written. Prose
 * fields hold inline Markdown, so each goes through a CommonMark parser (micromark, via mdast) and comes
 * out as the text a reader sees: emphasis and code spans lose their markers, a link keeps its text, an
 * image its alt, character references and backslash escapes are decoded, a hard break is a line break.
 *
 * Only the inline constructs are on. These fields are inline Markdown (the specification's word), so a
 * title "1. Introduction", "# of guests" or "> 50 tips" is text, not a list, a heading or a quote.
 */
const BLOCK_CONSTRUCTS = [
  'blockQuote',
  'codeFenced',
  'codeIndented',
  'definition',
  'headingAtx',
  'htmlFlow',
  'list',
  'setextUnderline',
  'thematicBreak',
];
const INLINE_ONLY = { disable: { null: BLOCK_CONSTRUCTS } };

/**
 * What can make the parser's text differ from the input: a character that opens an inline construct
 * (`! & * < [ \ ] _` and the backtick), a line ending, a NUL or byte order mark (replaced or dropped),
 * and white space at either end (a paragraph is trimmed). A string with none of them is its own plain
 * text, and most titles and answers have none: they skip the parse, which is costly even for a short
 * string. plain-text.test.ts checks this against the parser on arbitrary strings.
 */
const MAY_CHANGE = /[!&*<[\\\]_`\r\n\0\uFEFF]|^[ \t]|[ \t]$/u;

function textOf(node: Nodes): string {
  switch (node.type) {
    case 'break':
      return '\n';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'root':
      // Paragraphs (text with blank lines in it) stay apart as they would on the page.
      return node.children.map(textOf).join('\n\n');
    default:
      if ('value' in node) return node.value;
      return 'children' in node ? node.children.map(textOf).join('') : '';
  }
}

function parse(markdown: string) {
  return fromMarkdown(markdown, { extensions: [INLINE_ONLY] });
}

/** The parser's reading of an inline Markdown string, always parsed. */
export function parsedText(markdown: string): string {
  return textOf(parse(markdown));
}

/** The text a reader sees of an inline Markdown string. */
export function plainText(markdown: string): string {
  return MAY_CHANGE.test(markdown) ? parsedText(markdown) : markdown;
}

/**
 * A step written as `**Mix** the flour and water` is titled by its bold lead: that lead as plain text,
 * or undefined when the string does not open with strong emphasis.
 */
export function strongLead(markdown: string): string | undefined {
  if (!markdown.includes('**') && !markdown.includes('__')) return undefined;
  const first = parse(markdown).children[0] as Paragraph | undefined;
  const lead = first?.children[0];
  if (lead?.type !== 'strong') return undefined;
  const text = textOf(lead).trim();
  return text === '' ? undefined : text;
}
