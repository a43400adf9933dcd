import type { ConversionNote } from '@quire/blocks';
import { BLOCK_LABELS, type BlockType } from '../model.js';

/*
 * What a paste did not keep as it was, in the writer's words: the converter's report (convert-report.ts of
 * @quire/blocks), counted by kind, with what to do about it where there is something to do.
 */

const counted = (count: number, one: string, many: string) => (count === 1 ? one : `${count} ${many}`);

/** A block type as a word inside a sentence: "heading", "call to action", "FAQ". */
const label = (type: BlockType) => {
  const words = BLOCK_LABELS[type] ?? type;
  return words === words.toUpperCase() ? words : words.toLowerCase();
};

const EMBEDS = new Set(['iframe', 'frame', 'frameset', 'embed', 'object', 'applet']);
const PLAYERS = new Set(['audio', 'video']);
const FORMS = new Set(['form', 'input', 'button', 'select', 'textarea']);
const DRAWINGS = new Set(['svg', 'canvas', 'math']);
/** Page machinery a reader never sees: nothing to tell. */
const UNSEEN = new Set(['script', 'style', 'noscript', 'template']);

export interface PasteFacts {
  notes: readonly ConversionNote[];
  /** Images left behind: at a web or file address the browser may not fetch, or data of a type not kept. */
  imagesLeft: number;
  /** Navigation menus (a page's site chrome) left out. */
  navigation: number;
}

export function pasteNotes({ notes, imagesLeft, navigation }: PasteFacts): string[] {
  const count = (test: (note: ConversionNote) => boolean) => notes.filter(test).length;
  const is = (kind: ConversionNote['kind'], elements?: ReadonlySet<string>) => (note: ConversionNote) =>
    note.kind === kind && (elements === undefined || elements.has(note.element));
  const words: string[] = [];
  const say = (number: number, text: (n: number) => string) => {
    if (number > 0) words.push(text(number));
  };

  say(imagesLeft, (n) =>
    n === 1
      ? 'An image was not pasted: copy it on its own or upload it'
      : `${n} images were not pasted: copy them one by one or upload them`,
  );
  say(count(is('approximated', new Set(['table']))), (n) =>
    n === 1 ? 'A table became paragraphs, one for each row' : `${n} tables became paragraphs, one for each row`,
  );
  say(count(is('approximated', new Set(['ul', 'ol', 'p']))), () => 'Nested lists were flattened into one level');
  say(
    count(is('approximated', new Set(['body']))),
    () => 'Part of the paste was nested too deep and kept as plain text',
  );
  say(count(is('link-removed')), (n) =>
    n === 1
      ? 'A link that was not a web address was removed; its text is kept'
      : `${n} links that were not web addresses were removed; their text is kept`,
  );
  say(count(is('unsupported', EMBEDS)), (n) =>
    counted(
      n,
      'An embedded frame was not pasted: only videos and social posts become blocks',
      'embedded frames were not pasted: only videos and social posts become blocks',
    ),
  );
  say(count(is('unsupported', PLAYERS)), (n) =>
    counted(n, 'An audio or video player was not pasted', 'audio or video players were not pasted'),
  );
  say(count(is('unsupported', FORMS)), (n) =>
    counted(n, 'A form or button was not pasted', 'forms or buttons were not pasted'),
  );
  say(count(is('unsupported', DRAWINGS)), (n) =>
    counted(n, 'A drawing or formula was not pasted', 'drawings or formulas were not pasted'),
  );
  const known = new Set([...EMBEDS, ...PLAYERS, ...FORMS, ...DRAWINGS, ...UNSEEN]);
  say(
    count((note) => note.kind === 'unsupported' && !known.has(note.element)),
    () => 'Some content that has no block was not pasted',
  );
  say(count(is('split', new Set(['paragraph']))), () => 'A paragraph over 10,000 characters became several');
  say(count(is('split', new Set(['list']))), () => 'A list over 500 items became several lists');
  say(count(is('split', new Set(['faq']))), () => 'An FAQ over 50 questions became several');
  const cut = new Set(
    notes
      .filter((note) => note.kind === 'truncated' && note.element !== 'body')
      .map((note) => note.element as BlockType),
  );
  for (const type of cut)
    words.push(
      type === 'video_embed' || type === 'tweet_embed'
        ? 'An embed whose address is over 2,000 characters was left out'
        : `Text too long for a ${label(type)} block was cut short`,
    );
  say(navigation, () => 'The page’s navigation menu was left out');
  return words;
}
