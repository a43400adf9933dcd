import type { Node as PmNode } from 'prosemirror-model';
import type { Decoration, NodeView } from 'prosemirror-view';
import type { EditorBlock } from '../model';

/*
 * Cards are drawn by React, into the node view's element through a portal of the editor's own React tree, so
 * their fields have the app's contexts (queries, router) as every other screen. The node view only holds the
 * element and tells the store what to draw there; PM never looks inside (stopEvent, ignoreMutation).
 */

export interface CardEntry {
  id: number;
  element: HTMLElement;
  block: EditorBlock;
  errors: Record<string, string> | undefined;
  selected: boolean;
  /** The card's position now (node views move as the document changes). */
  pos(): number | undefined;
}

/** The cards on screen, for the editor component to draw. */
export class CardStore {
  private entries = new Map<number, CardEntry>();
  private listeners = new Set<() => void>();
  private snapshot: CardEntry[] = [];
  private scheduled = false;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  set(entry: CardEntry) {
    this.entries.set(entry.id, entry);
    this.changed();
  }
  delete(id: number) {
    this.entries.delete(id);
    this.changed();
  }

  // Many node views are made in one update (a load, a paste): one redraw for all of them.
  private changed() {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.snapshot = [...this.entries.values()];
      for (const listener of this.listeners) listener();
    });
  }
}

let ids = 0;

/** Errors a decoration carries for a card (the save's issues below its JSON Pointer). */
export function errorsOf(decorations: readonly Decoration[]): Record<string, string> | undefined {
  for (const decoration of decorations) {
    const errors = (decoration.spec as { errors?: Record<string, string> }).errors;
    if (errors) return errors;
  }
  return undefined;
}

export class CardView implements NodeView {
  dom: HTMLElement;
  private entry: CardEntry;

  constructor(
    node: PmNode,
    getPos: () => number | undefined,
    decorations: readonly Decoration[],
    private store: CardStore,
  ) {
    const block = node.attrs.block as EditorBlock;
    this.dom = document.createElement('div');
    this.dom.className = 'card';
    this.dom.dataset.blockType = block.type;
    this.dom.contentEditable = 'false';
    this.entry = {
      id: (ids += 1),
      element: this.dom,
      block,
      errors: errorsOf(decorations),
      selected: false,
      pos: getPos,
    };
    store.set(this.entry);
  }

  update(node: PmNode, decorations: readonly Decoration[]): boolean {
    if (node.type.name !== 'card') return false;
    const block = node.attrs.block as EditorBlock;
    if (block.type !== this.entry.block.type) return false;
    const errors = errorsOf(decorations);
    if (block === this.entry.block && JSON.stringify(errors) === JSON.stringify(this.entry.errors)) return true;
    this.entry = { ...this.entry, block, errors };
    this.store.set(this.entry);
    return true;
  }

  selectNode() {
    this.dom.classList.add('card-selected');
    this.entry = { ...this.entry, selected: true };
    this.store.set(this.entry);
  }

  deselectNode() {
    this.dom.classList.remove('card-selected');
    this.entry = { ...this.entry, selected: false };
    this.store.set(this.entry);
  }

  /** The card's fields handle their own events; PM handles those on the card's frame (selection, drag). */
  stopEvent(event: Event): boolean {
    const target = event.target as HTMLElement | null;
    if (!target || target === this.dom) return false;
    if (event.type === 'dragstart' && target.closest('.card-handle')) return false;
    return Boolean(target.closest('input, textarea, select, button, a, label, [role="dialog"], .card-body'));
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy() {
    this.store.delete(this.entry.id);
  }
}
