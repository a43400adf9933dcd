import { Fragment, type ReactNode } from 'react';
import { Field } from '../components/Field';
import { Checkbox, Select, TextArea } from '../library/inputs';
import type { FieldSpec, FieldValues } from './describe';

export { labelsOf, type FieldSpec } from './describe';

interface Props {
  fields: readonly FieldSpec[];
  values: FieldValues;
  /** What the server refused, in words, by field name. */
  errors: Partial<Record<string, string>>;
  onChange(name: string, value: string | boolean): void;
  /** Hints that depend on the moment (an edit rather than a create, a chain found), over the description's. */
  hints?: Partial<Record<string, ReactNode>>;
  /** The field the dialog puts the focus in. */
  autofocus?: string;
  /** Shown but not editable (a member who may only read). */
  readOnly?: boolean;
  /** The choices of a select that depend on the moment (the parents a category may move under), by name. */
  options?: Partial<Record<string, ReadonlyArray<{ value: string; label: string }>>>;
  /** What the form draws for its `custom` fields, by name. */
  custom?: Partial<Record<string, ReactNode>>;
}

/** A resource's fields as its description lists them, each with its label, hint and the server's refusal. */
export function DescribedFields({
  fields,
  values,
  errors,
  onChange,
  hints = {},
  autofocus,
  readOnly,
  custom = {},
  options = {},
}: Props) {
  return (
    <>
      {fields.map((field) => {
        const hint = field.name in hints ? hints[field.name] : field.help;
        const focus = field.name === autofocus ? { 'data-autofocus': true } : {};
        const common = { label: field.label, hint, error: errors[field.name] };
        switch (field.kind) {
          case 'custom':
            return <Fragment key={field.name}>{custom[field.name]}</Fragment>;
          case 'checkbox':
            return (
              <Checkbox
                key={field.name}
                {...common}
                checked={values[field.name] === true}
                onChange={(e) => onChange(field.name, e.target.checked)}
                {...focus}
              />
            );
          case 'select':
            return (
              <Select
                key={field.name}
                {...common}
                options={[...(options[field.name] ?? field.options ?? [])]}
                value={String(values[field.name] ?? '')}
                onChange={(e) => onChange(field.name, e.target.value)}
                {...focus}
              />
            );
          case 'textarea':
            return (
              <TextArea
                key={field.name}
                {...common}
                maxLength={field.maxLength}
                {...(field.rows ? { rows: field.rows } : {})}
                value={String(values[field.name] ?? '')}
                onChange={(e) => onChange(field.name, e.target.value)}
                {...focus}
              />
            );
          default:
            return (
              <Field
                key={field.name}
                {...common}
                className={field.className ?? (field.mono ? 'field-mono' : undefined)}
                required={field.required}
                type={field.kind === 'url' ? 'url' : 'text'}
                inputMode={field.inputMode}
                readOnly={readOnly}
                maxLength={field.maxLength}
                value={String(values[field.name] ?? '')}
                onChange={(e) => onChange(field.name, e.target.value)}
                {...focus}
              />
            );
        }
      })}
    </>
  );
}
