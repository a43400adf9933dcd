/*
 * The template tags a static site generator expands inside Markdown, read one at a time: Hugo's shortcodes
 * (`{{< name args >}}`, `{{% name args %}}`, closing `{{< /name >}}`, and escaped ones, written in a comment to
 * stand as text), and Liquid's or Nunjucks' tags (`{% name args %}`) and output (`{{ expression }}`), as Jekyll
 * and Eleventy write them. Only the tag's own text is read with patterns: where tags may stand (outside code)
 * the Markdown tree tells.
 */

export type TagKind = 'shortcode' | 'liquid' | 'output';

export interface TemplateTag {
  kind: TagKind;
  start: number;
  end: number;
  /** The tag as written. */
  raw: string;
  /** The shortcode's or tag's name (`youtube`, `include`), without a closing `/`; an output tag's expression. */
  name: string;
  /** `{{< /name >}}`. */
  closing: boolean;
  positional: string[];
  named: Record<string, string>;
  /** An escaped shortcode's text (Hugo's comment markers inside it taken off), written as it stands. */
  literal?: string;
}

export interface Range {
  start: number;
  end: number;
}

const ARGUMENT = /\s*(?:([A-Za-z_][\w-]*)\s*=\s*)?(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|`([^`]*)`|([^\s"'`]+))/y;

/** A tag's arguments: `key="value"` (or `key=value`) named, the rest positional, quotes taken off. */
function argumentsOf(text: string): { positional: string[]; named: Record<string, string> } {
  const positional: string[] = [];
  const named: Record<string, string> = {};
  ARGUMENT.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (ARGUMENT.lastIndex < text.length && (match = ARGUMENT.exec(text)) !== null) {
    const value = match[2]?.replace(/\\(.)/g, '$1') ?? match[3] ?? match[4] ?? match[5] ?? '';
    if (match[1] !== undefined) named[match[1]] = value;
    else positional.push(value);
  }
  return { positional, named };
}

/** The longest tag read: a figure with a long caption fits; a brace with no closing near is text. */
const MAX_TAG = 4000;

const OPENERS: Array<[open: string, close: string, kind: TagKind]> = [
  ['{{<', '>}}', 'shortcode'],
  ['{{%', '%}}', 'shortcode'],
  ['{%', '%}', 'liquid'],
  ['{{', '}}', 'output'],
];

/**
 * Where the next of each closing mark, and the next blank line, stands: the scan only moves forward, so each is
 * searched for once per stretch of the text, and a file full of braces is read in linear time.
 */
export class Marks {
  private readonly next = new Map<string, number>();

  constructor(private readonly text: string) {}

  after(mark: string, from: number): number {
    const known = this.next.get(mark);
    if (known !== undefined && known >= from) return known;
    const found = this.text.indexOf(mark, from);
    const at = found < 0 ? Infinity : found;
    this.next.set(mark, at);
    return at;
  }
}

/** The tag that starts at `at`, or null when none does (an opening with no closing is text). */
function tagAt(text: string, at: number, marks: Marks): TemplateTag | null {
  const opener = OPENERS.find(([open]) => text.startsWith(open, at));
  if (opener === undefined) return null;
  const [open, close, kind] = opener;
  const closeAt = marks.after(close, at + open.length);
  // A tag stands within a paragraph and is short: braces a blank line apart, or far apart, are text.
  if (closeAt - at > MAX_TAG || marks.after('\n\n', at) < closeAt) return null;
  const end = closeAt + close.length;
  const raw = text.slice(at, end);
  // Liquid's and Nunjucks' white space control: `{%- … -%}`, `{{- … -}}`.
  let inner = text.slice(at + open.length, closeAt);
  if (kind !== 'shortcode') inner = inner.replace(/^-/, '').replace(/-$/, '');
  inner = inner.trim();
  const base = { kind, start: at, end, raw, positional: [], named: {}, closing: false };
  if (kind === 'shortcode' && inner.startsWith('/*') && inner.endsWith('*/'))
    return { ...base, name: '', literal: `${open} ${inner.slice(2, -2).trim()} ${close}` };
  if (kind === 'output') return { ...base, name: inner };
  const { positional, named } = argumentsOf(inner);
  let name = positional.shift() ?? '';
  const closing = name.startsWith('/');
  if (closing) name = name.slice(1);
  // `{{< name />}}`: Hugo's self-closing form.
  if (positional.at(-1) === '/') positional.pop();
  return { ...base, name, closing, positional, named };
}

/** The first tag at or after `from` that starts outside every range of `outside` (sorted, not overlapping). */
export function nextTag(
  text: string,
  from: number,
  outside: readonly Range[] = [],
  marks = new Marks(text),
): TemplateTag | null {
  let at = from;
  let range = 0;
  for (;;) {
    at = text.indexOf('{', at);
    if (at < 0) return null;
    while (range < outside.length && outside[range]!.end <= at) range += 1;
    const current = outside[range];
    if (current !== undefined && current.start <= at) {
      at = current.end;
      continue;
    }
    const tag = tagAt(text, at, marks);
    if (tag !== null) return tag;
    at += 1;
  }
}

/** The tag closing `open`'s block (`{% endraw %}` for `raw`, `{{< /highlight >}}` for `highlight`), or null. */
export function closingTag(text: string, open: TemplateTag, marks = new Marks(text)): TemplateTag | null {
  for (let tag = nextTag(text, open.end, [], marks); tag !== null; tag = nextTag(text, tag.end, [], marks)) {
    if (open.kind === 'shortcode' && tag.kind === 'shortcode' && tag.closing && tag.name === open.name) return tag;
    if (open.kind === 'liquid' && tag.kind === 'liquid' && tag.name === `end${open.name}`) return tag;
  }
  return null;
}
