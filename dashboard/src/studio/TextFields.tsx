import { useId, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { applyMark, shortcutMark, type Mark } from './markdown';

interface Described {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** Label, control, error and hint tied together, as components/Field.tsx does for plain inputs. */
export function Labelled({
  label,
  error,
  hint,
  children,
}: Described & { children(props: { id: string; describedBy: string | undefined; invalid: boolean }): ReactNode }) {
  const id = useId();
  const errorId = useId();
  const hintId = useId();
  const describedBy = [error && errorId, hint && hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

const MARKS: Array<{ mark: Mark; label: string; keys: string; text: ReactNode }> = [
  { mark: 'bold', label: 'Bold', keys: 'Control+B', text: <strong>B</strong> },
  { mark: 'italic', label: 'Italic', keys: 'Control+I', text: <em>I</em> },
  { mark: 'link', label: 'Link', keys: 'Control+K', text: 'Link' },
  { mark: 'code', label: 'Code', keys: 'Control+E', text: <code>{'</>'}</code> },
];

interface MarkdownProps extends Described {
  value: string;
  onChange(value: string): void;
  multiline?: boolean;
  /** Pasted text the field hands on (to split into blocks) instead of inserting; true when it took it. */
  onPasteText?(text: string): boolean;
  onKeyDown?(event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>): void;
  maxLength?: number;
  className?: string;
  /** Extra content under the control (the "/" menu). */
  after?: ReactNode;
  controls?: string;
}

/** Whether a value is over its limit, and the count shown once it nears it (null before). */
export function lengthCounter(value: string, maxLength: number | undefined): { over: boolean; counter: ReactNode } {
  if (maxLength === undefined) return { over: false, counter: null };
  const over = value.length > maxLength;
  const counter =
    value.length > maxLength * 0.9 ? (
      <span className={over ? 'counter counter-over' : 'counter'}>
        {value.length.toLocaleString()} / {maxLength.toLocaleString()} characters
      </span>
    ) : null;
  return { over, counter };
}

/**
 * Inline Markdown, written as Markdown: a toolbar (shown while the field has focus) and Ctrl/Cmd+B, I, K, E
 * put the marks into the text itself, so what the writer sees is what the API stores.
 */
export function MarkdownField({
  label,
  error,
  hint,
  value,
  onChange,
  multiline = true,
  onPasteText,
  onKeyDown,
  maxLength,
  className,
  after,
}: MarkdownProps) {
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const [focused, setFocused] = useState(false);
  const toolbarId = useId();

  const mark = (which: Mark) => {
    const el = ref.current;
    if (!el) return;
    const edit = applyMark(value, el.selectionStart ?? value.length, el.selectionEnd ?? value.length, which);
    onChange(edit.value);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(edit.selectionStart, edit.selectionEnd);
    });
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    const which = shortcutMark(event);
    if (which) {
      event.preventDefault();
      mark(which);
      return;
    }
    onKeyDown?.(event);
  };
  const paste = (event: ClipboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    if (!onPasteText) return;
    const text = event.clipboardData.getData('text/plain');
    if (text && onPasteText(text)) event.preventDefault();
  };
  const { over, counter } = lengthCounter(value, maxLength);

  return (
    <Labelled label={label} error={error} hint={counter ?? hint}>
      {({ id, describedBy, invalid }) => (
        <div
          className={`markdown-field ${className ?? ''}`}
          onFocus={() => setFocused(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
          }}
        >
          {focused && (
            <div className="md-toolbar" role="toolbar" aria-label={`Format ${label.toLowerCase()}`} id={toolbarId}>
              {MARKS.map((m) => (
                <button
                  key={m.mark}
                  type="button"
                  className="button-quiet"
                  aria-label={m.label}
                  aria-keyshortcuts={m.keys}
                  title={`${m.label} (${m.keys.replace('Control', 'Ctrl')})`}
                  tabIndex={-1}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => mark(m.mark)}
                >
                  {m.text}
                </button>
              ))}
            </div>
          )}
          {multiline ? (
            <textarea
              ref={ref}
              id={id}
              value={value}
              rows={Math.min(12, Math.max(2, Math.ceil(value.length / 70)))}
              aria-invalid={invalid || over || undefined}
              aria-describedby={describedBy}
              onChange={(event) => onChange(event.target.value)}
              onKeyDown={keyDown}
              onPaste={paste}
            />
          ) : (
            <input
              ref={ref}
              id={id}
              value={value}
              aria-invalid={invalid || over || undefined}
              aria-describedby={describedBy}
              onChange={(event) => onChange(event.target.value)}
              onKeyDown={keyDown}
              onPaste={paste}
            />
          )}
          {after}
        </div>
      )}
    </Labelled>
  );
}

/** A plain text input or textarea with the studio's label, error and hint. */
export function PlainField({
  label,
  error,
  hint,
  value,
  onChange,
  multiline,
  type = 'text',
  mono,
}: Described & { value: string; onChange(value: string): void; multiline?: boolean; type?: string; mono?: boolean }) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) =>
        multiline ? (
          <textarea
            id={id}
            className={mono ? 'mono' : undefined}
            value={value}
            rows={Math.min(16, Math.max(3, value.split('\n').length + 1))}
            spellCheck={mono ? false : undefined}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            id={id}
            type={type}
            className={mono ? 'mono' : undefined}
            value={value}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Labelled>
  );
}

export function Choice<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange(value: T): void;
}) {
  return (
    <Labelled label={label}>
      {({ id }) => (
        <select
          id={id}
          value={String(value)}
          onChange={(event) => {
            const picked = options.find((o) => String(o.value) === event.target.value);
            if (picked) onChange(picked.value);
          }}
        >
          {options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}
