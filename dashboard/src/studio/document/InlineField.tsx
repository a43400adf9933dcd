import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { baseKeymap } from 'prosemirror-commands';
import { EditorState, Selection, type Command, type Transaction } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Labelled, lengthCounter, MarkdownField } from '../TextFields';
import { formatMark, linkAt, markActive, setLink } from './commands';
import { inlineFromMarkdown, inlineToMarkdown } from './inline-markdown';
import { schema } from './schema';

/*
 * A card's inline Markdown field (a callout's title and text, a takeaway) typed as the document is: formatting shown
 * as formatting, Ctrl/Cmd+B, I, E, Shift+X and K, undo of its own. Its document is one paragraph. Markdown the
 * surface cannot show as formatting keeps the Markdown field, as a text block keeps its source.
 */

interface Props {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: string;
  multiline?: boolean;
  maxLength?: number;
}

export function InlineField(props: Props) {
  const showable = useMemo(() => inlineFromMarkdown(props.value).showable, [props.value]);
  // Once shown as formatting it stays so while the writer types: what it writes is canonical, so showable.
  const [formatted] = useState(showable);
  return formatted && showable ? <FormattedField {...props} /> : <MarkdownField {...props} />;
}

const hardBreak: Command = (state, dispatch) => {
  dispatch?.(state.tr.replaceSelectionWith(schema.nodes.hard_break!.create()).scrollIntoView());
  return true;
};

/** The field's state: its text as one paragraph, its own history and keys. */
function fieldState(value: string, multiline: boolean, openLink: Command): EditorState {
  const ignore: Command = () => true;
  return EditorState.create({
    doc: schema.nodes.paragraph!.create(null, inlineFromMarkdown(value).nodes),
    plugins: [
      history(),
      keymap({
        'Mod-z': undo,
        'Shift-Mod-z': redo,
        'Mod-y': redo,
        'Mod-b': formatMark(schema.marks.strong!),
        'Mod-i': formatMark(schema.marks.em!),
        'Mod-e': formatMark(schema.marks.code!),
        'Mod-Shift-x': formatMark(schema.marks.strike!),
        'Mod-k': openLink,
        Enter: multiline ? hardBreak : ignore,
        'Shift-Enter': multiline ? hardBreak : ignore,
      }),
      keymap(baseKeymap),
    ],
  });
}

const MARKS = [
  { type: schema.marks.strong!, label: 'Bold', text: 'B', keys: 'Control+B', className: 'tool-bold' },
  { type: schema.marks.em!, label: 'Italic', text: 'I', keys: 'Control+I', className: 'tool-italic' },
  { type: schema.marks.code!, label: 'Code', text: '</>', keys: 'Control+E', className: 'tool-code' },
];

function FormattedField({ label, value, onChange, error, hint, multiline = true, maxLength }: Props) {
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // What this field wrote and has not yet had back as its value, oldest first. A value among them is the echo of
  // one of its own writes (a render may bring an older one back after newer keys); any other comes from outside (the
  // document's undo) and is shown anew.
  const unechoed = useRef<string[]>([]);
  const changed = useRef(onChange);
  changed.current = onChange;
  const [, setTick] = useState(0);
  const [focused, setFocused] = useState(false);
  const [link, setLinkEdit] = useState<{ from: number; to: number; href: string } | null>(null);

  const openLink: Command = (state) => {
    const existing = linkAt(state);
    const { from, to, empty } = state.selection;
    if (existing) setLinkEdit({ from: existing.from, to: existing.to, href: existing.href });
    else if (!empty) setLinkEdit({ from, to, href: '' });
    return true;
  };

  useEffect(() => {
    const v = new EditorView(mount.current!, {
      state: fieldState(value, multiline, openLink),
      attributes: {
        role: 'textbox',
        'aria-label': label,
        'aria-multiline': String(multiline),
        class: multiline ? 'inline-field' : 'inline-field inline-field-single',
        spellcheck: 'true',
      },
      // Escape is the card's (back to the document, CardFrame); ProseMirror would otherwise take it and mark it
      // handled, and the card would never see it.
      handleDOMEvents: { keydown: (_view, event) => event.key === 'Escape' },
      dispatchTransaction(tr: Transaction) {
        v.updateState(v.state.apply(tr));
        if (tr.docChanged) {
          const markdown = inlineToMarkdown(v.state.doc);
          unechoed.current.push(markdown);
          changed.current(markdown);
        }
        setTick((n) => n + 1);
      },
    });
    view.current = v;
    setTick((n) => n + 1);
    return () => {
      v.destroy();
      view.current = null;
    };
    // One view for the field's life: a value from outside replaces its state below.
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const echo = unechoed.current.indexOf(value);
    if (echo >= 0) {
      unechoed.current.splice(0, echo + 1);
      return;
    }
    unechoed.current = [];
    if (value === inlineToMarkdown(v.state.doc)) return;
    const state = fieldState(value, multiline, openLink);
    v.updateState(state.apply(state.tr.setSelection(Selection.atEnd(state.doc))));
  }, [value]);

  const v = view.current;
  const run = (command: Command) => {
    if (!v) return;
    command(v.state, v.dispatch);
    v.focus();
  };
  const { over, counter } = lengthCounter(value, maxLength);

  return (
    <Labelled label={label} error={error} hint={counter ?? hint}>
      {({ describedBy, invalid }) => (
        <div
          className="markdown-field inline-field-frame"
          onFocus={() => setFocused(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
          }}
        >
          {focused && v && (
            <div className="md-toolbar" role="toolbar" aria-label={`Format ${label.toLowerCase()}`}>
              {MARKS.map((m) => (
                <button
                  key={m.label}
                  type="button"
                  className={`button-quiet ${m.className}`}
                  aria-label={m.label}
                  aria-pressed={markActive(v.state, m.type)}
                  aria-keyshortcuts={m.keys}
                  title={`${m.label} (${m.keys.replace('Control', 'Ctrl')})`}
                  tabIndex={-1}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => run(formatMark(m.type))}
                >
                  {m.text}
                </button>
              ))}
              <button
                type="button"
                className="button-quiet"
                aria-keyshortcuts="Control+K"
                title="Link (Ctrl+K)"
                tabIndex={-1}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => run(openLink)}
              >
                Link
              </button>
            </div>
          )}
          <FieldDescription view={v} describedBy={describedBy} invalid={invalid || over} />
          <div ref={mount} className="inline-field-mount" />
          {link && v && (
            <LinkRow
              href={link.href}
              onApply={(href) => {
                setLinkEdit(null);
                run(setLink(href.trim(), link));
              }}
              onRemove={() => {
                setLinkEdit(null);
                run(setLink('', link));
              }}
              onClose={() => {
                setLinkEdit(null);
                v.focus();
              }}
            />
          )}
        </div>
      )}
    </Labelled>
  );
}

/** The label's error and hint, described on the editable itself (the element a screen reader is in). */
function FieldDescription({
  view,
  describedBy,
  invalid,
}: {
  view: EditorView | null;
  describedBy: string | undefined;
  invalid: boolean;
}) {
  useEffect(() => {
    const dom = view?.dom;
    if (!dom) return;
    if (describedBy) dom.setAttribute('aria-describedby', describedBy);
    else dom.removeAttribute('aria-describedby');
    if (invalid) dom.setAttribute('aria-invalid', 'true');
    else dom.removeAttribute('aria-invalid');
  }, [view, describedBy, invalid]);
  return null;
}

/** The field's link: its address, applied with Enter, removed, or left with Escape. */
function LinkRow({
  href,
  onApply,
  onRemove,
  onClose,
}: {
  href: string;
  onApply(href: string): void;
  onRemove(): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState(href);
  return (
    <div className="inline-field-link" role="group" aria-label="Link">
      <input
        aria-label="Link address"
        type="url"
        placeholder="https://"
        value={draft}
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onApply(draft);
          } else if (event.key === 'Escape') {
            // The card's own Escape (back to the document) waits: this one only closes the row.
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      />
      <button type="button" onClick={() => onApply(draft)}>
        Apply
      </button>
      {href && (
        <button type="button" className="button-quiet" onClick={onRemove}>
          Remove link
        </button>
      )}
    </div>
  );
}
