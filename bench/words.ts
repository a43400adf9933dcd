/*
 * Search terms from a sample of posts (lower-cased title, excerpt and bodyText each). `q` is a
 * case-insensitive substring search, so a term is only ever a run of words exactly as the text has it.
 */

export interface Term {
  text: string;
  /** `word`, or a phrase of 2 or 3 words when the seeded vocabulary has no rare single word. */
  kind: 'word' | 'phrase';
  /** Posts of the sample that hold it. */
  sampleDocs: number;
}

// Common English function words, and the short fillers the seeded prose leans on.
const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can could did do does doing down during each even every few first for from further had has have having he her here hers him
  his how i if in into is it its itself just let like made make many may me might more most much must my never no nor not now
  of off often on once one only or other our ours out over own same she should so some such than that the their theirs them
  then there these they this those through to too two under until up upon us very was we well were what when where which while
  who whom why will with without would yet you your yours`.split(/\s+/),
);

const WORD = /^[a-z]+$/;

/** The words of a text, split on single spaces only: a pair of neighbours is then a real substring. */
function tokens(text: string): string[] {
  return text.split(' ');
}

/** The non-stopword of three letters or more that occurs most often across the sample. */
export function mostFrequentWord(texts: string[]): Term {
  const count = new Map<string, number>();
  const docs = new Map<string, number>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const word of text.match(/[a-z]{3,}/g) ?? []) {
      if (STOPWORDS.has(word)) continue;
      count.set(word, (count.get(word) ?? 0) + 1);
      seen.add(word);
    }
    for (const word of seen) docs.set(word, (docs.get(word) ?? 0) + 1);
  }
  const [text] = [...count].reduce(
    (best, entry) => (entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0]) ? entry : best),
    ['', -1],
  );
  if (text === '') throw new Error('the sample has no words');
  return { text, kind: 'word', sampleDocs: docs.get(text) ?? 0 };
}

/**
 * Terms found in exactly one post of the sample, likeliest to be rare in the whole data set first:
 * single words, then pairs and triples of words ranked by the product of their words' document
 * frequencies (a cheap estimate of how often they would meet by chance). The caller asks the server
 * which of them really are in 1 to 3 posts.
 */
export function* rareTermCandidates(texts: string[]): Generator<Term> {
  const wordDocs = new Map<string, number>();
  const gramDocs = [new Map<string, number>(), new Map<string, number>()];
  for (const text of texts) {
    const words = tokens(text);
    const seenWords = new Set<string>();
    const seenGrams = [new Set<string>(), new Set<string>()];
    for (let i = 0; i < words.length; i += 1) {
      const word = words[i]!;
      if (!WORD.test(word) || word.length < 3) continue;
      seenWords.add(word);
      for (const n of [2, 3]) {
        const gram = words.slice(i, i + n);
        if (gram.length === n && gram.every((w) => WORD.test(w))) seenGrams[n - 2]!.add(gram.join(' '));
      }
    }
    for (const word of seenWords) wordDocs.set(word, (wordDocs.get(word) ?? 0) + 1);
    seenGrams.forEach((seen, index) =>
      seen.forEach((gram) => gramDocs[index]!.set(gram, (gramDocs[index]!.get(gram) ?? 0) + 1)),
    );
  }

  const singles = [...wordDocs]
    .filter(([word, docs]) => docs === 1 && !STOPWORDS.has(word))
    .map(([word]) => word)
    .sort();
  for (const text of singles) yield { text, kind: 'word', sampleDocs: 1 };

  for (const grams of gramDocs) {
    const estimate = (gram: string) =>
      gram.split(' ').reduce((product, word) => product * (wordDocs.get(word) ?? texts.length), 1);
    const ranked = [...grams]
      .filter(([gram, docs]) => docs === 1 && gram.split(' ').every((word) => word.length >= 3 && !STOPWORDS.has(word)))
      .map(([gram]) => ({ gram, estimate: estimate(gram) }))
      .sort((a, b) => a.estimate - b.estimate || (a.gram < b.gram ? -1 : 1));
    for (const { gram } of ranked) yield { text: gram, kind: 'phrase', sampleDocs: 1 };
  }
}
