import { ApiError, describeError } from './api.js';
import { inWords } from './validation-words.js';

/** What a failed submit says: a message for each of the form's fields it concerns, and the rest for the alert. */
export interface FormFeedback {
  fields: Partial<Record<string, string>>;
  /** For the alert under the form; null when there was no error. */
  summary: string | null;
}

interface Issue {
  path?: string;
  message?: string;
}

/**
 * Splits an error between the fields it concerns (by the issues' JSON Pointers, top-level name first) and a
 * summary that names them by their labels. `notFound` says, on a field, what a 404 means for this form.
 */
export function formFeedback(
  error: unknown,
  labels: Record<string, string>,
  notFound?: { field: string; message: string },
): FormFeedback {
  if (error === null || error === undefined) return { fields: {}, summary: null };
  if (notFound && error instanceof ApiError && error.status === 404) {
    return { fields: { [notFound.field]: notFound.message }, summary: `Check ${labels[notFound.field]}.` };
  }
  const issues =
    error instanceof ApiError && Array.isArray(error.details?.issues) ? (error.details.issues as Issue[]) : [];
  if (issues.length === 0) return { fields: {}, summary: describeError(error) };

  const fields: Partial<Record<string, string>> = {};
  const unplaced: string[] = [];
  for (const issue of issues) {
    const field = (issue.path ?? '').split('/')[1] ?? '';
    const words = inWords(issue.message ?? 'is not valid', field);
    if (words === null) continue;
    if (field in labels) fields[field] ??= words;
    else unplaced.push(words);
  }
  const named = Object.keys(fields).map((field) => labels[field]);
  const parts = [named.length > 0 ? `Check ${named.join(', ')}.` : '', ...unplaced].filter(Boolean);
  // Only noise, which names nothing: the request was refused all the same.
  return { fields, summary: parts.length > 0 ? parts.join(' ') : 'The server did not accept these values.' };
}
