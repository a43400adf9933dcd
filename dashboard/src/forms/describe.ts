import type { ReactNode } from 'react';

/**
 * One field of a resource's form, described once: DescribedFields.tsx draws it, and `labelsOf` gives the labels a
 * refusal is summarised with (form-errors.ts, library/feedback.ts), whose words come from validation-words.ts.
 */
export interface FieldSpec {
  name: string;
  label: string;
  /** `url`: a one-line input of type url; `custom`: drawn by the form itself (a media choice), in its place. */
  kind: 'text' | 'url' | 'textarea' | 'select' | 'checkbox' | 'custom';
  /** Which fieldset of the form it is in, for forms in parts (`person`: an author's nested `person` object). */
  group?: string;
  /** Paths, slugs, codes: set in the monospaced face. */
  mono?: boolean;
  /** The field's own class on its wrapper (`mono`: label and input monospaced), where a form sets one. */
  className?: string;
  /** The browser's own check before sending, and the label's mark. */
  required?: boolean;
  /** A textarea's height in lines. */
  rows?: number;
  maxLength?: number;
  /** A number typed as text: what is not one is sent as typed, so the server names the field. */
  inputMode?: 'numeric';
  help?: ReactNode;
  options?: ReadonlyArray<{ value: string; label: string }>;
}

export type FieldValues = Record<string, string | boolean>;

/** The labels by field name, for the summary of a refusal ("Check Name, Slug."). */
export function labelsOf(fields: readonly FieldSpec[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field.name, field.label]));
}
