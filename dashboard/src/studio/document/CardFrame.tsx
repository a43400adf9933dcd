import { memo } from 'react';
import { BlockFields } from '../BlockFields';
import { BLOCK_LABELS, type EditorBlock } from '../model';

/**
 * A card in the flow: its kind, a Delete, and its fields. Escape in a field gives the keyboard back to the
 * document with the card selected (Enter goes back in).
 */
export const CardFrame = memo(function CardFrame({
  block,
  errors,
  workspaceId,
  onChange,
  onDelete,
  onLeave,
}: {
  block: EditorBlock;
  errors: Record<string, string> | undefined;
  workspaceId: string;
  onChange(block: EditorBlock): void;
  onDelete(): void;
  onLeave(): void;
}) {
  const label = BLOCK_LABELS[block.type];
  return (
    <div
      className="card-frame"
      role="group"
      aria-label={`${label} block`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          onLeave();
        }
      }}
    >
      <div className="card-head">
        <span className="card-kind">{label}</span>
        <button type="button" className="button-quiet button-danger-quiet" onClick={onDelete}>
          Delete<span className="visually-hidden"> this {label.toLowerCase()} block</span>
        </button>
      </div>
      {errors?.[''] && <p className="field-error">{errors['']}</p>}
      <div className="card-body">
        {block.type === 'divider' ? null : (
          <BlockFields block={block} errors={errors} workspaceId={workspaceId} onChange={onChange} />
        )}
      </div>
    </div>
  );
});
