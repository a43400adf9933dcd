import { useId } from 'react';
import { useCopy } from './copy';

interface SecretProps {
  label: string;
  value: string;
  /** What the person must understand about this value, shown before it. */
  warning: string;
}

/** A one-time secret (a new API key, a member's first password): read-only, selectable, copyable. */
export function Secret({ label, value, warning }: SecretProps) {
  const id = useId();
  const { copy, status } = useCopy(value, id);
  return (
    <div className="secret">
      <p className="notice notice-warn">
        <strong>{warning}</strong>
      </p>
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        {/* Focused on arrival: the button that asked for it has just been replaced by this. */}
        <input
          id={id}
          className="mono"
          readOnly
          autoFocus
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          data-secret
        />
        <button type="button" className="button-primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="hint" role="status">
        {status}
      </p>
    </div>
  );
}
