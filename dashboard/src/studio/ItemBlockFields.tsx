import type { ReactNode } from 'react';
import { changed, type TypedFieldsProps } from './block-fields';
import { LIMITS } from './model';
import { InlineField } from './document/InlineField';

export function FaqFields({ block, errors, onChange }: TypedFieldsProps<'faq'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <ItemList
      noun="question"
      count={block.items.length}
      min={LIMITS.faq.min}
      max={LIMITS.faq.max}
      error={errors.items}
      onAdd={() => set({ items: [...block.items, { question: '', answer: '' }] })}
      onRemove={(i) => set({ items: block.items.filter((_, j) => j !== i) })}
      render={(i) => (
        <>
          <InlineField
            multiline={false}
            label={`Question ${i + 1}`}
            value={block.items[i]!.question}
            error={errors[`items/${i}/question`]}
            onChange={(question) => set({ items: block.items.map((it, j) => (j === i ? { ...it, question } : it)) })}
          />
          <InlineField
            label={`Answer ${i + 1}`}
            multiline
            value={block.items[i]!.answer}
            error={errors[`items/${i}/answer`]}
            onChange={(answer) => set({ items: block.items.map((it, j) => (j === i ? { ...it, answer } : it)) })}
          />
        </>
      )}
    />
  );
}

export function TakeawaysFields({ block, errors, onChange }: TypedFieldsProps<'key_takeaways'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <ItemList
      noun="takeaway"
      count={block.items.length}
      min={LIMITS.takeaways.min}
      max={LIMITS.takeaways.max}
      error={errors.items}
      onAdd={() => set({ items: [...block.items, ''] })}
      onRemove={(i) => set({ items: block.items.filter((_, j) => j !== i) })}
      render={(i) => (
        <InlineField
          label={`Takeaway ${i + 1}`}
          multiline={false}
          value={block.items[i]!}
          error={errors[`items/${i}`]}
          onChange={(text) => set({ items: block.items.map((it, j) => (j === i ? text : it)) })}
        />
      )}
    />
  );
}

/** Items with add and remove buttons held to the block's limits, which the buttons say. */
function ItemList({
  noun,
  count,
  min,
  max,
  error,
  onAdd,
  onRemove,
  render,
}: {
  noun: string;
  count: number;
  min: number;
  max: number;
  error: string | undefined;
  onAdd(): void;
  onRemove(index: number): void;
  render(index: number): ReactNode;
}) {
  return (
    <div className="item-list">
      {Array.from({ length: count }, (_, i) => (
        <div className="item" key={i}>
          {render(i)}
          <button type="button" className="button-quiet" disabled={count <= min} onClick={() => onRemove(i)}>
            Remove {noun} {i + 1}
          </button>
        </div>
      ))}
      {error && <p className="field-error">{error}</p>}
      <p className="item-list-add">
        <button type="button" disabled={count >= max} onClick={onAdd}>
          Add a {noun}
        </button>{' '}
        <span className="hint">
          {count} of {min}–{max}
        </span>
      </p>
    </div>
  );
}
