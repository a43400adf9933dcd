import type { ConversionNote } from '@quire/blocks';
import { cardSegments, isCard } from './ghost-cards.js';
import { childrenOf, field, type LexicalNode } from './lexical-node.js';
import { nodeNote, type Segment } from './ghost-segments.js';
import { escapeHtml } from './ghost-text.js';

/*
 * Ghost's Lexical documents (the `lexical` column, a JSON string) walked node by node. The editor's own nodes
 * (paragraphs, headings, quotes, lists, links, text with its format bits) are written as the HTML they stand for
 * and converted by htmlToBlocks, so inline text is escaped and marked exactly as any other HTML's; cards are
 * mapped one by one (ghost-cards.ts). What HTML cannot say (an underline, an h1 in a body) is noted here.
 */

/** Lexical's text format bits. */
const FORMAT = { bold: 1, italic: 2, strikethrough: 4, underline: 8, code: 16, subscript: 32, superscript: 64 };
const UNMARKED = [
  ['underline', FORMAT.underline],
  ['subscript', FORMAT.subscript],
  ['superscript', FORMAT.superscript],
  ['highlight', 128],
] as const;

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Writes the editor's own nodes as HTML, collecting what HTML (and then the blocks) cannot hold. */
export class LexicalHtml {
  readonly notes: ConversionNote[] = [];

  inline(nodes: readonly LexicalNode[]): string {
    return nodes.map((node) => this.inlineNode(node)).join('');
  }

  private inlineNode(node: LexicalNode): string {
    const type = field(node, 'type');
    switch (type) {
      case 'text':
      case 'extended-text':
        return this.text(node);
      case 'linebreak':
      case 'extended-linebreak':
        return '<br>';
      case 'tab':
        return ' ';
      case 'link':
      case 'autolink':
        return `<a href="${escapeHtml(field(node, 'url'))}">${this.inline(childrenOf(node))}</a>`;
      case 'zwnj':
        return '';
      default:
        // An inline node of a newer editor (a mention, a TK placeholder): its text, its children's, or nothing.
        if (typeof node.text === 'string') return this.text({ ...node, format: 0 });
        return this.inline(childrenOf(node));
    }
  }

  private text(node: LexicalNode): string {
    const format = typeof node.format === 'number' ? node.format : 0;
    let html = escapeHtml(field(node, 'text'));
    if (format & FORMAT.code) html = `<code>${html}</code>`;
    if (format & FORMAT.strikethrough) html = `<s>${html}</s>`;
    if (format & FORMAT.italic) html = `<em>${html}</em>`;
    if (format & FORMAT.bold) html = `<strong>${html}</strong>`;
    for (const [name, bit] of UNMARKED) if (format & bit) this.notes.push(nodeNote('approximated', name, node));
    return html;
  }

  /** An element node of the body (not a card) as HTML. */
  element(node: LexicalNode): string {
    const type = field(node, 'type');
    const inner = () => this.inline(childrenOf(node));
    switch (type) {
      case 'paragraph':
        return `<p>${inner()}</p>`;
      case 'heading':
      case 'extended-heading': {
        const tag = HEADING_TAGS.has(field(node, 'tag')) ? field(node, 'tag') : 'h2';
        // Quire's headings are 2 to 4: the title is the page's h1.
        if (tag === 'h1' || tag === 'h5' || tag === 'h6') this.notes.push(nodeNote('approximated', tag, node));
        return `<${tag}>${inner()}</${tag}>`;
      }
      case 'quote':
      case 'extended-quote':
      case 'aside':
        // The aside is Ghost's alternate style of quote, not a callout.
        return `<blockquote><p>${inner()}</p></blockquote>`;
      case 'list':
        return this.list(node);
      case 'horizontalrule':
        return '<hr>';
      default:
        this.notes.push(nodeNote('unsupported', type || 'node', node));
        return childrenOf(node).length > 0 ? `<p>${inner()}</p>` : '';
    }
  }

  private list(node: LexicalNode): string {
    const listType = field(node, 'listType');
    if (listType === 'check') this.notes.push(nodeNote('approximated', 'checklist', node));
    const tag = listType === 'number' || field(node, 'tag') === 'ol' ? 'ol' : 'ul';
    const items = childrenOf(node).map((item) => {
      const children = childrenOf(item);
      const nested = children.filter((child) => field(child, 'type') === 'list');
      const own = children.filter((child) => field(child, 'type') !== 'list');
      return `<li>${this.inline(own)}${nested.map((list) => this.list(list)).join('')}</li>`;
    });
    return `<${tag}>${items.join('')}</${tag}>`;
  }
}

/** The segments of a Lexical document's root: runs of the editor's own nodes as one HTML segment, each card one. */
export function lexicalSegments(root: LexicalNode): Segment[] {
  const segments: Segment[] = [];
  let writer = new LexicalHtml();
  let run = '';
  const end = () => {
    if (run !== '' || writer.notes.length > 0) segments.push({ kind: 'html', html: run, notes: writer.notes });
    writer = new LexicalHtml();
    run = '';
  };
  const nodes = childrenOf(root);
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    if (!isCard(node)) {
      run += writer.element(node);
      continue;
    }
    end();
    // Toggles side by side are one FAQ.
    const group = [node];
    while (field(node, 'type') === 'toggle' && field(nodes[i + 1] ?? {}, 'type') === 'toggle') {
      group.push(nodes[i + 1]!);
      i += 1;
    }
    segments.push(...cardSegments(group));
  }
  end();
  return segments;
}
