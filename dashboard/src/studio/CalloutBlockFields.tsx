import { changed, optional, type TypedFieldsProps } from './block-fields';
import { InlineField } from './document/InlineField';
import { Choice, PlainField } from './TextFields';

const CALLOUTS = ['info', 'warning', 'success', 'error'].map((v) => ({
  value: v,
  label: v[0]!.toUpperCase() + v.slice(1),
}));

export function CalloutFields({ block, errors, onChange }: TypedFieldsProps<'callout'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <>
      <Choice label="Kind" value={block.variant} options={CALLOUTS} onChange={(variant) => set({ variant })} />
      <InlineField
        label="Title (optional)"
        multiline={false}
        value={block.title ?? ''}
        error={errors.title}
        onChange={(value) => onChange(optional(block, 'title', value))}
      />
      <InlineField label="Callout text" value={block.body} error={errors.body} onChange={(body) => set({ body })} />
    </>
  );
}

export function CtaFields({ block, errors, onChange }: TypedFieldsProps<'cta'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <>
      <Choice
        label="Style"
        value={block.variant}
        options={[
          { value: 'default', label: 'Filled' },
          { value: 'outlined', label: 'Outlined' },
        ]}
        onChange={(variant) => set({ variant })}
      />
      <InlineField
        multiline={false}
        label="Call to action title"
        value={block.title}
        error={errors.title}
        onChange={(title) => set({ title })}
      />
      <InlineField
        label="Call to action text"
        multiline
        value={block.body}
        error={errors.body}
        onChange={(body) => set({ body })}
      />
      <div className="field-row">
        <InlineField
          multiline={false}
          label="Button label"
          value={block.linkLabel}
          error={errors.linkLabel}
          onChange={(linkLabel) => set({ linkLabel })}
        />
        <PlainField
          label="Button link"
          type="url"
          value={block.linkUrl}
          error={errors.linkUrl}
          onChange={(linkUrl) => set({ linkUrl })}
        />
      </div>
    </>
  );
}
