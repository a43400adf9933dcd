import { diffArrays } from 'diff';
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

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether one text reads as an edit of the other: at least half the words of the shorter one are in the longer
 * (a short paragraph that grew), and the shared words are not a speck of a long one (Dice ≥ 0.2: one word kept
 * of a one-word paragraph rewritten as twelve is a new paragraph).
 */
export function readsAsEdit(a: string, b: string): boolean {
  const left = words(a);
  const right = words(b);
  if (left.length === 0 || right.length === 0) return left.length === right.length;
  const counts = new Map<string, number>();
  for (const word of left) counts.set(word, (counts.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of right) {
    const n = counts.get(word) ?? 0;
    if (n > 0) {
      shared += 1;
      counts.set(word, n - 1);
    }
  }
  return shared >= Math.min(left.length, right.length) / 2 && (2 * shared) / (left.length + right.length) >= 0.2;
}

const isText = (block: EditorBlock) => (TEXT_TYPES as readonly string[]).includes(block.type);

/** Whether an added block reads as an edit of a removed one rather than a new block in its place. */
function sameBlock(before: EditorBlock, after: EditorBlock, alone: boolean): boolean {
  const related = before.type === after.type || (isText(before) && isText(after));
  if (!related) return false;
  if (alone && before.type === after.type) return true;
  return readsAsEdit(blockText(before), blockText(after));
}

type Op = '=' | '-' | '+';

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
 * The blocks of two bodies lined up: equal blocks (by blockKey) matched as the longest common sequence (jsdiff's
 * diffArrays), and between two matches the removed and added blocks paired, in order, where one reads as an edit
 * of the other (same type, or two text types, and readsAsEdit; a lone pair of the same type always).
 * The rows hold every block of both bodies once, each side in its own order.
 */
export function alignBlocks(before: readonly EditorBlock[], after: readonly EditorBlock[]): BodyRow[] {
  const [beforeKeys, afterKeys] = [before.map(blockKey), after.map(blockKey)];
  let ops: Op[] = diffArrays(beforeKeys, afterKeys).flatMap((change) =>
    Array<Op>(change.count).fill(change.removed ? '-' : change.added ? '+' : '='),
  );
  ops = slideTogether(ops, beforeKeys, afterKeys);
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
      for (let k = from; k < added.length; k += 1) {
        if (sameBlock(before[r]!, after[added[k]!]!, alone)) {
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
