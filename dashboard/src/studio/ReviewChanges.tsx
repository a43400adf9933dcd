import { Dialog } from '../components/Dialog';
import { Changes } from './Changes';
import type { EditableFields } from './post-fields';

/** "Review changes": what Update would change on the live version, with the history's readable diff. */
export function ReviewChanges({
  kind,
  live,
  mine,
  onClose,
}: {
  kind: 'post' | 'page';
  live: EditableFields;
  mine: EditableFields;
  onClose(): void;
}) {
  return (
    <Dialog
      title="Changes not live yet"
      onClose={onClose}
      description={
        <p className="hint">
          What Update changes on the live {kind}: struck text is only in the live version, underlined text only in
          yours.
        </p>
      }
    >
      <Changes kind={kind} before={live} after={mine} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
