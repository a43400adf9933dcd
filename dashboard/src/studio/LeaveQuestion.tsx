import { Dialog } from '../components/Dialog';

const VERBS: Record<string, { verb: string; gerund: string; becomes: string }> = {
  draft: { verb: 'Unpublish', gerund: 'Unpublishing', becomes: 'The draft it becomes' },
  archived: { verb: 'Archive', gerund: 'Archiving', becomes: 'The archived copy' },
};

/**
 * A live post or page leaving the site while it has changes that are not live: which copy it leaves as. With
 * the changes, one write (Update with the status move); without them, the live version moves and they are dropped.
 */
export function LeaveQuestion({
  kind,
  to,
  busy,
  onWithChanges,
  onWithoutChanges,
  onCancel,
}: {
  kind: 'post' | 'page';
  to: string;
  busy: boolean;
  onWithChanges(): void;
  onWithoutChanges(): void;
  onCancel(): void;
}) {
  const { verb, gerund, becomes } = VERBS[to] ?? { verb: 'Move', gerund: 'Moving', becomes: 'It' };
  return (
    <Dialog
      title={`${verb} with your changes?`}
      onClose={onCancel}
      description={
        <p>
          {gerund} takes this {kind} off the site, and it has changes that are not live yet. {becomes} can keep your
          changes, or be the live version as it is now, without them.
        </p>
      }
    >
      <div className="actions actions-stack">
        <button type="button" className="button-primary" disabled={busy} onClick={onWithChanges}>
          {verb} with my changes
        </button>
        <button type="button" className="button-danger" disabled={busy} onClick={onWithoutChanges}>
          {verb} the live version and drop my changes
        </button>
        <button type="button" data-autofocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
