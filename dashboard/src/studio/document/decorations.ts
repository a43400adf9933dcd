import type { Node as PmNode } from 'prosemirror-model';
import { Plugin, PluginKey, type EditorState, type Transaction } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';
import { schema } from './schema';

/*
 * What the surface draws over the document without being part of it: the hint in an empty paragraph, and a
 * save's issues on the blocks their JSON Pointers name (kept in place while the writer edits around them).
 */

export const errorsKey = new PluginKey<DecorationSet>('quire-errors');

/** Issues by block index ("3" → {"text": words}), with the position of each block's node. */
export interface BlockErrors {
  byIndex: Map<number, Record<string, string>>;
  at: readonly number[];
}

export function setErrors(tr: Transaction, errors: BlockErrors): Transaction {
  return tr.setMeta(errorsKey, errors);
}

function errorDecorations(doc: PmNode, { byIndex, at }: BlockErrors): DecorationSet {
  const decorations: Decoration[] = [];
  for (const [index, errors] of byIndex) {
    const pos = at[index];
    const node = pos === undefined ? null : doc.nodeAt(pos);
    if (pos === undefined || !node) continue;
    decorations.push(
      Decoration.node(pos, pos + node.nodeSize, { class: 'block-invalid', 'aria-invalid': 'true' }, { errors }),
    );
    // Cards show their issues on their own fields; text blocks get the words under them.
    if (node.type !== schema.nodes.card) {
      const words = Object.values(errors).join(' ');
      decorations.push(
        Decoration.widget(
          pos + node.nodeSize,
          () => {
            const p = document.createElement('p');
            p.className = 'field-error block-error';
            p.contentEditable = 'false';
            p.textContent = words;
            return p;
          },
          { side: -1, key: `error-${index}-${words}`, ignoreSelection: true },
        ),
      );
    }
  }
  return DecorationSet.create(doc, decorations);
}

export const errorsPlugin = new Plugin<DecorationSet>({
  key: errorsKey,
  state: {
    init: () => DecorationSet.empty,
    apply(tr, set) {
      const errors = tr.getMeta(errorsKey) as BlockErrors | undefined;
      if (errors) return errorDecorations(tr.doc, errors);
      return set.map(tr.mapping, tr.doc);
    },
  },
  props: {
    decorations: (state) => errorsKey.getState(state),
  },
});

/** The hint in the empty paragraph the cursor is in (or the only one of an empty body). */
export const placeholderPlugin = new Plugin({
  props: {
    decorations(state: EditorState) {
      const { $from, empty } = state.selection;
      const only = state.doc.childCount === 1 ? state.doc.firstChild : null;
      if (only && only.type === schema.nodes.paragraph && only.content.size === 0)
        return DecorationSet.create(state.doc, [
          Decoration.node(0, only.nodeSize, {
            class: 'is-empty',
            'data-placeholder': 'Start writing, or type / to add a block…',
          }),
        ]);
      if (!empty || $from.depth !== 1 || $from.parent.type !== schema.nodes.paragraph || $from.parent.content.size > 0)
        return null;
      const pos = $from.before(1);
      return DecorationSet.create(state.doc, [
        Decoration.node(pos, pos + $from.parent.nodeSize, {
          class: 'is-empty',
          'data-placeholder': 'Type / for a block',
        }),
      ]);
    },
  },
});

/**
 * Marks the top-level block holding the selection. The surface skips the layout of blocks out of view
 * (document.css), and Chromium does not place typed text right in a block it has not laid out yet: a block just
 * made by Enter or a shortcut would lose its first character to the next one typed elsewhere. The block the writer
 * is in is therefore always laid out.
 */
export const currentBlockPlugin = new Plugin({
  props: {
    decorations(state: EditorState) {
      const { $from } = state.selection;
      if ($from.depth === 0) return null;
      const pos = $from.before(1);
      const node = state.doc.nodeAt(pos);
      return node
        ? DecorationSet.create(state.doc, [Decoration.node(pos, pos + node.nodeSize, { class: 'is-current' })])
        : null;
    },
  },
});
