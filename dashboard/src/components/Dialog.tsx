import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** Text under the title that says what the dialog is for; read out when it opens. */
  description?: ReactNode;
}

/**
 * A modal that exists while it is mounted. The native <dialog> makes the rest of the page inert and
 * gives Escape; Tab is wrapped by hand as well, because Chrome lets it leave a modal for the browser
 * chrome. Focus goes back to whatever opened it, or to the page's main region when that is gone
 * (a Revoke button disappears once its key is revoked).
 */
export function Dialog({ title, onClose, children, description }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      window.setTimeout(() => {
        const target =
          opener && opener.isConnected && opener !== document.body
            ? opener
            : document.querySelector<HTMLElement>('main');
        target?.focus();
      }, 0);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const items = Array.from(ref.current!.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => el.offsetParent !== null,
    );
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        // Escape: the parent decides (it unmounts us), so the DOM and React never disagree about `open`.
        event.preventDefault();
        close.current();
      }}
    >
      <div className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button-icon" aria-label="Close" onClick={() => close.current()}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {description && (
        <div id={descriptionId} className="dialog-description">
          {description}
        </div>
      )}
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}

interface ConfirmProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  error?: ReactNode;
  onConfirm(): void;
  onCancel(): void;
}

/** Yes/no for anything that cannot be undone; Cancel takes the focus so Enter is never destructive. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger,
  pending,
  error,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  return (
    <Dialog title={title} onClose={onCancel} description={children}>
      {error}
      <div className="actions">
        <button type="button" data-autofocus onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={danger ? 'button-danger' : 'button-primary'}
          disabled={pending}
          onClick={onConfirm}
        >
          {pending ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

interface DialogActionsProps {
  onCancel(): void;
  /** While the form's request runs: the submit button is disabled and says `pendingLabel`. */
  pending: boolean;
  label: string;
  pendingLabel: string;
}

/** A dialog form's Cancel and submit buttons, the submit one saying what it does while it does it. */
export function DialogActions({ onCancel, pending, label, pendingLabel }: DialogActionsProps) {
  return (
    <div className="actions">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button-primary" disabled={pending}>
        {pending ? pendingLabel : label}
      </button>
    </div>
  );
}

/** The one button of a dialog that only tells (a secret shown once, a result): Done closes it. */
export function DialogDone({ onClose }: { onClose(): void }) {
  return (
    <div className="actions">
      <button type="button" className="button-primary" onClick={onClose}>
        Done
      </button>
    </div>
  );
}
