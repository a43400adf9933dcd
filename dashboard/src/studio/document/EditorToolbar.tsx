import { redo, redoDepth, undo, undoDepth } from 'prosemirror-history';
import type { MarkType } from 'prosemirror-model';
import type { EditorView } from 'prosemirror-view';
import type { Command } from 'prosemirror-state';
import { useState, type MouseEvent } from 'react';
import { BLOCK_TYPES, type BlockType } from '../model';
import { BlockMenu } from './menus';
import { formatMark, markActive, textKindAt, turnInto, type TextKind } from './commands';
import { schema } from './schema';

const KINDS: Array<{ value: TextKind; label: string }> = [
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'heading-2', label: 'Heading 2' },
  { value: 'heading-3', label: 'Heading 3' },
  { value: 'heading-4', label: 'Heading 4' },
  { value: 'quote', label: 'Quote' },
  { value: 'bullet', label: 'Bulleted list' },
  { value: 'ordered', label: 'Numbered list' },
];

const HISTORY = [
  { label: 'Undo', keys: 'Control+Z', command: undo, depth: undoDepth },
  { label: 'Redo', keys: 'Control+Shift+Z', command: redo, depth: redoDepth },
];

const MARKS: Array<{ mark: MarkType; label: string; text: string; keys: string; className: string }> = [
  { mark: schema.marks.strong, label: 'Bold', text: 'B', keys: 'Control+B', className: 'tool-bold' },
  { mark: schema.marks.em, label: 'Italic', text: 'I', keys: 'Control+I', className: 'tool-italic' },
  { mark: schema.marks.code, label: 'Code', text: '</>', keys: 'Control+E', className: 'tool-code' },
  { mark: schema.marks.strike, label: 'Strikethrough', text: 'S', keys: 'Control+Shift+X', className: 'tool-strike' },
];

/**
 * Formatting within reach of the pointer and the keyboard (it is a toolbar: Tab reaches it, its buttons name
 * their shortcuts). Buttons keep the document's selection: they act on it without taking the focus.
 */
export function EditorToolbar({
  view,
  onInsert,
  onLink,
}: {
  view: EditorView;
  onInsert(type: BlockType): void;
  onLink(): void;
}) {
  const [inserting, setInserting] = useState(false);
  const state = view.state;
  const kind = textKindAt(state);
  const inSource = Boolean(state.selection.$from.parent.attrs.source);
  const run = (command: Command) => {
    command(view.state, view.dispatch);
    view.focus();
  };
  const keep = (event: MouseEvent) => event.preventDefault();
  return (
    <div className="document-toolbar" role="toolbar" aria-label="Format">
      <label className="toolbar-kind">
        <span className="visually-hidden">Block type</span>
        <select
          value={kind ?? ''}
          disabled={kind === null}
          onChange={(event) => run(turnInto(event.target.value as TextKind))}
        >
          {kind === null && <option value="">—</option>}
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {MARKS.map((m) => (
        <button
          key={m.label}
          type="button"
          className={`button-quiet tool ${m.className}`}
          aria-label={m.label}
          aria-pressed={markActive(state, m.mark)}
          aria-keyshortcuts={m.keys}
          title={`${m.label} (${m.keys.replace('Control', 'Ctrl')})`}
          disabled={inSource || kind === null}
          onMouseDown={keep}
          onClick={() => run(formatMark(m.mark))}
        >
          {m.text}
        </button>
      ))}
      <button
        type="button"
        className="button-quiet tool"
        aria-keyshortcuts="Control+K"
        title="Link (Ctrl+K)"
        disabled={inSource || state.selection.empty}
        onMouseDown={keep}
        onClick={onLink}
      >
        Link
      </button>
      <span className="toolbar-gap" />
      {HISTORY.map((step) => (
        <button
          key={step.label}
          type="button"
          className="button-quiet tool"
          aria-keyshortcuts={step.keys}
          title={`${step.label} (${step.keys.replace('Control', 'Ctrl')})`}
          disabled={step.depth(state) === 0}
          onMouseDown={keep}
          onClick={() => run(step.command)}
        >
          {step.label}
        </button>
      ))}
      <span className="toolbar-insert">
        <button type="button" className="tool" aria-expanded={inserting} onClick={() => setInserting((o) => !o)}>
          + Insert block
        </button>
        {inserting && (
          <BlockMenu
            types={BLOCK_TYPES}
            active={0}
            className="block-menu-toolbar"
            takesFocus
            onChoose={(type) => {
              setInserting(false);
              onInsert(type);
            }}
            onClose={() => {
              setInserting(false);
              view.focus();
            }}
          />
        )}
      </span>
    </div>
  );
}
