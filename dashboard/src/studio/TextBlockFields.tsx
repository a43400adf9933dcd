import { changed, optional, type TypedFieldsProps } from './block-fields';
import { Choice, MarkdownField, PlainField } from './TextFields';

const LEVELS = [2, 3, 4].map((level) => ({ value: level, label: `Level ${level}` }));

export function HeadingFields({ block, errors, onChange }: TypedFieldsProps<'heading'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <div className="field-row">
      <Choice label="Level" value={block.level} options={LEVELS} onChange={(level) => set({ level })} />
      <MarkdownField
        label="Heading text"
        multiline={false}
        value={block.text}
        error={errors.text}
        onChange={(text) => set({ text })}
      />
    </div>
  );
}

export function ListFields({ block, errors, onChange }: TypedFieldsProps<'list'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <>
      <Choice
        label="List style"
        value={block.style}
        options={[
          { value: 'bullet', label: 'Bullets' },
          { value: 'ordered', label: 'Numbered' },
        ]}
        onChange={(style) => set({ style })}
      />
      <MarkdownField
        label="Items, one per line"
        value={block.items.join('\n')}
        error={errors.items ?? Object.entries(errors).find(([k]) => k.startsWith('items/'))?.[1]}
        onChange={(text) => set({ items: text.split('\n') })}
      />
    </>
  );
}

export function QuoteFields({ block, errors, onChange }: TypedFieldsProps<'quote'>) {
  return (
    <>
      <MarkdownField
        label="Quote"
        value={block.text}
        error={errors.text}
        onChange={(text) => onChange(changed(block, { text }))}
      />
      <MarkdownField
        label="Attribution (optional)"
        multiline={false}
        value={block.attribution ?? ''}
        error={errors.attribution}
        onChange={(value) => onChange(optional(block, 'attribution', value))}
      />
    </>
  );
}

export function CodeFields({ block, errors, onChange }: TypedFieldsProps<'code'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <>
      <PlainField
        label="Language"
        mono
        value={block.language}
        error={errors.language}
        hint="Such as ts, python or html."
        onChange={(language) => set({ language })}
      />
      <PlainField
        label="Code"
        mono
        multiline
        value={block.code}
        error={errors.code}
        onChange={(code) => set({ code })}
      />
    </>
  );
}
