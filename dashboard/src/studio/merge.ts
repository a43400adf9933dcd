import { alignBlocks, blockKey } from './body-diff.js';
import type { EditorBlock } from './model.js';
import { STUDIO_FIELDS, type EditableFields, type FieldName } from './post-fields.js';

/**
 * A three-way merge of the studio's fields after a save was refused as stale: `base` is the copy the writer's
 * edits started from, `mine` the editor's copy, `theirs` the server's. What one side changed and the other did
 * not is taken; what both changed alike is taken once; what both changed differently is a conflict, left to the
 * writer. Fields merge whole (tags as a set); the body merges block by block (body-diff.ts aligns each side
 * with the base).
 */

export type Choice = 'mine' | 'theirs' | 'both';

export interface FieldConflict {
  id: string;
  kind: 'field';
  name: FieldName;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/**
 * Blocks both sides changed differently: one base block (edited or deleted on each side; an empty list is a
 * deletion), or blocks both sides added at the same place (`base` empty), where keeping both is a choice too.
 */
export interface BlockConflict {
  id: string;
  kind: 'blocks';
  /** The base block's position, 0-based; for added blocks, the position of the base block they precede. */
  at: number;
  added: boolean;
  base: EditorBlock[];
  mine: EditorBlock[];
  theirs: EditorBlock[];
}

export type Conflict = FieldConflict | BlockConflict;

type Piece = { blocks: EditorBlock[] } | { conflict: BlockConflict };

export interface Merged {
  /** Every field merged; a conflicting one holds mine until resolve() puts the writer's choice in. */
  fields: EditableFields;
  body: Piece[];
  conflicts: Conflict[];
  /** Changes taken without asking, by whose they were. */
  taken: { mine: number; theirs: number };
}

/** JSON with keys sorted: the same value read by two parsers compares equal whatever its key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
const equal = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** What one side did to each base block, and the blocks it added before each (index n: at the end). */
interface Edits {
  at: Array<{ kind: 'same' | 'changed'; block: EditorBlock } | { kind: 'removed' }>;
  before: EditorBlock[][];
}

function editsOf(base: readonly EditorBlock[], side: readonly EditorBlock[]): Edits {
  const edits: Edits = { at: [], before: base.map(() => []).concat([[]]) };
  let next = 0;
  for (const row of alignBlocks(base, side)) {
    if (row.kind === 'added') edits.before[next]!.push(row.after!);
    else {
      next = row.beforeIndex! + 1;
      edits.at[row.beforeIndex!] = row.kind === 'removed' ? { kind: 'removed' } : { kind: row.kind, block: row.after! };
    }
  }
  return edits;
}

const sameBlocks = (a: readonly EditorBlock[], b: readonly EditorBlock[]) =>
  a.length === b.length && a.every((block, i) => blockKey(block) === blockKey(b[i]!));

function mergeBody(base: EditorBlock[], mine: EditorBlock[], theirs: EditorBlock[], taken: Merged['taken']): Piece[] {
  const m = editsOf(base, mine);
  const t = editsOf(base, theirs);
  const body: Piece[] = [];
  for (let i = 0; i <= base.length; i += 1) {
    const [addedMine, addedTheirs] = [m.before[i]!, t.before[i]!];
    if (addedMine.length === 0 || addedTheirs.length === 0 || sameBlocks(addedMine, addedTheirs)) {
      // Equal additions on both sides: theirs, whose server-derived parts are the newer.
      const blocks = addedTheirs.length > 0 ? addedTheirs : addedMine;
      if (addedTheirs.length > 0 && addedMine.length === 0) taken.theirs += 1;
      else if (addedMine.length > 0 && addedTheirs.length === 0) taken.mine += 1;
      body.push({ blocks });
    } else
      body.push({
        conflict: {
          id: `added:${i}`,
          kind: 'blocks',
          at: i,
          added: true,
          base: [],
          mine: addedMine,
          theirs: addedTheirs,
        },
      });
    if (i === base.length) break;
    const [om, ot] = [m.at[i]!, t.at[i]!];
    const mineBlocks = om.kind === 'removed' ? [] : [om.block];
    const theirBlocks = ot.kind === 'removed' ? [] : [ot.block];
    if (om.kind === 'same' && ot.kind === 'same') {
      // Both hold what the base held; where mine is the base to the letter, theirs' copy carries any newer
      // server-derived parts (an image's url), else mine is the one with something of the writer's in it.
      body.push({ blocks: equal(mineBlocks[0], base[i]) ? theirBlocks : mineBlocks });
    } else if (om.kind === 'same' || sameBlocks(mineBlocks, theirBlocks)) {
      if (om.kind === 'same') taken.theirs += 1;
      body.push({ blocks: theirBlocks });
    } else if (ot.kind === 'same') {
      taken.mine += 1;
      body.push({ blocks: mineBlocks });
    } else
      body.push({
        conflict: {
          id: `block:${i}`,
          kind: 'blocks',
          at: i,
          added: false,
          base: [base[i]!],
          mine: mineBlocks,
          theirs: theirBlocks,
        },
      });
  }
  return body;
}

/** Tags are a set: what either side added, less what either removed, in theirs' order then mine's. */
function mergeSet(base: string[], mine: string[], theirs: string[]): string[] {
  const removed = new Set([...base.filter((id) => !mine.includes(id)), ...base.filter((id) => !theirs.includes(id))]);
  return [...new Set([...theirs, ...mine])].filter((id) => !removed.has(id));
}

export function merge(base: EditableFields, mine: EditableFields, theirs: EditableFields): Merged {
  const taken = { mine: 0, theirs: 0 };
  const conflicts: Conflict[] = [];
  const fields = { ...mine } as Record<string, unknown>;
  const value = (side: EditableFields, name: FieldName) => (side as unknown as Record<string, unknown>)[name];
  for (const field of STUDIO_FIELDS) {
    if (field.kind === 'blocks') continue;
    const [b, m, t] = [value(base, field.name), value(mine, field.name), value(theirs, field.name)];
    if (equal(m, b)) {
      fields[field.name] = t;
      if (!equal(t, b)) taken.theirs += 1;
    } else if (equal(t, b) || equal(m, t)) {
      fields[field.name] = m;
      taken.mine += 1;
    } else if (field.kind === 'tags') {
      fields[field.name] = mergeSet(base.tagIds, mine.tagIds, theirs.tagIds);
      taken.mine += 1;
      taken.theirs += 1;
    } else conflicts.push({ id: `field:${field.name}`, kind: 'field', name: field.name, base: b, mine: m, theirs: t });
  }
  // Not a field of the server's: whether the slug still follows the title. A boolean cannot conflict.
  fields.slugEdited = mine.slugEdited === base.slugEdited ? theirs.slugEdited : mine.slugEdited;
  const body = mergeBody(base.bodyJson, mine.bodyJson, theirs.bodyJson, taken);
  for (const piece of body) if ('conflict' in piece) conflicts.push(piece.conflict);
  return { fields: { ...(fields as EditableFields), bodyJson: resolveBody(body, {}) }, body, conflicts, taken };
}

function resolveBody(body: readonly Piece[], choices: Readonly<Record<string, Choice>>): EditorBlock[] {
  return body.flatMap((piece) => {
    if ('blocks' in piece) return piece.blocks;
    const { conflict } = piece;
    const choice = choices[conflict.id] ?? 'mine';
    if (choice === 'theirs') return conflict.theirs;
    if (choice === 'both' && conflict.added) return [...conflict.mine, ...conflict.theirs];
    return conflict.mine;
  });
}

/** The conflicts without a choice: resolve() takes mine for them, so the panel asks first. */
export function unresolved(merged: Merged, choices: Readonly<Record<string, Choice>>): Conflict[] {
  return merged.conflicts.filter((conflict) => !choices[conflict.id]);
}

/** The merged fields with each conflict settled by the writer's choice. */
export function resolve(merged: Merged, choices: Readonly<Record<string, Choice>>): EditableFields {
  const fields = { ...merged.fields, bodyJson: resolveBody(merged.body, choices) } as Record<string, unknown>;
  for (const conflict of merged.conflicts)
    if (conflict.kind === 'field' && choices[conflict.id] === 'theirs') fields[conflict.name] = conflict.theirs;
  return fields as EditableFields;
}
