import { useEffect, useId, useState, type ReactNode } from 'react';
import { MediaThumb } from '../media/MediaThumb';
import { mediaName } from '../media/thumbnail';
import { useMediaChoice } from '../media/useMediaChoice';
import { Labelled } from '../studio/TextFields';

interface Field<T> {
  label: string;
  value: T | undefined;
  error?: string | undefined;
  hint?: ReactNode;
  /** undefined: the field is cleared, and left out of the object. */
  onChange(value: T | undefined): void;
}

/**
 * A collapsible group of the panel. It starts open when one of its fields holds a value, and opens when the
 * server refuses one of them, so a refusal is never hidden inside a closed group.
 */
export function SeoSection({
  title,
  filled,
  flagged,
  children,
}: {
  title: string;
  filled: boolean;
  flagged: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(filled);
  useEffect(() => {
    if (flagged) setOpen(true);
  }, [flagged]);
  return (
    <details className="seo-section" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        {title}
        {flagged && <span className="field-error"> — see the marked fields</span>}
      </summary>
      <div className="seo-section-body">{children}</div>
    </details>
  );
}

/**
 * A robots directive: unset (the search engine's default), on or off. A select, not a checkbox, because a
 * checkbox cannot say "not set", and an unset directive is not sent at all.
 */
export function SwitchField({
  label,
  value,
  error,
  hint,
  onChange,
  on,
  off,
}: Field<boolean> & { on: string; off: string }) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value === undefined ? '' : String(value)}
          onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value === 'true')}
        >
          <option value="">Default</option>
          <option value="true">{on}</option>
          <option value="false">{off}</option>
        </select>
      )}
    </Labelled>
  );
}

/** One of a fixed list of strings, or unset. */
export function OptionField({
  label,
  value,
  error,
  hint,
  onChange,
  options,
}: Field<string> & { options: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value ?? ''}
          onChange={(event) => onChange(event.target.value || undefined)}
        >
          <option value="">Default</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

/** A whole number, or unset; what is not one goes to the server as typed, whose refusal shows on the field. */
export function NumberField({ label, value, error, hint, onChange }: Field<number>) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          type="number"
          step={1}
          min={-1}
          inputMode="numeric"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value === undefined ? '' : String(value)}
          onChange={(event) => {
            const text = event.target.value.trim();
            onChange(text === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));
          }}
        />
      )}
    </Labelled>
  );
}

const keywordsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * Keywords one per line. The text is the field's own while the writer types (a new line is an empty keyword
 * until something is typed on it, and empty keywords are not sent); it follows the value when that changes
 * from outside (a reload, a restored copy).
 */
export function KeywordsField({ label, value, error, hint, onChange }: Field<string[]>) {
  const list = value ?? [];
  const [text, setText] = useState(list.join('\n'));
  const joined = list.join('\n');
  useEffect(() => {
    if (keywordsOf(text).join('\n') !== joined) setText(joined);
    // Only a change of the value from outside resets the text.
  }, [joined]);
  return (
    <Labelled label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          rows={Math.min(8, Math.max(2, list.length + 1))}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            const keywords = keywordsOf(event.target.value);
            onChange(keywords.length > 0 ? keywords : undefined);
          }}
        />
      )}
    </Labelled>
  );
}

/** An image of the library, chosen with the media picker and shown as a thumbnail with its name. */
export function ImageField({
  label,
  value,
  error,
  onChange,
  workspaceId,
}: Omit<Field<string>, 'hint'> & { workspaceId: string }) {
  const labelId = useId();
  const errorId = useId();
  const { media: image, failed, openPicker, picker } = useMediaChoice(workspaceId, value, onChange);
  const noun = label.charAt(0).toLowerCase() + label.slice(1);
  return (
    <div className="field" role="group" aria-labelledby={labelId} aria-describedby={error ? errorId : undefined}>
      <span id={labelId} className="field-label">
        {label}
      </span>
      {image && (
        <div className="seo-image">
          <MediaThumb item={image} width={160} />
          <span>{mediaName(image)}</span>
        </div>
      )}
      {failed && <p className="hint">The chosen image could not be found; choose another or remove it.</p>}
      <div className="actions">
        <button type="button" onClick={openPicker}>
          {value ? `Change ${noun}` : `Choose ${noun}`}
        </button>
        {value && (
          <button type="button" className="button-quiet" onClick={() => onChange(undefined)}>
            Remove {noun}
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      {picker}
    </div>
  );
}
