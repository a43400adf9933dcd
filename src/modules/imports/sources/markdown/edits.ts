import type { Range } from './template-tags.js';

/** A piece of the text replaced: the Markdown is prepared by edits at offsets of its own tree, never by pattern. */
export interface Edit extends Range {
  text: string;
}

/** The text with the edits made; edits that overlap one made already (nearer the end) are left out. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const edit of sorted) {
    if (edit.end > limit) continue;
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}
