/**
 * Flesch reading ease of a plain text, clamped to 0–100 and rounded to an integer (docs/seo.md):
 * 206.835 − 1.015 × (words ÷ sentences) − 84.6 × (syllables ÷ words). A text without words scores 0.
 */
export function readabilityScore(text: string): number {
  return readingEase(textStatistics(text));
}

/** The formula of readabilityScore on counts already made (the readability advice counts block by block). */
export function readingEase({ words, sentences, syllables }: TextStatistics): number {
  if (words === 0) return 0;
  const ease = 206.835 - 1.015 * (words / sentences) - 84.6 * (syllables / words);
  return Math.round(Math.min(100, Math.max(0, ease)));
}

export interface TextStatistics {
  words: number;
  sentences: number;
  syllables: number;
}

/** A token is a word when it holds one of these. */
export const WORD = /[\p{L}\p{N}]/u;
/** What ends a sentence: `.`, `!` or `?` before white space or the end, or a line break. */
export const SENTENCE_BREAK = /[.!?]+(?=\s|$)|\n+/u;

/**
 * Words: whitespace-separated tokens holding a letter or digit. Sentences: the runs of text ended by
 * `.`, `!`, `?` or a line break that hold at least one word (at least 1 when there are words).
 */
export function textStatistics(text: string): TextStatistics {
  let words = 0;
  let syllables = 0;
  let sentences = 0;
  // A text repeats its words; counting each distinct token's syllables once spares most of the work.
  const known = new Map<string, number>();
  for (const segment of text.split(SENTENCE_BREAK)) {
    const tokens = segment.split(/\s+/u).filter((token) => WORD.test(token));
    if (tokens.length === 0) continue;
    sentences += 1;
    words += tokens.length;
    for (const token of tokens) {
      let count = known.get(token);
      if (count === undefined) {
        count = syllableCount(token);
        known.set(token, count);
      }
      syllables += count;
    }
  }
  return { words, sentences: Math.max(1, sentences), syllables };
}

/**
 * English syllables by the usual heuristic: letters only, accents removed; words of up to three
 * letters have one; a silent final `e` (not `le`) and final `es`/`ed` are dropped; then each run of
 * vowels (a e i o u y) is one syllable; at least one.
 */
export function syllableCount(token: string): number {
  const word = token
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (word.length === 0) return 1;
  if (word.length <= 3) return 1;
  const trimmed = word.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, (ending) => ending[0]!).replace(/^y/, '');
  const groups = trimmed.match(/[aeiouy]+/g);
  return Math.max(1, groups?.length ?? 0);
}
