import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

/** The ids that tie an error and a hint to their control, for a screen reader to read with it. */
function useDescription(error: string | undefined, hint: ReactNode) {
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const describedBy = [error && errorId, hint && hintId].filter(Boolean).join(' ') || undefined;
  const below = (
    <>
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
    </>
  );
  return { id, describedBy, below };
}

interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
}

export function TextArea({ label, hint, error, ...textarea }: TextAreaProps) {
  const { id, describedBy, below } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...textarea} />
      {below}
    </div>
  );
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: Array<{ value: string; label: string }>;
  hint?: ReactNode;
  error?: string | undefined;
}

export function Select({ label, options, hint, error, ...select }: SelectProps) {
  const { id, describedBy, below } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {below}
    </div>
  );
}

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
}

export function Checkbox({ label, hint, error, ...input }: CheckboxProps) {
  const { id, describedBy, below } = useDescription(error, hint);
  return (
    <div className="field">
      <div className="check">
        <input
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {below}
    </div>
  );
}
