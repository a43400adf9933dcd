import * as P from './phrases.js';
import type { Random } from './random.js';
import type { Domain } from './topics.js';
import {
  ADVERBS,
  GENERAL_ADJECTIVES,
  GENERAL_NOUNS,
  GENERAL_VERBS,
  NUMBER_WORDS,
  OPENERS,
  TIME_PHRASES,
  TITLE_SMALL_WORDS,
  type Noun,
  type Verb,
} from './words.js';

/** "a" or "an" by the sound of the next word, as far as spelling tells. */
function needsAn(word: string): boolean {
  if (/^[A-Z0-9]{2,}/.test(word)) return /^[AEFHILMNORSX8]/.test(word);
  const lower = word.toLowerCase();
  if (/^(hour|honest|honou?r)/.test(lower)) return true;
  if (/^(uni|use|usu|ut|eu|one|once)/.test(lower)) return false;
  return /^[aeiou]/.test(lower);
}

function fixArticles(text: string): string {
  return text.replace(/\b([Aa]) ([\w'-]+)/g, (match, article: string, word: string) =>
    needsAn(word) ? `${article}n ${word}` : match,
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Title case that leaves acronyms (API, CI/CD) alone and keeps short words lowercase inside. */
export function titleCase(text: string): string {
  const words = text.split(' ');
  return words
    .map((word, index) => {
      // A word after a colon or question mark starts a new phrase: "Worth It? An Honest Look".
      const inner = index > 0 && index < words.length - 1 && !/[:?]$/.test(words[index - 1]!);
      return inner && TITLE_SMALL_WORDS.has(word.toLowerCase()) ? word.toLowerCase() : capitalize(word);
    })
    .join(' ');
}

/**
 * Writes English prose about one topic of one domain from the templates of phrases.ts. Grammatical
 * and on-topic enough for demos, search and readability scoring; it does not pretend to say much.
 */
export class Writer {
  readonly #nouns: Noun[];
  readonly #verbs: Verb[];
  readonly #adjectives: string[];

  constructor(
    readonly rng: Random,
    readonly domain: Domain,
    readonly topic: string,
    readonly otherTopic: string,
  ) {
    // Domain words twice over, so they come up more often than the general ones.
    this.#nouns = [...domain.nouns, ...domain.nouns, ...GENERAL_NOUNS];
    this.#verbs = [...domain.verbs, ...GENERAL_VERBS];
    this.#adjectives = [...domain.adjectives, ...GENERAL_ADJECTIVES];
  }

  #slot(name: string): string {
    const r = this.rng;
    switch (name) {
      case 'n':
        return r.pick(this.#nouns).one;
      case 'ns':
        return r.pick(this.#nouns).many;
      case 'a':
        return r.pick(this.#adjectives);
      case 'v':
        return r.pick(this.#verbs).base;
      case 'vs':
        return r.pick(this.#verbs).third;
      case 'ving':
        return r.pick(this.#verbs).ing;
      case 'ved':
        return r.pick(this.#verbs).past;
      case 'adv':
        return r.pick(ADVERBS);
      case 't':
        return this.topic;
      case 't2':
        return this.otherTopic;
      case 'who':
        return r.pick(this.domain.who);
      case 'open':
        return r.pick(OPENERS);
      case 'time':
        return r.pick(TIME_PHRASES);
      case 'unit':
        return r.pick(P.UNITS);
      case 'num':
        return r.pick(NUMBER_WORDS);
      case 'numd':
        return String(r.int(3, 12));
      case 'pct':
        return String(r.int(3, 12) * 5);
      default:
        throw new Error(`unknown slot {${name}}`);
    }
  }

  /** A template with its slots filled, articles fixed and the first letter capitalised. */
  fill(template: string, extra: Record<string, string> = {}): string {
    const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => extra[name] ?? this.#slot(name));
    return capitalize(fixArticles(filled));
  }

  sentence(): string {
    return this.fill(this.rng.pick(P.SENTENCES));
  }

  sentences(min: number, max: number): string {
    const count = this.rng.int(min, max);
    const out: string[] = [];
    for (let i = 0; i < count; i += 1) out.push(this.sentence());
    return out.join(' ');
  }

  paragraph(): string {
    return this.sentences(3, 6);
  }

  title(howTo: boolean): string {
    return titleCase(this.fill(this.rng.pick(howTo ? P.HOW_TO_TITLES : P.TITLES)));
  }

  heading(level: 2 | 3 | 4): string {
    return this.fill(this.rng.pick(level === 2 ? P.H2 : level === 3 ? P.H3 : P.H4));
  }

  step(k: number): string {
    return this.fill(P.STEP_HEADING, { k: String(k) });
  }

  conclusion(): string {
    return this.rng.pick(P.CONCLUSIONS);
  }

  listItems(min: number, max: number): string[] {
    return this.rng.sample(P.LIST_ITEMS, this.rng.int(min, max)).map((item) => this.fill(item));
  }

  takeaways(): string[] {
    return this.rng.sample(P.TAKEAWAYS, this.rng.int(3, 5)).map((item) => this.fill(item));
  }

  faq(): Array<{ question: string; answer: string }> {
    return this.rng
      .sample(P.FAQ_QUESTIONS, this.rng.int(2, 5))
      .map((question) => ({ question: this.fill(question), answer: this.sentences(2, 3) }));
  }

  excerpt(): string {
    return `${this.fill(this.rng.pick(P.EXCERPTS))} ${this.sentence()}`;
  }

  caption(): string {
    return this.fill(this.rng.pick(P.CAPTIONS));
  }

  videoTitle(): string {
    return this.fill(this.rng.pick(P.VIDEO_TITLES));
  }
}
