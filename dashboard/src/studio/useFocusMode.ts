import { useCallback, useEffect, useState } from 'react';

/** Ctrl+Shift+F, or Cmd+Shift+F on a Mac: with Shift held the key reads "F", and with Caps Lock on "f". */
function isFocusShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'f';
}

/** Whether a key pressed here belongs to a dialog open above the studio (a picker, a confirmation). */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog, [role="dialog"]') !== null;
}

/**
 * Focus mode: only the text column. The studio hides its own side panel and its bar's secondary items; the
 * app's navigation belongs to the shell, so it is hidden through an attribute on the root element, which the
 * shell's styles read (studio-layout.css), rather than through a prop threaded through every screen.
 */
export function useFocusMode(): { focus: boolean; setFocus(on: boolean): void } {
  const [focus, setFocusState] = useState(false);
  const setFocus = useCallback((on: boolean) => setFocusState(on), []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (isFocusShortcut(event)) {
        event.preventDefault();
        setFocusState((on) => !on);
      } else if (event.key === 'Escape' && !inDialog(event.target)) {
        setFocusState(false);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  useEffect(() => {
    if (!focus) return;
    const root = document.documentElement;
    root.dataset.studioFocus = '';
    return () => {
      delete root.dataset.studioFocus;
    };
  }, [focus]);

  return { focus, setFocus };
}
