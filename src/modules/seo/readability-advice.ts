import { bodyText, plainText, type Block, type BlockWrite, type StoredBlock } from '@quire/blocks';
import { readabilityScore, readingEase, SENTENCE_BREAK, syllableCount, WORD } from './readability.js';

type AnyBlock = Block | BlockWrite | StoredBlock;

/** The thresholds of the readability advice (docs/seo.md, "Readability advice"). */
export const READABILITY_RULES = {
  /** A sentence of more words than this is long. */
  longSentenceWords: 20,
  /** The check fails when more than this percentage of the sentences are long. */
  longSentenceShare: 25,
  /** A paragraph block of more words than this is long. */
  paragraphWords: 150,
  /** More words than this between two headings (or before the first) want a subheading. */
  wordsWithoutHeading: 300,
  /** This many sentences in a row starting with the same word are flagged. */
  sameBeginnings: 3,
  /** The lowest reading ease (Flesch, as readabilityScore) that passes. */
  readingEase: 60,
} as const;

export type AdviceId =
  'reading-ease' | 'sentence-length' | 'paragraph-length' | 'subheading-distribution' | 'sentence-beginnings';

export interface AdviceItem {
  id: AdviceId;
  passed: boolean;
  label: string;
  /** What to do about it, in words (shown when the item does not pass). */
  fix: string;
  /** Indexes of the blocks the item is about, ascending, for the editor to jump to. */
  where: number[];
}

export interface ReadabilityAdvice {
  /** readabilityScore(bodyText(blocks)): the figure the server stores. */
  score: number;
  /** Flesch's name for the score's band, or "no text yet". */
  band: string;
  items: AdviceItem[];
}

/** Flesch's own bands, lowest score of each first-to-match. */
const BANDS: ReadonlyArray<readonly [number, string]> = [
  [90, 'very easy'],
  [80, 'easy'],
  [70, 'fairly easy'],
  [60, 'plain English'],
  [50, 'fairly difficult'],
  [30, 'difficult'],
  [0, 'very difficult'],
];

export function easeBand(score: number): string {
  return BANDS.find(([lowest]) => score >= lowest)![1];
}

/*
 * How a block takes part. Prose is read as running text; list items are read too but are parallel by design,
 * so they are left out of the sentence-beginnings check and end a run of it. A section break (a heading, an
 * FAQ question, which the site renders as the summary of a disclosure) starts a new stretch for the subheading
 * check. Labels and small print (callout titles, quote attributions, captions, video titles, calls to action)
 * and code are not prose.
 */
type Part = { kind: 'prose' | 'list'; text: string } | { kind: 'break' };

function partsOf(block: AnyBlock): Part[] {
  switch (block.type) {
    case 'paragraph':
    case 'quote':
      return [{ kind: 'prose', text: block.text }];
    case 'callout':
      return [{ kind: 'prose', text: block.body }];
    case 'heading':
      return [{ kind: 'break' }];
    case 'list':
    case 'key_takeaways':
      return block.items.map((text) => ({ kind: 'list', text }));
    case 'faq':
      return block.items.flatMap((item): Part[] => [{ kind: 'break' }, { kind: 'prose', text: item.answer }]);
    default:
      return [];
  }
}

/** Articles and demonstratives say little: "The cat…" and "The dog…" begin differently. */
const WEAK_FIRST_WORDS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those']);

const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** How a sentence begins, for comparing beginnings: its first word, or first two after a weak one. */
function beginningOf(tokens: readonly string[]): string {
  const first = tokens[0]!.toLowerCase().replace(NOT_WORD, '');
  return WEAK_FIRST_WORDS.has(first) && tokens.length > 1
    ? `${first} ${tokens[1]!.toLowerCase().replace(NOT_WORD, '')}`
    : first;
}

interface Run {
  beginning: string;
  blocks: number[];
  length: number;
}

/*
 * Parsing the inline Markdown is most of the work. The studio asks again after each pause in typing, when all
 * blocks but the one being typed in are as before: the plain texts of the last call are kept for the next.
 */
let lastPlainTexts = new Map<string, string>();

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Yoast-style readability advice on a body: every check passes or not, says how to fix it and names the
 * blocks it is about. Text of a block is the plain text of its inline Markdown (partsOf says which fields);
 * the reading ease is readabilityScore of bodyText, exactly the figure the server stores.
 */
export function readabilityAdvice(blocks: readonly AnyBlock[]): ReadabilityAdvice {
  const rules = READABILITY_RULES;
  const plainTexts = new Map<string, string>();
  const plainOf = (markdown: string) => {
    const text = lastPlainTexts.get(markdown) ?? plainText(markdown);
    plainTexts.set(markdown, text);
    return text;
  };
  const syllablesOf = new Map<string, number>();
  let sentences = 0;
  let longSentences = 0;
  const withLongSentences: number[] = [];
  const longParagraphs: number[] = [];
  const hardBlocks: number[] = [];
  const longStretches: number[] = [];
  let stretchStart = -1;
  let stretchWords = 0;
  const sameRuns: Run[] = [];
  let run: Run | null = null;

  const endRun = () => {
    if (run !== null && run.length >= rules.sameBeginnings) sameRuns.push(run);
    run = null;
  };
  const endStretch = () => {
    if (stretchWords > rules.wordsWithoutHeading) longStretches.push(stretchStart);
    stretchStart = -1;
    stretchWords = 0;
  };

  blocks.forEach((block, index) => {
    let blockWords = 0;
    let blockSentences = 0;
    let blockSyllables = 0;
    let hasLong = false;
    for (const part of partsOf(block)) {
      if (part.kind === 'break') {
        endRun();
        endStretch();
        continue;
      }
      if (part.kind === 'list') endRun();
      let partWords = 0;
      for (const segment of plainOf(part.text).split(SENTENCE_BREAK)) {
        const tokens = segment.split(/\s+/u).filter((token) => WORD.test(token));
        if (tokens.length === 0) continue;
        blockSentences += 1;
        partWords += tokens.length;
        for (const token of tokens) {
          let count = syllablesOf.get(token);
          if (count === undefined) {
            count = syllableCount(token);
            syllablesOf.set(token, count);
          }
          blockSyllables += count;
        }
        if (tokens.length > rules.longSentenceWords) {
          longSentences += 1;
          hasLong = true;
        }
        if (part.kind === 'prose') {
          const beginning = beginningOf(tokens);
          const current: Run | null = run;
          if (current !== null && current.beginning === beginning) {
            current.length += 1;
            if (current.blocks.at(-1) !== index) current.blocks.push(index);
          } else {
            endRun();
            run = { beginning, blocks: [index], length: 1 };
          }
        }
      }
      if (part.kind === 'list') endRun();
      if (partWords === 0) continue;
      blockWords += partWords;
      if (stretchStart === -1) stretchStart = index;
      stretchWords += partWords;
    }
    if (blockWords === 0) return;
    sentences += blockSentences;
    if (hasLong) withLongSentences.push(index);
    if (block.type === 'paragraph' && blockWords > rules.paragraphWords) longParagraphs.push(index);
    if (readingEase({ words: blockWords, sentences: blockSentences, syllables: blockSyllables }) < rules.readingEase)
      hardBlocks.push(index);
  });
  endRun();
  endStretch();
  lastPlainTexts = plainTexts;

  const text = bodyText(blocks);
  const hasWords = WORD.test(text);
  const score = readabilityScore(text);
  const share = sentences === 0 ? 0 : Math.round((longSentences / sentences) * 100);
  const runBlocks = [...new Set(sameRuns.flatMap((r) => r.blocks))].sort((a, b) => a - b);
  const firstRun = sameRuns[0];

  return {
    score,
    band: hasWords ? easeBand(score) : 'no text yet',
    items: [
      {
        id: 'reading-ease',
        passed: !hasWords || score >= rules.readingEase,
        label: hasWords ? `Reading ease ${score}: ${easeBand(score)}` : 'Reading ease: no text yet',
        fix:
          `Use shorter sentences and plainer words to reach ${rules.readingEase} or more` +
          (hardBlocks.length > 0 ? '; the blocks named score under it.' : '.'),
        where: hardBlocks,
      },
      {
        id: 'sentence-length',
        passed: sentences === 0 || (longSentences / sentences) * 100 <= rules.longSentenceShare,
        label: `Sentence length: ${share} % of sentences over ${rules.longSentenceWords} words`,
        fix: `Split long sentences until at most ${rules.longSentenceShare} % run over ${rules.longSentenceWords} words.`,
        where: withLongSentences,
      },
      {
        id: 'paragraph-length',
        passed: longParagraphs.length === 0,
        label:
          longParagraphs.length === 0
            ? `Paragraph length: none over ${rules.paragraphWords} words`
            : `Paragraph length: ${plural(longParagraphs.length, 'paragraph', 'paragraphs')} over ${rules.paragraphWords} words`,
        fix: `Break paragraphs of more than ${rules.paragraphWords} words in two.`,
        where: longParagraphs,
      },
      {
        id: 'subheading-distribution',
        passed: longStretches.length === 0,
        label:
          longStretches.length === 0
            ? `Subheadings: no stretch of more than ${rules.wordsWithoutHeading} words without one`
            : `Subheadings: ${plural(longStretches.length, 'stretch', 'stretches')} of more than ${rules.wordsWithoutHeading} words without one`,
        fix: `Add a subheading at least every ${rules.wordsWithoutHeading} words; each stretch starts at the block named.`,
        where: longStretches,
      },
      {
        id: 'sentence-beginnings',
        passed: firstRun === undefined,
        label:
          firstRun === undefined
            ? 'Sentence beginnings: varied'
            : `Sentence beginnings: ${plural(sameRuns.length, 'run', 'runs')} of ${rules.sameBeginnings} or more alike`,
        fix:
          firstRun === undefined
            ? `Vary the first word when ${rules.sameBeginnings} or more sentences in a row begin alike.`
            : `Vary the first word: ${firstRun.length} sentences in a row begin with “${firstRun.beginning}”.`,
        where: runBlocks,
      },
    ],
  };
}
