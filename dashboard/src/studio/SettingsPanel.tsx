import { useEffect, useId, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

interface Props {
  /** The panel's name ("Post settings"), its heading in the sheet. */
  label: string;
  /** Wide: a column beside the text. Narrow: a sheet over it, a modal dialog while open. */
  wide: boolean;
  open: boolean;
  /**
   * The height of the bar kept in view above it, in pixels, which the column keeps clear of. Set here, not on
   * the studio: a custom property changed on an element restyles everything under it, the whole body included.
   */
  below: number;
  onClose(): void;
  children: ReactNode;
}

/** A key pressed in a dialog opened from inside the sheet (the media picker, a revision): that dialog's own. */
function fromNestedDialog(target: EventTarget | null, sheet: HTMLElement): boolean {
  const dialog = target instanceof Element ? target.closest('dialog, [role="dialog"]') : null;
  return dialog !== null && dialog !== sheet;
}

/**
 * The post's settings, one element at every width: the panels keep what they hold (a search typed, a group
 * opened) when the window crosses the breakpoint. Wide, a complementary column that the studio's styles keep in
 * view with its own scroll. Narrow, a sheet from the bottom: modal while open, Tab wrapped inside it, Escape or
 * Close shuts it, and the focus goes back to what opened it (the bar's Settings button).
 */
export function SettingsPanel({ label, wide, open, below, onClose, children }: Props) {
  const ref = useRef<HTMLElement>(null);
  const headingId = useId();
  const sheet = !wide && open;
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!sheet) return;
    const panel = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || fromNestedDialog(event.target, panel)) return;
      event.preventDefault();
      close.current();
    };
    document.addEventListener('keydown', onKeyDown);
    // Only the sheet scrolls while it is open, not the text under it.
    document.documentElement.dataset.studioSheet = '';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      delete document.documentElement.dataset.studioSheet;
      if (opener?.isConnected) opener.focus();
    };
  }, [sheet]);

  const wrapTab = (event: KeyboardEvent<HTMLElement>) => {
    const panel = ref.current!;
    if (!sheet || event.key !== 'Tab' || fromNestedDialog(event.target, panel)) return;
    const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (element) => element.offsetParent !== null && !fromNestedDialog(element, panel),
    );
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && (document.activeElement === first || !panel.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <>
      {sheet && <div className="studio-sheet-backdrop" aria-hidden="true" onClick={onClose} />}
      <aside
        ref={ref}
        id="studio-settings"
        className={sheet ? 'studio-side studio-sheet' : 'studio-side'}
        hidden={!open}
        style={{ '--studio-bar-height': `${below}px` } as CSSProperties}
        role={sheet ? 'dialog' : undefined}
        aria-modal={sheet || undefined}
        aria-labelledby={headingId}
        onKeyDown={wrapTab}
      >
        <div className="studio-side-head">
          <h2 id={headingId}>{label}</h2>
          {sheet && (
            <button type="button" className="button-small" data-autofocus onClick={onClose}>
              Close
            </button>
          )}
        </div>
        {children}
      </aside>
    </>
  );
}
