import { foldForSearch } from './search.js';

/**
 * The words of a text as posts and pages are searched: runs of letters, digits and combining marks, folded
 * with foldForSearch. Han, Hiragana and Katakana are written without spaces between words, so each of their
 * characters is a word of its own: a run of them would otherwise be one word as long as a sentence.
 */
const RUN = /[\p{L}\p{N}\p{M}]+/gu;
const UNSPACED = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/u;

/**
 * A word is kept to its first 64 characters, in the stored words and in a query alike, so a longer word is
 * still found (as a prefix) and no index entry grows without bound.
 */
export const MAX_WORD_LENGTH = 64;

/**
 * The distinct words stored for one field are bounded: PostgreSQL refuses a tsvector over 1 MB, and a body's
 * later words rarely add one the earlier ones lack. Words past the bound are not found.
 */
export const MAX_STORED_WORDS_LENGTH = 200_000;

function* words(text: string): Generator<string> {
  for (const [run] of foldForSearch(text).matchAll(RUN)) {
    for (const word of run.split(UNSPACED)) {
      if (!word) continue;
      const codePoints = [...word];
      yield codePoints.length > MAX_WORD_LENGTH ? codePoints.slice(0, MAX_WORD_LENGTH).join('') : word;
    }
  }
}

/**
 * The stored form of fields' words (the search columns of posts and pages): each distinct word once, in the
 * order of its first appearance, separated by single spaces. Whether a post matches depends only on which words
 * it holds, so repeats add nothing but bytes.
 */
export function searchWords(...fields: Array<string | null | undefined>): string {
  const seen = new Set<string>();
  let length = 0;
  for (const field of fields) {
    if (!field) continue;
    for (const word of words(field)) {
      if (seen.has(word)) continue;
      length += word.length + 1;
      if (length > MAX_STORED_WORDS_LENGTH) return [...seen].join(' ');
      seen.add(word);
    }
  }
  return [...seen].join(' ');
}

/**
 * What a `q` asks for: every word must be found, the last as the beginning of a word (so a search can be
 * typed ahead) unless the query ends after it with a space or punctuation, the others whole.
 */
export interface WordQuery {
  whole: string[];
  prefix: string | undefined;
}

export function wordQuery(q: string): WordQuery {
  const all = [...words(q)];
  const endsInWord = /[\p{L}\p{N}\p{M}]$/u.test(q);
  const prefix = endsInWord ? all.pop() : undefined;
  const whole = [...new Set(all)];
  // A prefix that is also asked for whole adds nothing.
  return { whole, prefix: prefix !== undefined && whole.includes(prefix) ? undefined : prefix };
}

/** A query of no words (only spaces and punctuation) finds nothing. */
export const isEmptyQuery = (query: WordQuery) => query.whole.length === 0 && query.prefix === undefined;
