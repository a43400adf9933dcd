import { useState } from 'react';

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

/**
 * A Copy button's action and the line that says how it went. `inputId` names the read-only input that shows
 * the value, selected for the fallback copy.
 */
export function useCopy(value: string, inputId: string): { copy(): Promise<void>; status: string } {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    const ok = await copyText(value, document.getElementById(inputId) as HTMLInputElement | null);
    setState(ok ? 'copied' : 'failed');
  };
  const status =
    state === 'copied'
      ? 'Copied to the clipboard.'
      : state === 'failed'
        ? 'Could not copy: select the text and copy it yourself.'
        : '';
  return { copy, status };
}
