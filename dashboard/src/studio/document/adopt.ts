import type { Node as PmNode } from 'prosemirror-model';
import type { EditorState, Transaction } from 'prosemirror-state';
import type { EditorBlock } from '../model';
import { blocksFromDoc, type Loaded } from './doc-blocks';
import { schema } from './schema';

/*
 * After a save the server's copy becomes what "untouched" means: the blocks it answered are the new origin, and
 * what it derived (a new heading's id, an image's url and sizes) goes into the nodes as attributes. Only
 * attributes change, so the text, the selection and the history stay; the caller dispatches the transaction
 * outside the history.
 */
export function adoptInto(
  state: EditorState,
  loaded: Loaded,
  fresh: readonly EditorBlock[],
): { tr: Transaction; loaded: Loaded } | null {
  const current = blocksFromDoc(state.doc, loaded);
  // The answer is of the body as sent; a different count means the document moved on since (or never matched).
  if (current.blocks.length !== fresh.length) return null;
  const tr = state.tr;
  const kept = new Set(current.at);
  state.doc.forEach((node, offset) => {
    if (!kept.has(offset) && node.attrs.key !== null) tr.setNodeAttribute(offset, 'key', null);
  });
  current.at.forEach((pos, index) => {
    const node = state.doc.nodeAt(pos)!;
    const block = fresh[index]!;
    if (node.attrs.key !== index) tr.setNodeAttribute(pos, 'key', index);
    if (node.type === schema.nodes.heading && block.type === 'heading') {
      const id = 'id' in block && typeof block.id === 'string' ? block.id : null;
      if (node.attrs.id !== id) tr.setNodeAttribute(pos, 'id', id);
    }
    if (node.type === schema.nodes.card && JSON.stringify(node.attrs.block) !== JSON.stringify(block))
      tr.setNodeAttribute(pos, 'block', block);
  });
  const built: PmNode[] = current.at.map((pos) => tr.doc.nodeAt(pos)!);
  return { tr, loaded: { doc: tr.doc, origin: fresh, built } };
}
