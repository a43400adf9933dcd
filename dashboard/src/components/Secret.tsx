import { useId, useState } from 'react';

/** Copies text; the async Clipboard API first, then the old selection command for insecure origins. */
async function copyText(text: string, fallbackInput: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!fallbackInput) return false;
    fallbackInput.select();
    return document.execCommand('copy');
  }
}

interface SecretProps {
  label: string;
  value: string;
  /** What the person must understand about this value, shown before it. */
  warning: string;
}

/** A one-time secret (a new API key, a member's first password): read-only, selectable, copyable. */
export function Secret({ label, value, warning }: SecretProps) {
  const id = useId();
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
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
        <button
          type="button"
          className="button-primary"
          onClick={async () => {
            const ok = await copyText(value, document.getElementById(id) as HTMLInputElement | null);
            setCopied(ok ? 'copied' : 'failed');
          }}
        >
          Copy
        </button>
      </div>
      <p className="hint" role="status">
        {copied === 'copied'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Could not copy: select the text and copy it yourself.'
            : ''}
      </p>
    </div>
  );
}
