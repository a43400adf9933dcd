import { useEffect, useRef } from 'react';

/**
 * Ctrl/Cmd+S saves from anywhere in the studio: the text, the title, a card's field, the settings. One listener on
 * the window rather than one per field: a card's inputs keep their keys from the document's keymap, and a writer
 * presses it wherever the caret is.
 */
export function useSaveShortcut(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 's')
        return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
