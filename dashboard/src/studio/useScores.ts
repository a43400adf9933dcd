import { useEffect, useRef, useState } from 'react';
import type { Block } from '../types';
import type { EditableFields } from './drafts';
import { scoresOf, type Scores } from './scoring';

/** How long the writer pauses before the scores are counted again. */
export const SCORE_PAUSE_MS = 400;

/**
 * The SEO and readability scores, words and reading time of what is in the editor, counted once the writer
 * pauses: scoring reads the whole body (readability counts every syllable), which on every keystroke would
 * hold up the keystroke's own paint in a long post. Null until the first count, which runs at once, as does the
 * first count of a body after an empty one.
 *
 * `fields` and `blocks` must keep their identity while nothing changed (state, or a memo of it): a new array on
 * each render would restart the pause on every render, the count's own included, and never settle.
 */
export function useScores(fields: EditableFields, blocks: readonly Block[]): Scores | null {
  const [scores, setScores] = useState<Scores | null>(null);
  // A count of no body yet (the studio before its post has loaded) waits for no pause: the loaded body is counted
  // at once, not shown as "0 words" until the writer's first pause.
  const countedEmpty = useRef(true);
  useEffect(() => {
    const timer = window.setTimeout(
      () => {
        countedEmpty.current = blocks.length === 0;
        setScores(scoresOf(fields, blocks));
      },
      countedEmpty.current ? 0 : SCORE_PAUSE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [fields, blocks]);
  return scores;
}
