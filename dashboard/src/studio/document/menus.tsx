import { useEffect, useRef, useState } from 'react';
import { BLOCK_LABELS, BLOCK_TYPES, type BlockType } from '../model';

/** Block types whose label or name starts with the query ("/hea" → Heading). */
export function matchingTypes(query: string): BlockType[] {
  const q = query.toLowerCase();
  return BLOCK_TYPES.filter((type) => BLOCK_LABELS[type].toLowerCase().startsWith(q) || type.startsWith(q));
}

/**
 * The list of block types, under the "/" typed in an empty paragraph (the keyboard stays in the text: arrows and
 * Enter are read by the editor) or under a "+" (the list takes the focus).
 */
export function BlockMenu({
  types,
  active,
  position,
  className,
  takesFocus,
  onChoose,
  onClose,
}: {
  types: readonly BlockType[];
  active: number;
  /** Where it opens in the editor; without it, its class places it (under the toolbar's button). */
  position?: { left: number; top: number };
  className?: string;
  takesFocus: boolean;
  onChoose(type: BlockType): void;
  onClose(): void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  useEffect(() => {
    if (takesFocus) first.current?.focus();
  }, [takesFocus]);
  if (types.length === 0) return null;
  const activeType = types[Math.min(active, types.length - 1)]!;
  return (
    <div
      className={className ? `block-menu ${className}` : 'block-menu'}
      role="group"
      aria-label="Block types"
      style={position}
      onKeyDown={(event) => {
        if (!takesFocus) return;
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          const next = (focusIndex + (event.key === 'ArrowDown' ? 1 : types.length - 1)) % types.length;
          setFocusIndex(next);
          buttons.current[next]?.focus();
        }
      }}
    >
      {!takesFocus && (
        <p className="hint" aria-live="polite">
          {BLOCK_LABELS[activeType]}: press Enter. Arrow keys choose another; Escape closes.
        </p>
      )}
      <ul>
        {types.map((type, i) => (
          <li key={type}>
            <button
              type="button"
              ref={(el) => {
                buttons.current[i] = el;
                if (i === 0) first.current = el;
              }}
              className={!takesFocus && type === activeType ? 'menu-active' : undefined}
              tabIndex={takesFocus ? (i === focusIndex ? 0 : -1) : -1}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onChoose(type)}
            >
              {BLOCK_LABELS[type]}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The link under the cursor or being made: its address, Open and Remove. */
export function LinkPopover({
  href,
  position,
  autoFocus,
  onApply,
  onRemove,
  onClose,
}: {
  href: string;
  position: { left: number; top: number };
  autoFocus: boolean;
  onApply(href: string): void;
  onRemove(): void;
  onClose(): void;
}) {
  const [value, setValue] = useState(href);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setValue(href), [href]);
  useEffect(() => {
    if (autoFocus) input.current?.select();
  }, [autoFocus]);
  const safe = /^(https?:|mailto:|\/|#)/i.test(href);
  return (
    <div
      className="link-popover"
      role="group"
      aria-label="Link"
      style={{ left: position.left, top: position.top }}
      onMouseDown={(event) => {
        if (event.target !== input.current) event.preventDefault();
      }}
    >
      <label>
        <span className="visually-hidden">Link address</span>
        <input
          ref={input}
          type="url"
          value={value}
          placeholder="https://… or /path"
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              onApply(value.trim());
            } else if (event.key === 'Escape') {
              event.preventDefault();
              onClose();
            }
          }}
        />
      </label>
      <button type="button" className="button-quiet" onClick={() => onApply(value.trim())}>
        Apply
      </button>
      {safe && href && (
        <a className="button-quiet" href={href} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      )}
      {href && (
        <button type="button" className="button-quiet" onClick={onRemove}>
          Remove link
        </button>
      )}
    </div>
  );
}
