import { setBlockType, toggleMark } from 'prosemirror-commands';
import { Fragment, type MarkType, type Node as PmNode } from 'prosemirror-model';
import {
  NodeSelection,
  Selection,
  TextSelection,
  type Command,
  type EditorState,
  type Transaction,
} from 'prosemirror-state';
import { blankBlock, type BlockType } from '../model';
import { schema } from './schema';

/*
 * What the writer does to blocks, as ProseMirror commands: each is one transaction, so each is one step of undo.
 * The document is flat (a doc of blocks; a list holds items), so "the block" of a selection is always the node at
 * depth 1.
 */

/** The top-level block the selection starts in: its node, index and position. */
export function currentBlock(state: EditorState): { node: PmNode; index: number; pos: number } | null {
  const { selection } = state;
  if (selection instanceof NodeSelection && selection.$from.depth === 0) {
    return { node: selection.node, index: selection.$from.index(0), pos: selection.from };
  }
  const $from = selection.$from;
  if ($from.depth === 0) return null;
  return { node: $from.node(1), index: $from.index(0), pos: $from.before(1) };
}

/** A new node of the type the writer chose: text blocks empty, cards from the model's blank block. */
export function blankNode(type: BlockType): PmNode {
  switch (type) {
    case 'paragraph':
      return schema.nodes.paragraph.create();
    case 'heading':
      return schema.nodes.heading.create({ level: 2 });
    case 'quote':
      return schema.nodes.quote.create();
    case 'list':
      return schema.nodes.list.create({ style: 'bullet' }, schema.nodes.list_item.create());
    case 'code':
      return schema.nodes.code_block.create();
    case 'divider':
      return schema.nodes.divider.create();
    default:
      return schema.nodes.card.create({ block: blankBlock(type) });
  }
}

const BLOCK_STEP = 'quire-block-step';

/** Marks a transaction that inserts, moves or deletes a whole block: undo takes it back as a step of its own. */
export function asBlockStep(tr: Transaction): Transaction {
  return tr.setMeta(BLOCK_STEP, true);
}

export function isBlockStep(tr: Transaction): boolean {
  return tr.getMeta(BLOCK_STEP) === true;
}

/**
 * Puts a block of the type in place of an empty paragraph holding the selection, or after the current block.
 * The selection goes into it (text) or onto it (a card, a divider), in the same transaction: nothing the writer
 * types next can land anywhere else.
 */
export function insertBlock(type: BlockType, at?: number): Command {
  return (state, dispatch) => {
    const node = blankNode(type);
    const here = at === undefined ? currentBlock(state) : null;
    const tr = state.tr;
    let pos: number;
    if (at !== undefined) {
      pos = at;
      tr.insert(pos, node);
    } else if (here && here.node.type === schema.nodes.paragraph && here.node.content.size === 0) {
      pos = here.pos;
      tr.replaceWith(pos, pos + here.node.nodeSize, node);
    } else if (here && here.node.type === schema.nodes.paragraph && isSlashOnly(here.node)) {
      pos = here.pos;
      tr.replaceWith(pos, pos + here.node.nodeSize, node);
    } else {
      pos = here ? here.pos + here.node.nodeSize : state.doc.content.size;
      tr.insert(pos, node);
    }
    if (node.isTextblock || node.type === schema.nodes.list) {
      tr.setSelection(TextSelection.near(tr.doc.resolve(pos + 1)));
    } else {
      // A card or a divider is selected as a whole; a paragraph after it keeps typing possible.
      const after = pos + node.nodeSize;
      if (after >= tr.doc.content.size || !tr.doc.resolve(after).nodeAfter?.isTextblock)
        tr.insert(after, schema.nodes.paragraph.create());
      tr.setSelection(NodeSelection.create(tr.doc, pos));
    }
    if (dispatch) dispatch(asBlockStep(tr).scrollIntoView());
    return true;
  };
}

/** A paragraph holding only "/…": the slash menu replaces it whole. */
export function isSlashOnly(node: PmNode): boolean {
  return node.type === schema.nodes.paragraph && /^\/\w*$/.test(node.textContent) && node.childCount <= 1;
}

/** The text types a text block turns into, keeping its inline content. */
export type TextKind = 'paragraph' | 'heading-2' | 'heading-3' | 'heading-4' | 'quote' | 'bullet' | 'ordered';

export function turnInto(kind: TextKind): Command {
  return (state, dispatch) => {
    const here = currentBlock(state);
    if (!here || !(here.node.isTextblock || here.node.type === schema.nodes.list)) return false;
    if (here.node.type === schema.nodes.code_block) return false;
    const content = inlineOf(here.node);
    let next: PmNode;
    if (kind === 'bullet' || kind === 'ordered') {
      const items =
        here.node.type === schema.nodes.list
          ? here.node.content
          : Fragment.from(schema.nodes.list_item.create({ source: here.node.attrs.source as boolean }, content));
      next = schema.nodes.list.create({ key: here.node.attrs.key as number | null, style: kind }, items);
    } else {
      const type =
        kind === 'paragraph' ? schema.nodes.paragraph : kind === 'quote' ? schema.nodes.quote : schema.nodes.heading;
      const attrs: Record<string, unknown> = { key: here.node.attrs.key, source: here.node.attrs.source ?? false };
      if (type === schema.nodes.heading) {
        attrs.level = Number(kind.slice('heading-'.length));
        if (here.node.type === schema.nodes.heading) attrs.id = here.node.attrs.id;
      }
      next = type.create(attrs, content);
    }
    if (dispatch) {
      const tr = state.tr.replaceWith(here.pos, here.pos + here.node.nodeSize, next);
      tr.setSelection(
        TextSelection.near(tr.doc.resolve(Math.min(here.pos + 1 + offsetIn(state), tr.doc.content.size))),
      );
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

/** The inline content of a text block; a list's items joined by line breaks. */
function inlineOf(node: PmNode): Fragment {
  if (node.type !== schema.nodes.list) return node.content;
  const parts: PmNode[] = [];
  node.forEach((item, _offset, i) => {
    if (i > 0) parts.push(schema.nodes.hard_break.create());
    item.content.forEach((child) => parts.push(child));
  });
  return Fragment.from(parts);
}

function offsetIn(state: EditorState): number {
  const { $from } = state.selection;
  return $from.depth >= 1 && $from.parent.isTextblock ? $from.parentOffset : 0;
}

/** The kind of text block the selection is in, for the toolbar's "turn into" choice. */
export function textKindAt(state: EditorState): TextKind | null {
  const here = currentBlock(state);
  if (!here) return null;
  const { node } = here;
  if (node.type === schema.nodes.paragraph) return 'paragraph';
  if (node.type === schema.nodes.heading) return `heading-${node.attrs.level as 2 | 3 | 4}`;
  if (node.type === schema.nodes.quote) return 'quote';
  if (node.type === schema.nodes.list) return node.attrs.style === 'ordered' ? 'ordered' : 'bullet';
  return null;
}

/** Alt+↑/↓: the current block trades places with its neighbour; the selection moves with it. */
export function moveBlock(direction: -1 | 1): Command {
  return (state, dispatch) => {
    const here = currentBlock(state);
    if (!here) return false;
    const neighbourIndex = here.index + direction;
    if (neighbourIndex < 0 || neighbourIndex >= state.doc.childCount) return false;
    if (dispatch) {
      const neighbour = state.doc.child(neighbourIndex);
      const tr = state.tr;
      const selectionOffset = state.selection.from - here.pos;
      const wasNode = state.selection instanceof NodeSelection;
      tr.delete(here.pos, here.pos + here.node.nodeSize);
      const target = direction === -1 ? here.pos - neighbour.nodeSize : here.pos + neighbour.nodeSize;
      tr.insert(target, here.node);
      tr.setSelection(
        wasNode
          ? NodeSelection.create(tr.doc, target)
          : TextSelection.create(
              tr.doc,
              target + selectionOffset,
              target + selectionOffset + (state.selection.to - state.selection.from),
            ),
      );
      dispatch(asBlockStep(tr).scrollIntoView());
    }
    return true;
  };
}

/** Deletes the block at `pos` (a card's own Delete button); the selection goes to the block after it. */
export function deleteBlockAt(pos: number): Command {
  return (state, dispatch) => {
    const node = state.doc.nodeAt(pos);
    if (!node) return false;
    if (dispatch) {
      const tr = state.tr.delete(pos, pos + node.nodeSize);
      if (tr.doc.childCount === 0) tr.insert(0, schema.nodes.paragraph.create());
      tr.setSelection(Selection.near(tr.doc.resolve(Math.min(pos, tr.doc.content.size)), 1));
      dispatch(asBlockStep(tr).scrollIntoView());
    }
    return true;
  };
}

/** Backspace at the start of a heading or a quote makes it a paragraph first, as every editor does. */
export const unstyleAtStart: Command = (state, dispatch) => {
  const { $cursor } = state.selection as TextSelection;
  if (!$cursor || $cursor.parentOffset > 0 || $cursor.depth !== 1) return false;
  const parent = $cursor.parent;
  if (parent.type !== schema.nodes.heading && parent.type !== schema.nodes.quote) return false;
  return setBlockType(schema.nodes.paragraph, { key: parent.attrs.key, source: parent.attrs.source })(state, dispatch);
};

/**
 * Enter in an empty list item ends the list (the item becomes a paragraph after it, or splits the list in two);
 * Backspace at the start of a list's first item makes it a paragraph before the list.
 */
export const leaveList =
  (at: 'enter' | 'backspace'): Command =>
  (state, dispatch) => {
    const { $cursor } = state.selection as TextSelection;
    if (!$cursor || $cursor.depth !== 2 || $cursor.parent.type !== schema.nodes.list_item) return false;
    const item = $cursor.parent;
    const list = $cursor.node(1);
    const index = $cursor.index(1);
    if (at === 'enter' && item.content.size > 0) return false;
    if (at === 'backspace' && ($cursor.parentOffset > 0 || index > 0)) return false;
    if (!dispatch) return true;
    const listPos = $cursor.before(1);
    const before = list.content.cut(0, offsetOfChild(list, index));
    const after = list.content.cut(offsetOfChild(list, index + 1));
    const paragraph = schema.nodes.paragraph.create({ source: item.attrs.source as boolean }, item.content);
    const parts: PmNode[] = [];
    if (before.size > 0) parts.push(list.copy(before));
    parts.push(paragraph);
    // The part after the item keeps the list's style; only the first part keeps its key (its origin).
    if (after.size > 0) parts.push(schema.nodes.list.create({ style: list.attrs.style as string }, after));
    if (before.size === 0 && parts.length > 1 && parts[1]!.type === schema.nodes.list) {
      parts[1] = schema.nodes.list.create(
        { key: list.attrs.key as number | null, style: list.attrs.style as string },
        after,
      );
    }
    const tr = state.tr.replaceWith(listPos, listPos + list.nodeSize, parts);
    const paragraphPos = listPos + (before.size > 0 ? before.size + 2 : 0);
    tr.setSelection(TextSelection.create(tr.doc, paragraphPos + 1));
    dispatch(tr.scrollIntoView());
    return true;
  };

function offsetOfChild(node: PmNode, index: number): number {
  let offset = 0;
  for (let i = 0; i < index; i += 1) offset += node.child(i).nodeSize;
  return offset;
}

/** Enter on a selected card or divider goes into the card's first field, or below it for a divider. */
export const enterCard: Command = (state, dispatch) => {
  const { selection } = state;
  if (!(selection instanceof NodeSelection) || selection.node.type !== schema.nodes.divider) return false;
  if (dispatch) {
    const after = selection.to;
    const tr = state.tr.insert(after, schema.nodes.paragraph.create());
    tr.setSelection(TextSelection.create(tr.doc, after + 1));
    dispatch(tr.scrollIntoView());
  }
  return true;
};

/** Whether the mark is on at the selection (the toolbar's pressed state). */
export function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return Boolean(type.isInSet(state.storedMarks ?? $from.marks()));
  return state.doc.rangeHasMark(from, to, type);
}

/** Marks only go where text can be formatted: not into Markdown source blocks. */
export function formatMark(type: MarkType, attrs?: Record<string, unknown>): Command {
  return (state, dispatch) => {
    if (state.selection.$from.parent.attrs.source) return false;
    return toggleMark(type, attrs)(state, dispatch);
  };
}

/** The link under the cursor: its range and its mark's attributes. */
export function linkAt(state: EditorState): { from: number; to: number; href: string; title: string | null } | null {
  const { $from, empty } = state.selection;
  const type = schema.marks.link;
  if (!$from.parent.isTextblock) return null;
  const mark =
    type.isInSet((empty ? $from.marks() : null) ?? $from.nodeAfter?.marks ?? []) ??
    type.isInSet($from.nodeAfter?.marks ?? []);
  if (!mark) return null;
  // The mark's extent: the run of siblings around the cursor carrying the same mark.
  const parent = $from.parent;
  const start = $from.start();
  let from = -1;
  let to = -1;
  let pos = start;
  let found = false;
  parent.forEach((child) => {
    const has = mark.isInSet(child.marks);
    if (has) {
      if (from === -1) from = pos;
      to = pos + child.nodeSize;
      if (pos <= $from.pos && $from.pos <= pos + child.nodeSize) found = true;
    } else if (!found) {
      from = -1;
    }
    pos += child.nodeSize;
  });
  if (!found || from === -1) return null;
  return { from, to, href: mark.attrs.href as string, title: mark.attrs.title as string | null };
}

/** Sets or replaces the link on the selection (or the link under the cursor), or removes it when href is empty. */
export function setLink(href: string, range?: { from: number; to: number }): Command {
  return (state, dispatch) => {
    const from = range?.from ?? state.selection.from;
    const to = range?.to ?? state.selection.to;
    if (from === to) return false;
    if (dispatch) {
      const tr = state.tr.removeMark(from, to, schema.marks.link);
      if (href) tr.addMark(from, to, schema.marks.link.create({ href }));
      dispatch(tr);
    }
    return true;
  };
}
