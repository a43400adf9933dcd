import { useMemo } from 'react';
import { wordChanges } from './body-diff';

/**
 * Two versions of a text as one running text: deleted words struck, inserted ones underlined, and both said in
 * words as well, since screen readers mostly read <del> and <ins> as plain text.
 */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const parts = useMemo(() => wordChanges(before, after), [before, after]);
  // Word diffs ignore spacing: a text whose only change is a space would show no mark at all.
  const spacingOnly = before !== after && parts.every((part) => !part.added && !part.removed);
  return (
    <span className="word-diff">
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i}>
            <span className="visually-hidden">[inserted: </span>
            {part.value}
            <span className="visually-hidden">]</span>
          </ins>
        ) : part.removed ? (
          <del key={i}>
            <span className="visually-hidden">[deleted: </span>
            {part.value}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
      {spacingOnly && <em className="hint"> (spacing changed)</em>}
    </span>
  );
}
