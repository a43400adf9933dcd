import { useId } from 'react';

interface Props {
  value: string;
  error?: string | undefined;
  onChange(value: string): void;
}

/**
 * The title as the head of the text it names: large, borderless, wrapping like a heading. A text area that
 * grows with its lines (field-sizing), as a one-line input would hide the end of a long title; a title is
 * one line of text, so Enter adds no line and a pasted line break becomes a space.
 */
export function TitleField({ value, error, onChange }: Props) {
  const id = useId();
  const errorId = useId();
  return (
    <div className="studio-title">
      <label htmlFor={id} className="visually-hidden">
        Title
      </label>
      <textarea
        id={id}
        rows={1}
        placeholder="Title"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onKeyDown={(event) => {
          // An input method's Enter commits what it composed: that one is left alone.
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) event.preventDefault();
        }}
        onChange={(event) => onChange(event.target.value.replace(/\s*[\r\n]+\s*/g, ' '))}
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
