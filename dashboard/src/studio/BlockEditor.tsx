import { memo, useCallback, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { BlockFields } from './BlockFields';
import {
  blankBlock,
  BLOCK_LABELS,
  BLOCK_TYPES,
  duplicate,
  LIMITS,
  move,
  newKey,
  TEXT_TYPES,
  turnInto,
  type BlockType,
  type EditorBlock,
  type Item,
  type TextType,
} from './model';

export type ItemsAction =
  | { kind: 'load'; items: Item[] }
  | { kind: 'adopt'; blocks: EditorBlock[] }
  | { kind: 'set'; index: number; block: EditorBlock }
  | { kind: 'insert'; index: number; blocks: EditorBlock[] }
  | { kind: 'replace'; index: number; blocks: EditorBlock[] }
  | { kind: 'remove'; index: number }
  | { kind: 'move'; from: number; to: number };

export function itemsReducer(items: Item[], action: ItemsAction): Item[] {
  switch (action.kind) {
    case 'load':
      return action.items;
    case 'adopt':
      // The server's copy of the same blocks (heading ids, image urls): the keys, and so the focus, stay.
      if (action.blocks.length !== items.length) return action.blocks.map((block) => ({ key: newKey(), block }));
      return items.map((item, i) => ({ key: item.key, block: action.blocks[i]! }));
    case 'set':
      return items.map((item, i) => (i === action.index ? { key: item.key, block: action.block } : item));
    case 'insert':
    case 'replace': {
      const fresh = action.blocks.map((block) => ({ key: newKey(), block }));
      const next = items.slice();
      next.splice(action.index, action.kind === 'replace' ? 1 : 0, ...fresh);
      return next;
    }
    case 'remove':
      return items.filter((_, i) => i !== action.index);
    case 'move':
      return move(items, action.from, action.to);
  }
}

interface EditorProps {
  items: Item[];
  dispatch(action: ItemsAction): void;
  /** Errors of the body by JSON Pointer below /bodyJson ("3/text"). */
  errors: Record<string, string>;
  workspaceId: string;
}

/** Errors of block i, keyed by the rest of their path; undefined when none, so untouched rows stay memoized. */
function blockErrors(errors: Record<string, string>, index: number): Record<string, string> | undefined {
  let found: Record<string, string> | undefined;
  const prefix = `${index}/`;
  for (const [path, words] of Object.entries(errors)) {
    if (path === String(index)) (found ??= {})[''] = words;
    else if (path.startsWith(prefix)) (found ??= {})[path.slice(prefix.length)] = words;
  }
  return found;
}

/**
 * The body as a list of blocks, each with its own fields and tools. Insert with the "+" between blocks (or "/" in
 * an empty paragraph), reorder by dragging the handle or with Alt+↑/↓, duplicate, delete, turn text blocks into
 * one another. Rows are memoized: typing into one block re-renders that block only.
 */
export function BlockEditor({ items, dispatch, errors, workspaceId }: EditorProps) {
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const full = items.length >= LIMITS.blocks;
  // A block inserted or put in place of another takes the focus once the list has it (the reducer made its key).
  const pendingFocus = useRef<number | null>(null);
  useEffect(() => {
    if (pendingFocus.current === null) return;
    setFocusKey(items[pendingFocus.current]?.key ?? null);
    pendingFocus.current = null;
  }, [items]);
  const act = useCallback(
    (action: ItemsAction) => {
      if (action.kind === 'insert' || action.kind === 'replace') pendingFocus.current = action.index;
      dispatch(action);
    },
    [dispatch],
  );
  const insert = (index: number, type: BlockType) => {
    if (!full) act({ kind: 'insert', index, blocks: [blankBlock(type)] });
  };

  return (
    <div className={items.length > LONG_BODY ? 'block-editor long-body' : 'block-editor'}>
      <p className="hint block-count" aria-live="polite">
        {items.length.toLocaleString()} of {LIMITS.blocks.toLocaleString()} blocks
        {full ? ': the body is full. Delete a block to add another.' : ''}
      </p>
      {errors[''] && <p className="field-error">{errors['']}</p>}
      <Inserter index={0} disabled={full} onInsert={insert} />
      {items.map((item, index) => (
        <div key={item.key}>
          <BlockRow
            item={item}
            index={index}
            count={items.length}
            errors={blockErrors(errors, index)}
            workspaceId={workspaceId}
            dispatch={act}
            focus={item.key === focusKey}
            full={full}
          />
          <Inserter index={index + 1} disabled={full} onInsert={insert} />
        </div>
      ))}
    </div>
  );
}

/** The "+" between blocks: a button that opens the list of the 13 block types. */
function Inserter({
  index,
  disabled,
  onInsert,
}: {
  index: number;
  disabled: boolean;
  onInsert(index: number, type: BlockType): void;
}) {
  const [open, setOpen] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);
  const label = index === 0 ? 'Add a block at the start' : `Add a block after block ${index}`;
  return (
    <div className="inserter">
      <button
        type="button"
        className="inserter-button"
        aria-label={label}
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">+</span>
      </button>
      {open && (
        <div
          className="inserter-menu"
          role="group"
          aria-label="Block types"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              setOpen(false);
            }
          }}
        >
          {BLOCK_TYPES.map((type, i) => (
            <button
              key={type}
              ref={i === 0 ? first : undefined}
              type="button"
              onClick={() => {
                setOpen(false);
                onInsert(index, type);
              }}
            >
              {BLOCK_LABELS[type]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

interface RowProps {
  item: Item;
  index: number;
  count: number;
  errors: Record<string, string> | undefined;
  workspaceId: string;
  dispatch(action: ItemsAction): void;
  focus: boolean;
  full: boolean;
}

const DRAG_TYPE = 'application/x-quire-block';
/** Past this many blocks, those out of view skip layout (studio.css): a short body renders as it is. */
const LONG_BODY = 100;

const BlockRow = memo(function BlockRow({ item, index, count, errors, workspaceId, dispatch, focus, full }: RowProps) {
  const ref = useRef<HTMLElement>(null);
  const { block } = item;
  const label = BLOCK_LABELS[block.type];
  const [dragOver, setDragOver] = useState(false);

  useEffect(() => {
    if (!focus) return;
    const fields = ref.current?.querySelector('.block-fields');
    // The text to type into first; a block without any (a divider, an image) offers its first control.
    (
      fields?.querySelector<HTMLElement>('textarea, input') ?? fields?.querySelector<HTMLElement>('select, button')
    )?.focus();
  }, [focus]);

  const moveTo = (to: number) => {
    if (to < 0 || to >= count) return;
    // Moving a node in the DOM takes the focus from it; it goes back once the list has re-rendered.
    const active = document.activeElement as HTMLElement | null;
    dispatch({ kind: 'move', from: index, to });
    requestAnimationFrame(() => active?.isConnected && active.focus());
  };
  const keyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      moveTo(index + (event.key === 'ArrowUp' ? -1 : 1));
    }
  };
  const drop = (event: DragEvent<HTMLElement>) => {
    setDragOver(false);
    const from = Number(event.dataTransfer.getData(DRAG_TYPE));
    if (!event.dataTransfer.types.includes(DRAG_TYPE) || Number.isNaN(from)) return;
    event.preventDefault();
    dispatch({ kind: 'move', from, to: index });
  };
  const isText = (TEXT_TYPES as readonly string[]).includes(block.type);

  return (
    <section
      ref={ref}
      className={`editor-block editor-block-${block.type}${dragOver ? ' drag-over' : ''}`}
      aria-label={`Block ${index + 1}: ${label}`}
      data-block-type={block.type}
      onKeyDown={keyDown}
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes(DRAG_TYPE)) {
          event.preventDefault();
          setDragOver(true);
        }
      }}
      onDragLeave={() => setDragOver(false)}
      onDrop={drop}
    >
      <div className="block-tools">
        <span
          className="drag-handle"
          draggable
          title="Drag to move (or Alt+↑ / Alt+↓)"
          aria-hidden="true"
          onDragStart={(event) => {
            event.dataTransfer.setData(DRAG_TYPE, String(index));
            event.dataTransfer.effectAllowed = 'move';
          }}
        >
          ⠿
        </span>
        <span className="block-kind">{label}</span>
        {isText && (
          <label className="turn-into">
            <span className="visually-hidden">Turn block {index + 1} into</span>
            <select
              value={block.type}
              onChange={(event) =>
                dispatch({ kind: 'set', index, block: turnInto(block, event.target.value as TextType) })
              }
            >
              {TEXT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {BLOCK_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="block-buttons">
          <button
            type="button"
            className="button-quiet"
            aria-keyshortcuts="Alt+ArrowUp"
            disabled={index === 0}
            onClick={() => moveTo(index - 1)}
          >
            Up<span className="visually-hidden">: move block {index + 1} up</span>
          </button>
          <button
            type="button"
            className="button-quiet"
            aria-keyshortcuts="Alt+ArrowDown"
            disabled={index === count - 1}
            onClick={() => moveTo(index + 1)}
          >
            Down<span className="visually-hidden">: move block {index + 1} down</span>
          </button>
          <button
            type="button"
            className="button-quiet"
            disabled={full}
            onClick={() => dispatch({ kind: 'insert', index: index + 1, blocks: [duplicate(block)] })}
          >
            Duplicate<span className="visually-hidden"> block {index + 1}</span>
          </button>
          <button
            type="button"
            className="button-quiet button-danger-quiet"
            onClick={() => dispatch({ kind: 'remove', index })}
          >
            Delete<span className="visually-hidden"> block {index + 1}</span>
          </button>
        </span>
      </div>
      {errors?.[''] && <p className="field-error">{errors['']}</p>}
      <div className="block-fields">
        <BlockFields
          block={block}
          errors={errors}
          workspaceId={workspaceId}
          onChange={(next) => dispatch({ kind: 'set', index, block: next })}
          onReplace={(blocks) => dispatch({ kind: 'replace', index, blocks })}
        />
      </div>
    </section>
  );
});
