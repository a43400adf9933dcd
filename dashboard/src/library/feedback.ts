import { ApiError } from '../api.js';
import type { FormFeedback } from '../form-errors.js';
import { formFeedback } from '../form-errors.js';
import { inWords } from '../validation-words.js';

interface Issue {
  path?: string;
  message?: string;
}

/** What a form says about a refusal it understands better than the validator (a conflict, a loop). */
export interface Explained {
  field: string;
  message: string;
}

/**
 * formFeedback for forms with nested fields: an issue's JSON Pointer goes to the longest label key it starts with
 * (`/person/jobTitle` → `person/jobTitle`, `/sameAs/2` → `sameAs`), and an item of a one-per-line list is named by
 * its line. `explain` turns the refusals a form knows (a taken slug, a loop) into words on their field first.
 */
export function libraryFeedback(
  error: unknown,
  labels: Record<string, string>,
  explain?: (error: ApiError) => Explained | null,
): FormFeedback {
  if (error instanceof ApiError && explain) {
    const explained = explain(error);
    if (explained) {
      const label = labels[explained.field];
      return {
        fields: label ? { [explained.field]: explained.message } : {},
        summary: label ? `Check ${label}.` : explained.message,
      };
    }
  }
  const issues =
    error instanceof ApiError && Array.isArray(error.details?.issues) ? (error.details.issues as Issue[]) : [];
  if (issues.length === 0) return formFeedback(error, labels);

  const fields: Partial<Record<string, string>> = {};
  const unplaced: string[] = [];
  for (const issue of issues) {
    const segments = (issue.path ?? '').split('/').slice(1);
    let key = '';
    let rest: string[] = [];
    for (let length = segments.length; length > 0; length -= 1) {
      const candidate = segments.slice(0, length).join('/');
      if (candidate in labels) {
        key = candidate;
        rest = segments.slice(length);
        break;
      }
    }
    const words = inWords(issue.message ?? 'is not valid', segments.at(-1) ?? '');
    if (words === null) continue;
    if (!key) {
      unplaced.push(words);
      continue;
    }
    const line = rest.length > 0 && /^\d+$/.test(rest[0]!) ? `Line ${Number(rest[0]) + 1}: ` : '';
    fields[key] ??= `${line}${words}`;
  }
  const named = Object.keys(fields).map((field) => labels[field]);
  const parts = [named.length > 0 ? `Check ${named.join(', ')}.` : '', ...unplaced].filter(Boolean);
  return { fields, summary: parts.length > 0 ? parts.join(' ') : 'The server did not accept these values.' };
}

/** A slug another row already has (409 naming `slug`), in words. */
export function takenSlug(what: string) {
  return (error: ApiError): Explained | null =>
    error.status === 409 && error.details?.field === 'slug'
      ? { field: 'slug', message: `Another ${what} already uses this slug. Choose another, or leave it empty.` }
      : null;
}

/** One value a line: how the forms edit lists of strings (same-as links, keywords). */
export const toLines = (values: readonly string[] | undefined | null) => (values ?? []).join('\n');
export const fromLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** JSON with every object's keys in order: the server may list a stored object's keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** Only the fields whose value differs from the stored one: a PATCH rewrites nothing it was not asked to. */
export function changedFields(next: Record<string, unknown>, stored: object): Record<string, unknown> {
  const before = stored as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(next).filter(([name, value]) => canonical(value) !== canonical(before[name])),
  );
}

/** "1 post", "3 posts". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? noun : plural}`;
}
