import { NodeSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { useEffect, useState, type RefObject } from 'react';
import type { BlockType } from '../model';
import { BlockMenu, matchingTypes } from './menus';

/**
 * The "+" and the drag handle beside the block under the pointer. They are the pointer's way; the keyboard has
 * the toolbar's "Insert block", "/" and Alt+↑/↓, so they stay out of the tab order.
 */
export function Gutter({
  view,
  wrapper,
  onInsert,
}: {
  view: EditorView;
  wrapper: RefObject<HTMLDivElement | null>;
  onInsert(type: BlockType, pos: number): void;
}) {
  const [hover, setHover] = useState<{ pos: number; top: number; after: number } | null>(null);
  const [menu, setMenu] = useState<{ after: number; top: number } | null>(null);

  useEffect(() => {
    const dom = view.dom as HTMLElement;
    const move = (event: MouseEvent) => {
      const box = wrapper.current?.getBoundingClientRect();
      if (!box) return;
      const found = view.posAtCoords({
        left: Math.max(event.clientX, dom.getBoundingClientRect().left + 8),
        top: event.clientY,
      });
      if (!found) return;
      const $pos = view.state.doc.resolve(found.inside >= 0 ? found.inside : found.pos);
      const pos = $pos.depth === 0 ? (found.inside >= 0 ? found.inside : null) : $pos.before(1);
      if (pos === null) return;
      const node = view.state.doc.nodeAt(pos);
      const element = view.nodeDOM(pos) as HTMLElement | null;
      if (!node || !element?.getBoundingClientRect) return;
      const top = element.getBoundingClientRect().top - box.top;
      // The pointer moves many times over one block: the gutter redraws only when it changes block or place.
      const after = pos + node.nodeSize;
      setHover((h) => (h && h.pos === pos && h.top === top && h.after === after ? h : { pos, top, after }));
    };
    const parent = wrapper.current;
    parent?.addEventListener('mousemove', move);
    return () => parent?.removeEventListener('mousemove', move);
  }, [view, wrapper]);

  if (!hover) return null;
  return (
    <>
      <div className="gutter" style={{ top: hover.top }} aria-hidden="true">
        <button
          type="button"
          className="gutter-add"
          tabIndex={-1}
          title="Add a block below"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setMenu({ after: hover.after, top: hover.top + 28 })}
        >
          +
        </button>
        <span
          className="gutter-handle"
          draggable
          title="Drag to move (or Alt+↑ / Alt+↓)"
          onDragStart={(event) => {
            const selection = NodeSelection.create(view.state.doc, hover.pos);
            view.dispatch(view.state.tr.setSelection(selection));
            const slice = selection.content();
            const { dom, text } = view.serializeForClipboard(slice);
            event.dataTransfer.clearData();
            event.dataTransfer.setData('text/html', dom.innerHTML);
            event.dataTransfer.setData('text/plain', text);
            event.dataTransfer.effectAllowed = 'move';
            const element = view.nodeDOM(hover.pos) as HTMLElement | null;
            if (element) event.dataTransfer.setDragImage(element, 0, 0);
            view.dragging = { slice, move: true };
          }}
        >
          ⠿
        </span>
      </div>
      {menu && (
        <BlockMenu
          types={matchingTypes('')}
          active={0}
          position={{ left: 0, top: menu.top }}
          takesFocus
          onChoose={(type) => {
            setMenu(null);
            onInsert(type, menu.after);
          }}
          onClose={() => {
            setMenu(null);
            view.focus();
          }}
        />
      )}
    </>
  );
}
