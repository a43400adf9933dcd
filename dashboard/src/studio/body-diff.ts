import { diffArrays, diffWords } from 'diff';
import { TEXT_TYPES, type EditorBlock } from './model.js';

/** One labelled value of a block, as its card in the editor shows it. */
export interface BlockField {
  label: string;
  value: string;
}

/**
 * Everything a writer edits in a block, labelled as its card is. Inline Markdown stays as written, so a changed
 * link address or emphasis is a visible change rather than an identical-looking one. What the server derives
 * (a heading's id, an image's url and sizes) is left out: it changes without anyone writing.
 */
export function blockFields(block: EditorBlock): BlockField[] {
  const f = (label: string, value: string | undefined | null): BlockField => ({ label, value: value ?? '' });
  switch (block.type) {
    case 'paragraph':
      return [f('Text', block.text)];
    case 'heading':
      return [f('Text', block.text), f('Level', String(block.level))];
    case 'list':
      return [f('Items', block.items.join('\n')), f('Style', block.style)];
    case 'key_takeaways':
      return [f('Items', block.items.join('\n'))];
    case 'quote':
      return [f('Text', block.text), f('Attribution', block.attribution)];
    case 'code':
      return [f('Code', block.code), f('Language', block.language)];
    case 'divider':
      return [];
    case 'callout':
      return [f('Title', block.title), f('Text', block.body), f('Variant', block.variant)];
    case 'image':
      return [f('Image', block.mediaId), f('Alt text', block.alt), f('Caption', block.caption)];
    case 'video_embed':
      return [f('Address', block.url), f('Title', block.title)];
    case 'tweet_embed':
      return [f('Address', block.url)];
    case 'faq':
      return block.items.flatMap((item, i) => [
        f(`Question ${i + 1}`, item.question),
        f(`Answer ${i + 1}`, item.answer),
      ]);
    case 'cta':
      return [
        f('Title', block.title),
        f('Text', block.body),
        f('Button label', block.linkLabel),
        f('Link', block.linkUrl),
        f('Variant', block.variant),
      ];
  }
}

/** A block's written content as one string: two blocks with the same key hold the same for a writer. */
export function blockKey(block: EditorBlock): string {
  return JSON.stringify([block.type, ...blockFields(block).map((field) => field.value)]);
}

/** The block's non-empty values joined, for a word diff and for telling a rewrite from an edit. */
export function blockText(block: EditorBlock): string {
  return blockFields(block)
    .map((field) => field.value)
    .filter((value) => value.trim() !== '')
    .join('\n');
}

/** The fields of a changed, added or removed block worth showing: those that differ, or every non-empty one. */
export function fieldChanges(
  before: EditorBlock | undefined,
  after: EditorBlock | undefined,
): Array<{ label: string; before: string; after: string }> {
  const was = new Map((before ? blockFields(before) : []).map((field) => [field.label, field.value]));
  const now = new Map((after ? blockFields(after) : []).map((field) => [field.label, field.value]));
  const labels = [...new Set([...now.keys(), ...was.keys()])];
  return labels
    .map((label) => ({ label, before: was.get(label) ?? '', after: now.get(label) ?? '' }))
    .filter((change) => change.before !== change.after);
}

export interface BodyRow {
  kind: 'same' | 'changed' | 'added' | 'removed';
  before?: EditorBlock;
  after?: EditorBlock;
  /** Positions in the two bodies, 0-based: present for the side the row has a block on. */
  beforeIndex?: number;
  afterIndex?: number;
}

/** A text's words, lowercased and counted. */
interface Bag {
  counts: Map<string, number>;
  size: number;
}

function bagOf(text: string): Bag {
  const counts = new Map<string, number>();
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return { counts, size: words.length };
}

function editLike(a: Bag, b: Bag): boolean {
  if (a.size === 0 || b.size === 0) return a.size === b.size;
  const [few, many] = a.counts.size <= b.counts.size ? [a, b] : [b, a];
  let shared = 0;
  for (const [word, n] of few.counts) shared += Math.min(n, many.counts.get(word) ?? 0);
  return shared >= Math.min(a.size, b.size) / 2 && (2 * shared) / (a.size + b.size) >= 0.2;
}

/**
 * Whether one text reads as an edit of the other: at least half the words of the shorter one are in the longer
 * (a short paragraph that grew), and the shared words are not a speck of a long one (Dice ≥ 0.2: one word kept
 * of a one-word paragraph rewritten as twelve is a new paragraph).
 */
export const readsAsEdit = (a: string, b: string): boolean => editLike(bagOf(a), bagOf(b));

const isText = (block: EditorBlock) => (TEXT_TYPES as readonly string[]).includes(block.type);

/** Whether an added block reads as an edit of a removed one rather than a new block in its place. */
function sameBlock(before: EditorBlock, after: EditorBlock, alone: boolean, bag: (block: EditorBlock) => Bag) {
  const related = before.type === after.type || (isText(before) && isText(after));
  if (!related) return false;
  if (alone && before.type === after.type) return true;
  return editLike(bag(before), bag(after));
}

type Op = '=' | '-' | '+';

/** How many added blocks, from the last pair on, a removed block is compared with. */
const PAIR_WINDOW = 8;

/** Beyond this many cells the table below would take too much memory; bodies are capped at 1,000 blocks. */
const TABLE_CELLS = 4_000_000;

/**
 * The edit script of two key lists: their common ends, then a longest common sequence of the middle by a table,
 * whose cost is its size whatever the changes (jsdiff's diffArrays grows with their number). Where both ways are
 * equally long, deletions come before insertions.
 */
function editScript(before: readonly string[], after: readonly string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let [endBefore, endAfter] = [before.length, after.length];
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore -= 1;
    endAfter -= 1;
  }
  const [n, m] = [endBefore - start, endAfter - start];
  const head = Array<Op>(start).fill('=');
  const tail = Array<Op>(before.length - endBefore).fill('=');
  if ((n + 1) * (m + 1) > TABLE_CELLS) {
    const middle = diffArrays(before.slice(start, endBefore), after.slice(start, endAfter)).flatMap((change) =>
      Array<Op>(change.count).fill(change.removed ? '-' : change.added ? '+' : '='),
    );
    return [...head, ...middle, ...tail];
  }
  // Keys as numbers: the table compares n × m pairs.
  const ids = new Map<string, number>();
  const id = (key: string) => {
    if (!ids.has(key)) ids.set(key, ids.size);
    return ids.get(key)!;
  };
  const a = Int32Array.from(before.slice(start, endBefore), id);
  const b = Int32Array.from(after.slice(start, endAfter), id);
  // lcs[i * (m + 1) + j]: the longest common sequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const middle: Op[] = [];
  let [i, j] = [0, 0];
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      middle.push('=');
      i += 1;
      j += 1;
    } else if (j === m || (i < n && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
      middle.push('-');
      i += 1;
    } else {
      middle.push('+');
      j += 1;
    }
  }
  return [...head, ...middle, ...tail];
}

/**
 * Between equal blocks (two dividers) the longest common sequence has more than one answer, and jsdiff may put a
 * deletion on one divider and the insertion that replaced it beside the other. A lone run of deletions (or of
 * insertions) is slid over equal blocks until it meets its counterpart, so a replacement reads as one: what the
 * three-way merge needs to see two writers touching different dividers as different places.
 */
function slideTogether(ops: Op[], before: readonly string[], after: readonly string[]): Op[] {
  const keyAt = (list: readonly Op[], at: number, side: Op) => {
    let i = 0;
    let j = 0;
    for (let k = 0; k < at; k += 1) {
      if (list[k] !== '+') i += 1;
      if (list[k] !== '-') j += 1;
    }
    return side === '-' ? before[i] : after[j];
  };
  const alone = (list: readonly Op[], a: number, b: number, other: Op) => list[a - 1] !== other && list[b] !== other;
  for (let a = 0; a < ops.length; a += 1) {
    const side = ops[a]!;
    if (side === '=' || ops[a - 1] === side) continue;
    const other: Op = side === '-' ? '+' : '-';
    let b = a;
    while (ops[b] === side) b += 1;
    if (!alone(ops, a, b, other)) continue;
    for (const step of [-1, 1]) {
      const next = ops.slice();
      let [from, to] = [a, b];
      // Left: the equal block before the run and the run's last block trade places; right, the mirror image.
      while (alone(next, from, to, other)) {
        const [equalAt, runEnd] = step < 0 ? [from - 1, to - 1] : [to, from];
        if (next[equalAt] !== '=' || keyAt(next, equalAt, side) !== keyAt(next, runEnd, side)) break;
        next[equalAt] = side;
        next[runEnd] = '=';
        [from, to] = [from + step, to + step];
      }
      if (!alone(next, from, to, other)) {
        ops = next;
        break;
      }
    }
  }
  return ops;
}

/**
 * The blocks of two bodies lined up: equal blocks (by blockKey) matched as their longest common sequence, and
 * between two matches the removed and added blocks paired, in order, where one reads as an edit of the other (same
 * type, or two text types, and readsAsEdit; a lone pair of the same type always).
 * The rows hold every block of both bodies once, each side in its own order.
 */
export function alignBlocks(before: readonly EditorBlock[], after: readonly EditorBlock[]): BodyRow[] {
  // A removed block is compared with up to PAIR_WINDOW added ones: its words are counted once.
  const bags = new Map<EditorBlock, Bag>();
  const bag = (block: EditorBlock) => {
    if (!bags.has(block)) bags.set(block, bagOf(blockText(block)));
    return bags.get(block)!;
  };
  const [beforeKeys, afterKeys] = [before.map(blockKey), after.map(blockKey)];
  const ops = slideTogether(editScript(beforeKeys, afterKeys), beforeKeys, afterKeys);
  const rows: BodyRow[] = [];
  let i = 0;
  let j = 0;
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    const alone = removed.length === 1 && added.length === 1;
    const pairs: Array<[number, number]> = [];
    let from = 0;
    for (const r of removed) {
      // An edited block's new self is near: looking further only costs time on a body rewritten throughout.
      for (let k = from; k < Math.min(added.length, from + PAIR_WINDOW); k += 1) {
        if (sameBlock(before[r]!, after[added[k]!]!, alone, bag)) {
          pairs.push([r, added[k]!]);
          from = k + 1;
          break;
        }
      }
    }
    let r = 0;
    let a = 0;
    const emitUntil = (beforeEnd: number, afterEnd: number) => {
      for (; r < removed.length && removed[r]! < beforeEnd; r += 1)
        rows.push({ kind: 'removed', before: before[removed[r]!], beforeIndex: removed[r] });
      for (; a < added.length && added[a]! < afterEnd; a += 1)
        rows.push({ kind: 'added', after: after[added[a]!], afterIndex: added[a] });
    };
    for (const [pr, pa] of pairs) {
      emitUntil(pr, pa);
      rows.push({ kind: 'changed', before: before[pr], after: after[pa], beforeIndex: pr, afterIndex: pa });
      r += 1;
      a += 1;
    }
    emitUntil(Infinity, Infinity);
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op === '-') removed.push(i++);
    else if (op === '+') added.push(j++);
    else {
      flush();
      rows.push({ kind: 'same', before: before[i], after: after[j], beforeIndex: i, afterIndex: j });
      i += 1;
      j += 1;
    }
  }
  flush();
  return rows;
}

/** Rows for showing: each run of unchanged blocks folded into one entry that counts them. */
export type ShownRow = BodyRow | { kind: 'unchanged'; rows: BodyRow[] };

export function foldUnchanged(rows: readonly BodyRow[]): ShownRow[] {
  const shown: ShownRow[] = [];
  for (const row of rows) {
    const last = shown[shown.length - 1];
    if (row.kind !== 'same') shown.push(row);
    else if (last?.kind === 'unchanged') last.rows.push(row);
    else shown.push({ kind: 'unchanged', rows: [row] });
  }
  return shown;
}

/**
 * Past this many words changed, two texts are shown as one replaced by the other: a word diff of two long,
 * unrelated paragraphs costs seconds and reads no better than the two texts.
 */
const MAX_WORD_EDITS = 400;

export interface TextPart {
  value: string;
  added?: boolean;
  removed?: boolean;
}

/**
 * Two texts as common, removed and added parts, for reading: a common bit without a letter or digit between two
 * changes (the "." that "version." and "example.com" share) joins them, so a replaced phrase reads as one, and
 * each run of changes shows what went, then what came.
 */
export function wordChanges(before: string, after: string): TextPart[] {
  const parts = diffWords(before, after, { maxEditLength: MAX_WORD_EDITS }) ?? [
    { value: before, removed: true, added: false, count: 1 },
    { value: after, removed: false, added: true, count: 1 },
  ];
  const out: TextPart[] = [];
  let [removed, added] = ['', ''];
  const flush = () => {
    if (removed) out.push({ value: removed, removed: true });
    if (added) out.push({ value: added, added: true });
    [removed, added] = ['', ''];
  };
  parts.forEach((part, i) => {
    const next = parts[i + 1];
    if (part.added) added += part.value;
    else if (part.removed) removed += part.value;
    else if ((removed || added) && next && (next.added || next.removed) && !/[\p{L}\p{N}]/u.test(part.value)) {
      removed += part.value;
      added += part.value;
    } else {
      flush();
      if (part.value) out.push({ value: part.value });
    }
  });
  flush();
  return out;
}
