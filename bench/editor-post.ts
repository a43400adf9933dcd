import type { BlockWrite } from '@quire/blocks';

/*
 * The body `npm run bench:editor` opens: 1,000 blocks (the most a body may hold) mixed as long posts are, made
 * from a fixed seed so every run and every build opens the same text.
 */

export const BODY_BLOCKS = 1000;
/** 0-based: block 500, where the benchmark types. Always a paragraph. */
export const TYPING_BLOCK = 499;

const WORDS = `time people year way day thing man world life hand part child eye woman place work week case point
government company number group problem fact writer reader editor draft page story chapter paragraph sentence
question answer garden river window morning evening table letter kitchen market village mountain harbour station
light paper colour voice music winter summer autumn spring bridge forest meadow engine signal pattern measure
careful quiet bright simple early later often rarely almost always gently slowly quickly clearly honestly
write read keep build bring carry follow open close hold turn move show change leave learn begin finish explain
remember notice gather travel wonder arrive decide publish revise`.split(/\s+/);

/** A small linear congruential generator: the same sequence on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Random = () => number;

const pick = <T>(next: Random, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const between = (next: Random, low: number, high: number) => low + Math.floor(next() * (high - low + 1));

function words(next: Random, count: number): string[] {
  return Array.from({ length: count }, () => pick(next, WORDS));
}

function sentence(next: Random, count: number): string {
  const text = words(next, count).join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** 40 to 80 words in sentences, about one in four sentences carrying a mark or a link. */
function paragraph(next: Random): string {
  const total = between(next, 40, 80);
  const sentences: string[] = [];
  for (let used = 0; used < total;) {
    const count = Math.min(total - used, between(next, 6, 16));
    let text = sentence(next, count);
    const roll = next();
    const [first, ...rest] = text.split(' ');
    const word = rest.length > 1 ? rest[Math.floor(next() * (rest.length - 1))]! : null;
    if (word && roll < 0.08) text = [first, ...rest.map((w) => (w === word ? `**${w}**` : w))].join(' ');
    else if (word && roll < 0.16) text = [first, ...rest.map((w) => (w === word ? `*${w}*` : w))].join(' ');
    else if (word && roll < 0.2) text = [first, ...rest.map((w) => (w === word ? `\`${w}\`` : w))].join(' ');
    else if (word && roll < 0.26)
      text = [first, ...rest.map((w) => (w === word ? `[${w}](https://example.com/${w})` : w))].join(' ');
    sentences.push(text);
    used += count;
  }
  return sentences.join(' ');
}

const title = (next: Random, count: number) => sentence(next, count).slice(0, -1);

/** A card of one of the seven card types in turn; `mediaId` is the uploaded image, if any. */
function card(next: Random, n: number, mediaId: string | null): BlockWrite {
  switch (n % 7) {
    case 0:
      return mediaId ? { type: 'image', mediaId, alt: title(next, 5), caption: title(next, 8) } : { type: 'divider' };
    case 1:
      return { type: 'callout', variant: pick(next, ['info', 'warning', 'success'] as const), body: paragraph(next) };
    case 2:
      return { type: 'video_embed', url: `https://video.example.com/watch/${n}`, title: title(next, 4) };
    case 3:
      return { type: 'tweet_embed', url: `https://social.example.com/post/${1000 + n}` };
    case 4:
      return {
        type: 'faq',
        items: [1, 2, 3].map(() => ({ question: `${title(next, 7)}?`, answer: sentence(next, 20) })),
      };
    case 5:
      return {
        type: 'cta',
        title: title(next, 4),
        body: sentence(next, 18),
        linkUrl: `https://example.com/offer/${n}`,
        linkLabel: 'Read on',
        variant: 'default',
      };
    default:
      return { type: 'key_takeaways', items: [1, 2, 3, 4].map(() => sentence(next, 9)) };
  }
}

/**
 * Every tenth block a heading (level 2, every third one level 3), a list every 25, a quote every 40, a code
 * block every 100, a card every 50 and a divider every 200; the rest paragraphs.
 */
export function editorBody(mediaId: string | null): BlockWrite[] {
  const next = random(44);
  let cards = 0;
  return Array.from({ length: BODY_BLOCKS }, (_, i): BlockWrite => {
    if (i === TYPING_BLOCK) return { type: 'paragraph', text: paragraph(next) };
    if (i % 10 === 0) return { type: 'heading', level: i % 30 === 0 ? 3 : 2, text: title(next, between(next, 3, 8)) };
    if (i % 200 === 105) return { type: 'divider' };
    if (i % 100 === 55)
      return {
        type: 'code',
        language: 'ts',
        code: Array.from({ length: 8 }, (_, line) => `const ${pick(next, WORDS)}${line} = ${line * 7};`).join('\n'),
      };
    if (i % 50 === 25) return card(next, cards++, mediaId);
    if (i % 40 === 7) return { type: 'quote', text: sentence(next, 24), attribution: title(next, 2) };
    if (i % 25 === 13)
      return {
        type: 'list',
        style: next() < 0.5 ? 'bullet' : 'ordered',
        items: Array.from({ length: between(next, 3, 6) }, () => sentence(next, between(next, 5, 12))),
      };
    return { type: 'paragraph', text: paragraph(next) };
  });
}

/** What the benchmark types: plain words and spaces, nothing an input rule or the "/" menu would act on. */
export function typedText(length: number): string {
  const next = random(7);
  let text = '';
  while (text.length < length) text += ` ${pick(next, WORDS)}`;
  return text.slice(0, length);
}
