import { escapeMarkdown, linkDestination, parseInline, renderInline } from '@quire/blocks';
import type { Nodes, Root } from 'mdast';
import { Fragment, Mark, type Node as PmNode } from 'prosemirror-model';
import { schema } from './schema.js';

/*
 * Inline Markdown (packages/blocks/src/inline.ts) to the inline content of a text block and back. Reading keeps
 * what the page shows; writing gives one canonical Markdown of any inline content the surface can hold, the one
 * form that reads back as that same content (docs/decisions.md, "The writing surface").
 */

/** What can make the parser's reading differ from the input; the same test as inline.ts. */
const MAY_CHANGE = /[!&*<[\\\]_`~\r\n\0\uFEFF]|^[ \t]|[ \t]$/u;
const LINE_ENDING = /\r\n|\r|\n/;

const { hard_break: breakType } = schema.nodes;
const { em, strong, strike, code, link } = schema.marks;

const softBreak = () => breakType!.create({ soft: true });

export interface InlineReading {
  nodes: PmNode[];
  /** False when the content read does not show as the Markdown did: the block is then edited as its source. */
  showable: boolean;
}

/**
 * The mdast of a string as inline nodes; `supported` turns false on a node type the schema has no mark for, or a
 * mark the schema cannot hold with another (code in a link or in emphasis, as the code mark excludes every other;
 * a link in a link).
 */
function readTree(tree: Root): { nodes: PmNode[]; supported: boolean } {
  const nodes: PmNode[] = [];
  let supported = true;
  const add = (mark: Mark, marks: readonly Mark[]) => {
    const set = mark.addToSet(marks);
    if (marks.some((other) => !other.isInSet(set))) supported = false;
    return set;
  };
  const walk = (node: Nodes, marks: readonly Mark[]): void => {
    switch (node.type) {
      case 'root':
        node.children.forEach((child, index) => {
          // A blank line parts two paragraphs, rendered as two line breaks: two line endings here too.
          if (index > 0) nodes.push(softBreak(), softBreak());
          walk(child, marks);
        });
        return;
      case 'paragraph':
      case 'emphasis':
      case 'strong':
      case 'delete':
      case 'link': {
        let inner = marks;
        if (node.type === 'emphasis') inner = add(em!.create(), marks);
        if (node.type === 'strong') inner = add(strong!.create(), marks);
        if (node.type === 'delete') inner = add(strike!.create(), marks);
        if (node.type === 'link') inner = add(link!.create({ href: node.url, title: node.title ?? null }), marks);
        const before = nodes.length;
        for (const child of node.children) walk(child, inner);
        // A link with no text (nothing, or line breaks only) is on the page, but the document marks only text.
        if (node.type === 'link' && !nodes.slice(before).some((inline) => inline.isText)) supported = false;
        return;
      }
      case 'text':
        node.value.split(LINE_ENDING).forEach((line, index) => {
          if (index > 0) nodes.push(softBreak());
          if (line !== '') nodes.push(schema.text(line, marks));
        });
        return;
      case 'break':
        nodes.push(breakType!.create({ soft: false }));
        return;
      case 'inlineCode':
        if (node.value !== '') nodes.push(schema.text(node.value, add(code!.create(), marks)));
        return;
      default:
        // An image, a reference, HTML: nothing of the surface shows it as the page does.
        supported = false;
        if ('value' in node && node.value !== '') nodes.push(schema.text(node.value, marks));
        else if ('children' in node) for (const child of node.children) walk(child as Nodes, marks);
    }
  };
  walk(tree, []);
  // Adjacent text of the same marks is one node, as ProseMirror keeps it.
  return { nodes: joinText(nodes), supported };
}

function joinText(nodes: PmNode[]): PmNode[] {
  const out: PmNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (last?.isText && node.isText && Mark.sameSet(last.marks, node.marks))
      out[out.length - 1] = schema.text(last.text! + node.text!, last.marks);
    else out.push(node);
  }
  return out;
}

/**
 * Two links side by side to one address: the document would hold them as one link (adjacent text with equal marks is
 * one run, and a line break between them carries no mark), and write them back as one, which reads differently.
 * Such text is shown as its source.
 */
function adjacentTwinLinks(node: { type: string; children?: unknown[] }): boolean {
  const children = (node.children ?? []) as Array<{
    type: string;
    url?: string;
    title?: string | null;
    value?: string;
    children?: unknown[];
  }>;
  const lineBreak = (sibling: (typeof children)[number]) =>
    sibling.type === 'break' || (sibling.type === 'text' && /^[\r\n]+$/.test(sibling.value ?? ''));
  return children.some((child, i) => {
    let j = i + 1;
    while (children[j] && lineBreak(children[j]!)) j += 1;
    const next = children[j];
    if (
      child.type === 'link' &&
      next?.type === 'link' &&
      next.url === child.url &&
      (next.title ?? null) === (child.title ?? null)
    )
      return true;
    return adjacentTwinLinks(child);
  });
}

/** The inline content an inline Markdown string reads as, and whether the surface shows it as the page does. */
export function inlineFromMarkdown(markdown: string): InlineReading {
  if (!MAY_CHANGE.test(markdown)) return { nodes: markdown === '' ? [] : [schema.text(markdown)], showable: true };
  const tree = parseInline(markdown);
  const { nodes, supported } = readTree(tree);
  if (!supported || adjacentTwinLinks(tree)) return { nodes, showable: false };
  const read = rawUnits(nodes);
  const units = normalize(read);
  const canonical = writeUnits(units, markdown);
  // When the canonical form reads back as the input did, it shows as the input did. It may not: emphasis the
  // input's delimiters could open where they stand, the canonical escapes could not, and it is let go of.
  const showable =
    canonical === markdown ||
    sameUnits(read, readBack(canonical)) ||
    sameRendering(renderInline(canonical), renderInline(markdown));
  return { nodes, showable };
}

/** A Markdown string as it is typed, for a block shown as its source: each line ending a soft break. */
export function sourceNodes(markdown: string): PmNode[] {
  const nodes: PmNode[] = [];
  markdown.split('\n').forEach((line, index) => {
    if (index > 0) nodes.push(softBreak());
    if (line !== '') nodes.push(schema.text(line));
  });
  return nodes;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Writing. The content is first made into units (a character with its marks, a code span, a line break) and put
 * in the one form Markdown can say: white space the parser would trim is dropped, line breaks it could not hold
 * are dropped, marks let go of white space at their edges. Then it is written, read back, and compared; a mark
 * Markdown cannot open or close where it stands (emphasis ending in punctuation right before a letter, say) is
 * let go of, so that what is written always reads back as the content it was written from.
 * ------------------------------------------------------------------------------------------------------------ */

interface LinkAttrs {
  href: string;
  title: string | null;
}
interface Style {
  em: boolean;
  strong: boolean;
  strike: boolean;
  link: LinkAttrs | null;
}
type Unit =
  { kind: 'char'; char: string; style: Style } | { kind: 'code'; text: string } | { kind: 'break'; soft: boolean };
type Emphasis = 'em' | 'strong' | 'strike';
const EMPHASIS: readonly Emphasis[] = ['em', 'strong', 'strike'];

const PLAIN: Style = { em: false, strong: false, strike: false, link: null };

/**
 * A link as Markdown can write it: a NUL is read as U+FFFD, a line ending in an address is percent-encoded (no
 * destination holds one) and one in a title is a space; an empty title is no title.
 */
function linkAttrs(href: string, title: string | null): LinkAttrs {
  return {
    href: href.replace(/\0/g, '\uFFFD').replace(/[\r\n]/g, (char) => (char === '\r' ? '%0D' : '%0A')),
    title: title ? title.replace(/\0/g, '\uFFFD').replace(/\r\n|\r|\n/g, ' ') : null,
  };
}

function styleOf(marks: readonly Mark[]): Style {
  const style = { ...PLAIN };
  for (const mark of marks) {
    if (mark.type === em) style.em = true;
    else if (mark.type === strong) style.strong = true;
    else if (mark.type === strike) style.strike = true;
    else if (mark.type === link) style.link = linkAttrs(mark.attrs.href as string, mark.attrs.title as string | null);
  }
  return style;
}

const unitsOf = (nodes: Iterable<PmNode>): Unit[] => normalize(rawUnits(nodes));

function rawUnits(nodes: Iterable<PmNode>): Unit[] {
  const units: Unit[] = [];
  for (const node of nodes) {
    if (node.type === breakType) units.push({ kind: 'break', soft: node.attrs.soft === true });
    else if (node.isText) {
      const text = node.text!.replace(/\0/g, '\uFFFD');
      if (node.marks.some((mark) => mark.type === code)) {
        // A code span holds no line break: the parser reads one as a space.
        units.push({ kind: 'code', text: text.replace(/\r\n|\r|\n/g, ' ') });
        continue;
      }
      const style = styleOf(node.marks);
      text.split(LINE_ENDING).forEach((line, index) => {
        if (index > 0) units.push({ kind: 'break', soft: true });
        for (const char of line) units.push({ kind: 'char', char, style });
      });
    }
  }
  return units;
}

const isBlank = (unit: Unit | undefined) => unit?.kind === 'char' && (unit.char === ' ' || unit.char === '\t');
const WHITE = /\s/u;

/** The units in the form that reads back as itself. */
function normalize(input: Unit[]): Unit[] {
  let units = input;
  for (;;) {
    const before = units.length;
    units = trimBlanks(units);
    units = fitBreaks(units);
    if (units.length === before) break;
  }
  return releaseEdges(units);
}

/** Spaces and tabs the parser trims: at either end, at the end of a line (before a soft break), at a line's start. */
function trimBlanks(units: Unit[]): Unit[] {
  const drop = new Array<boolean>(units.length).fill(false);
  for (let i = 0; i < units.length && isBlank(units[i]); i += 1) drop[i] = true;
  for (let i = units.length - 1; i >= 0 && isBlank(units[i]); i -= 1) drop[i] = true;
  units.forEach((unit, index) => {
    if (unit.kind !== 'break') return;
    for (let i = index + 1; i < units.length && isBlank(units[i]); i += 1) drop[i] = true;
    if (unit.soft) for (let i = index - 1; i >= 0 && isBlank(units[i]); i -= 1) drop[i] = true;
  });
  return units.filter((_, index) => !drop[index]);
}

/**
 * Line breaks as Markdown can hold them: none at the end (a trailing `\` is text), no line ending at the start;
 * one line ending, or a blank line for two or more; hard breaks each, and no line ending after a hard break
 * (a blank line there would make its `\` text).
 */
function fitBreaks(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  let i = 0;
  while (i < units.length) {
    const unit = units[i]!;
    if (unit.kind !== 'break') {
      out.push(unit);
      i += 1;
      continue;
    }
    let end = i;
    while (units[end]?.kind === 'break') end += 1;
    if (end < units.length) {
      const run = units.slice(i, end) as { kind: 'break'; soft: boolean }[];
      const firstHard = run.findIndex((b) => !b.soft);
      const softs = firstHard < 0 ? run.length : firstHard;
      if (out.length > 0) for (let n = 0; n < Math.min(softs, 2); n += 1) out.push({ kind: 'break', soft: true });
      for (const b of run) if (!b.soft) out.push(b);
    }
    i = end;
  }
  return out;
}

const paragraphBreakAt = (units: readonly Unit[], i: number) => {
  const a = units[i];
  const b = units[i + 1];
  return a?.kind === 'break' && a.soft && b?.kind === 'break' && b.soft;
};

/** Whether the unit at i carries the mark: a character that has it, or a line break with it on both sides. */
function carries(units: readonly Unit[], i: number, mark: Emphasis): boolean {
  const unit = units[i];
  if (unit?.kind === 'char') return unit.style[mark];
  if (unit?.kind !== 'break') return false;
  let start = i;
  while (units[start - 1]?.kind === 'break') start -= 1;
  let end = i;
  while (units[end + 1]?.kind === 'break') end += 1;
  for (let j = start; j < end; j += 1) if (paragraphBreakAt(units, j)) return false;
  const before = units[start - 1];
  const after = units[end + 1];
  return before?.kind === 'char' && before.style[mark] && after?.kind === 'char' && after.style[mark];
}

/** Emphasis cannot open after or close before white space: white space at an edge of a mark goes out of it. */
function releaseEdges(units: Unit[]): Unit[] {
  const out = units.slice();
  for (const mark of EMPHASIS) {
    let changed = true;
    while (changed) {
      changed = false;
      for (let i = 0; i < out.length; i += 1) {
        const unit = out[i]!;
        if (unit.kind !== 'char' || !unit.style[mark] || !WHITE.test(unit.char)) continue;
        if (carries(out, i - 1, mark) && carries(out, i + 1, mark)) continue;
        out[i] = { ...unit, style: { ...unit.style, [mark]: false } };
        changed = true;
      }
    }
  }
  return out;
}

interface Delimiters {
  em: string;
  strong: string;
}
const VARIANTS: readonly Delimiters[] = [
  { em: '*', strong: '**' },
  { em: '_', strong: '**' },
  { em: '*', strong: '__' },
  { em: '_', strong: '__' },
];

type OpenMark = Emphasis | 'link';

const sameLink = (a: LinkAttrs | null, b: LinkAttrs | null) =>
  a === b || (a !== null && b !== null && a.href === b.href && a.title === b.title);

function hasMark(unit: Unit | undefined, mark: OpenMark, linkAttrs: LinkAttrs | null): boolean {
  if (unit?.kind !== 'char') return false;
  return mark === 'link' ? sameLink(unit.style.link, linkAttrs) && linkAttrs !== null : unit.style[mark];
}

function codeSpan(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // The parser strips one space each side of a span that is not all spaces, and only U+0020 counts as one.
  const pad = text.startsWith('`') || text.endsWith('`') || (/^ .* $/su.test(text) && /[^ ]/u.test(text)) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function linkTail(attrs: LinkAttrs): string {
  const title =
    attrs.title === null ? '' : ` "${attrs.title.replace(/[\\"]|&(?=#?[A-Za-z0-9]+;)/g, (char) => `\\${char}`)}"`;
  // An empty destination before a title is written `<>`, or the title would be read as the destination.
  return `](${attrs.href === '' ? '<>' : linkDestination(attrs.href)}${title})`;
}

/** The Markdown of normalized units, with the given delimiters. */
function emit(units: readonly Unit[], delimiters: Delimiters): string {
  let out = '';
  let text = '';
  const stack: { mark: OpenMark; attrs: LinkAttrs | null }[] = [];
  const flush = () => {
    if (text === '') return;
    let escaped = escapeMarkdown(text);
    // A parser drops a byte order mark that opens the text.
    if (out === '' && escaped.startsWith('\uFEFF')) escaped = `&#xFEFF;${escaped.slice(1)}`;
    out += escaped;
    text = '';
  };
  const close = (keep: number) => {
    flush();
    while (stack.length > keep) {
      const top = stack.pop()!;
      out += top.mark === 'link' ? linkTail(top.attrs!) : top.mark === 'strike' ? '~~' : delimiters[top.mark];
    }
  };
  /** How many units from i on carry the mark: the longer run opens first, outside the shorter. */
  const reach = (i: number, mark: OpenMark, attrs: LinkAttrs | null) => {
    let j = i;
    while (j < units.length && (hasMark(units[j], mark, attrs) || units[j]!.kind === 'break')) {
      if (paragraphBreakAt(units, j)) break;
      j += 1;
    }
    return j - i;
  };
  const nextStyled = (i: number): Unit | undefined => {
    let j = i;
    while (units[j]?.kind === 'break') {
      if (paragraphBreakAt(units, j)) return undefined;
      j += 1;
    }
    return units[j];
  };
  units.forEach((unit, i) => {
    if (unit.kind === 'break') {
      const next = nextStyled(i);
      let keep = 0;
      while (keep < stack.length && hasMark(next, stack[keep]!.mark, stack[keep]!.attrs)) keep += 1;
      close(keep);
      out += unit.soft ? '\n' : '\\\n';
      return;
    }
    if (unit.kind === 'code') {
      close(0);
      out += codeSpan(unit.text);
      return;
    }
    let keep = 0;
    while (keep < stack.length && hasMark(unit, stack[keep]!.mark, stack[keep]!.attrs)) keep += 1;
    if (keep < stack.length) close(keep);
    const opening: { mark: OpenMark; attrs: LinkAttrs | null; reach: number }[] = [];
    const open = (mark: OpenMark, attrs: LinkAttrs | null) => {
      if (stack.some((entry) => entry.mark === mark)) return;
      opening.push({ mark, attrs, reach: reach(i, mark, attrs) });
    };
    if (unit.style.link) open('link', unit.style.link);
    if (unit.style.strike) open('strike', null);
    if (unit.style.strong) open('strong', null);
    if (unit.style.em) open('em', null);
    if (opening.length > 0) {
      flush();
      opening.sort((a, b) => b.reach - a.reach);
      for (const entry of opening) {
        if (entry.mark === 'link') {
          // `![` would open an image.
          if (out.endsWith('!')) out = `${out.slice(0, -1)}\\!`;
          out += '[';
        } else out += entry.mark === 'strike' ? '~~' : delimiters[entry.mark];
        stack.push({ mark: entry.mark, attrs: entry.attrs });
      }
    }
    text += unit.char;
  });
  close(0);
  return out;
}

function sameUnits(a: readonly Unit[], b: readonly Unit[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (!sameUnit(a[i]!, b[i]!)) return false;
  return true;
}

function sameUnit(a: Unit, b: Unit): boolean {
  if (a.kind === 'char' && b.kind === 'char')
    return (
      a.char === b.char &&
      a.style.em === b.style.em &&
      a.style.strong === b.style.strong &&
      a.style.strike === b.style.strike &&
      sameLink(a.style.link, b.style.link)
    );
  if (a.kind === 'code' && b.kind === 'code') return a.text === b.text;
  if (a.kind === 'break' && b.kind === 'break') return a.soft === b.soft;
  return false;
}

function firstDifference(a: readonly Unit[], b: readonly Unit[]): number {
  let i = 0;
  while (i < a.length && i < b.length && sameUnit(a[i]!, b[i]!)) i += 1;
  return i;
}

/** The units without the emphasis runs that reach from..to, or without any emphasis when none does. */
function withoutRunsNear(units: readonly Unit[], from: number, to: number): Unit[] {
  const out = units.slice();
  const inRun = (i: number, mark: Emphasis) => carries(out, i, mark);
  let dropped = false;
  for (const mark of EMPHASIS)
    for (let at = Math.max(0, from); at <= to && at < out.length; at += 1) {
      if (!inRun(at, mark)) continue;
      let start = at;
      while (inRun(start - 1, mark)) start -= 1;
      let end = at;
      while (inRun(end + 1, mark)) end += 1;
      for (let i = start; i <= end; i += 1) {
        const unit = out[i]!;
        if (unit.kind === 'char') out[i] = { ...unit, style: { ...unit.style, [mark]: false } };
      }
      dropped = true;
    }
  if (!dropped)
    out.forEach((unit, i) => {
      if (unit.kind === 'char') out[i] = { ...unit, style: { ...unit.style, em: false, strong: false, strike: false } };
    });
  return normalize(out);
}

const hasAny = (units: readonly Unit[], marks: readonly Emphasis[]) =>
  units.some((u) => u.kind === 'char' && marks.some((mark) => u.style[mark]));

/**
 * The one Markdown of normalized units that reads back as them (letting go of marks it cannot write). Emphasis is
 * where Markdown may read otherwise (flanking, delimiter runs side by side), so Markdown holding it is read back
 * to be sure; `read` is a string already known to read as the units.
 */
function writeUnits(start: Unit[], read?: string): string {
  let units = start;
  for (;;) {
    if (!hasAny(units, EMPHASIS)) return emit(units, VARIANTS[0]!);
    let reading: Unit[] = [];
    for (const delimiters of VARIANTS) {
      const markdown = emit(units, delimiters);
      if (markdown === read) return markdown;
      reading = readBack(markdown);
      if (sameUnits(reading, units)) return markdown;
      // Without emphasis the delimiters do not matter.
      if (!hasAny(units, ['em', 'strong'])) break;
    }
    const at = firstDifference(reading, units);
    units = withoutRunsNear(units, at - 1, at + 1);
  }
}

function readBack(markdown: string): Unit[] {
  if (!MAY_CHANGE.test(markdown)) return Array.from(markdown, (char) => ({ kind: 'char', char, style: PLAIN }));
  return unitsOf(readTree(parseInline(markdown)).nodes);
}

/** The content of a text block, a fragment or a list of inline nodes. */
type Inline = PmNode | Fragment | readonly PmNode[];

/**
 * The one canonical Markdown of inline content: `**strong**`, `*em*` (`_em_` where `*` would not read back),
 * `~~strike~~`, `` `code` ``, `[text](destination "title")`, `\` and a line ending for a hard break, a line
 * ending for a soft one, text escaped. A block shown as its source gives its text as typed.
 */
export function inlineToMarkdown(content: Inline): string {
  if (content instanceof Fragment || Array.isArray(content)) {
    const nodes: PmNode[] = [];
    (content instanceof Fragment ? content : Fragment.fromArray(content as PmNode[])).forEach((node) =>
      nodes.push(node),
    );
    return writeUnits(unitsOf(nodes));
  }
  const node = content as PmNode;
  if (node.attrs.source === true) return sourceText(node);
  if (node.isInline) return writeUnits(unitsOf([node]));
  const nodes: PmNode[] = [];
  node.forEach((child) => nodes.push(child));
  return writeUnits(unitsOf(nodes));
}

/** The text of a block shown as its source: line breaks are line endings, marks are nothing. */
function sourceText(node: PmNode): string {
  let out = '';
  node.forEach((child) => {
    out += child.isText ? child.text! : child.type === breakType ? '\n' : '';
  });
  return out;
}

/**
 * Whether two renderings show the same: the same characters and line breaks, each inside the same elements (with
 * the same attributes), whatever the order the elements nest in (`<em><strong>` and `<strong><em>` alike).
 */
function sameRendering(a: string, b: string): boolean {
  if (a === b) return true;
  const shown = (html: string): string[] => {
    const open: string[] = [];
    const out: string[] = [];
    for (const [token, close, name, rest] of html.matchAll(/<(\/?)([a-z]+)([^>]*)>|&[^;]+;|[^<&]/gsu)) {
      if (name === undefined) out.push(`${token}\u0000${[...new Set(open)].sort().join('\u0000')}`);
      else if (name === 'br') out.push('<br>');
      else if (close)
        open.splice(
          open.findLastIndex((entry) => entry === name || entry.startsWith(`${name} `)),
          1,
        );
      else open.push(name + rest);
    }
    return out;
  };
  const x = shown(a);
  const y = shown(b);
  return x.length === y.length && x.every((entry, index) => entry === y[index]);
}
