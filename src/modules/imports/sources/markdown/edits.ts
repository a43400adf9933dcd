import type { Range } from './template-tags.js';

/** A piece of the text replaced: the Markdown is prepared by edits at offsets of its own tree, never by pattern. */
export interface Edit extends Range {
  text: string;
}

/** The text with the edits made, in one pass; an edit overlapping an earlier one is left out. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces: string[] = [];
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) continue;
    pieces.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}
