import { memo } from 'react';
import { BlockFields } from '../BlockFields';
import { BLOCK_LABELS, type EditorBlock } from '../model';
import type { CardEntry } from './card-view';

/** What a card does to its own node (DocumentEditor holds one of these for all cards). */
export interface CardActions {
  change(entry: CardEntry, block: EditorBlock): void;
  remove(entry: CardEntry): void;
  leave(entry: CardEntry): void;
}

/**
 * A card in the flow: its kind, a Delete, and its fields. Escape in a field gives the keyboard back to the
 * document with the card selected (Enter goes back in).
 */
export const CardFrame = memo(function CardFrame({
  entry,
  workspaceId,
  actions,
}: {
  entry: CardEntry;
  workspaceId: string;
  actions: CardActions;
}) {
  const { block, errors } = entry;
  const label = BLOCK_LABELS[block.type];
  return (
    <div
      className="card-frame"
      role="group"
      aria-label={`${label} block`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          actions.leave(entry);
        }
      }}
    >
      <div className="card-head">
        <span className="card-kind">{label}</span>
        <button type="button" className="button-quiet button-danger-quiet" onClick={() => actions.remove(entry)}>
          Delete<span className="visually-hidden"> this {label.toLowerCase()} block</span>
        </button>
      </div>
      {errors?.[''] && <p className="field-error">{errors['']}</p>}
      <div className="card-body">
        <BlockFields
          block={block}
          errors={errors}
          workspaceId={workspaceId}
          onChange={(next) => actions.change(entry, next)}
        />
      </div>
    </div>
  );
});
