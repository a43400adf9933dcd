/*
 * The block editor's serialization: HTML with block delimiters in comments (`<!-- wp:name {json} -->` …
 * `<!-- /wp:name -->`, or `<!-- wp:name {json} /-->` for a block with no content), nested. Read as WordPress's own
 * parser reads it (wp-includes/class-wp-block-parser.php): a delimiter is a comment whose text is the grammar's,
 * anything else is the HTML of the block it stands in; names without a namespace are `core/`; a closer without its
 * opener is ignored, an opener never closed ends with the content.
 */

export interface ParsedBlock {
  /** `core/paragraph`, `yoast/faq-block`; null for HTML outside any block (WordPress's "freeform"). */
  name: string | null;
  attrs: Record<string, unknown>;
  innerBlocks: ParsedBlock[];
  /** The block's HTML in pieces, with null where each inner block stands. */
  innerContent: Array<string | null>;
}

interface Delimiter {
  kind: 'opener' | 'closer' | 'void';
  name: string;
  attrs: Record<string, unknown>;
  start: number;
  end: number;
}

const DELIMITER = /^(\/)?wp:([a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?)(?:\s+(\{[\s\S]*\}))?\s*(\/)?$/;

/** Whether the content holds any block delimiter: block content, not classic. */
export function hasBlocks(content: string): boolean {
  return nextDelimiter(content, 0) !== null;
}

function nextDelimiter(content: string, from: number): Delimiter | null {
  let at = content.indexOf('<!--', from);
  while (at >= 0) {
    const end = content.indexOf('-->', at + 4);
    if (end < 0) return null;
    const match = DELIMITER.exec(content.slice(at + 4, end).trim());
    if (match !== null && !(match[1] !== undefined && match[4] !== undefined)) {
      const name = match[2]!.includes('/') ? match[2]! : `core/${match[2]!}`;
      return {
        kind: match[1] !== undefined ? 'closer' : match[4] !== undefined ? 'void' : 'opener',
        name,
        attrs: attributes(match[3]),
        start: at,
        end: end + 3,
      };
    }
    at = content.indexOf('<!--', end + 3);
  }
  return null;
}

function attributes(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const block = (name: string | null, attrs: Record<string, unknown> = {}): ParsedBlock => ({
  name,
  attrs,
  innerBlocks: [],
  innerContent: [],
});

/** The blocks of a post's content, in order; HTML between them as freeform blocks. */
export function parseBlocks(content: string): ParsedBlock[] {
  const top: ParsedBlock[] = [];
  const stack: ParsedBlock[] = [];
  const addHtml = (html: string) => {
    if (html === '') return;
    const open = stack.at(-1);
    if (open !== undefined) open.innerContent.push(html);
    else if (html.trim() !== '') top.push({ ...block(null), innerContent: [html] });
  };
  const addBlock = (parsed: ParsedBlock) => {
    const open = stack.at(-1);
    if (open === undefined) top.push(parsed);
    else {
      open.innerBlocks.push(parsed);
      open.innerContent.push(null);
    }
  };
  let at = 0;
  for (let found = nextDelimiter(content, 0); found !== null; found = nextDelimiter(content, at)) {
    addHtml(content.slice(at, found.start));
    at = found.end;
    if (found.kind === 'void') addBlock(block(found.name, found.attrs));
    else if (found.kind === 'opener') stack.push(block(found.name, found.attrs));
    else {
      const index = stack.findLastIndex((open) => open.name === found.name);
      if (index < 0) continue;
      // Blocks opened inside and never closed end here with their parent.
      while (stack.length > index) {
        const closed = stack.pop()!;
        addBlock(closed);
      }
    }
  }
  addHtml(content.slice(at));
  while (stack.length > 0) addBlock(stack.pop()!);
  return top;
}

/** A block's HTML with its inner blocks' (as `render` writes each) where they stand. */
export function joinInner(parsed: ParsedBlock, render: (inner: ParsedBlock) => string): string {
  let inner = 0;
  return parsed.innerContent
    .map((piece) => {
      if (piece !== null) return piece;
      const child = parsed.innerBlocks[inner];
      inner += 1;
      return child === undefined ? '' : render(child);
    })
    .join('');
}
