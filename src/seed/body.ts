import { bodyText, wordCount, type BlockWrite } from '@quire/blocks';
import { codeSample } from './snippets.js';
import * as P from './phrases.js';
import type { Writer } from './text.js';
import { FIRST_NAMES, LAST_NAMES, ROLES } from './words.js';

export interface ImageChoice {
  mediaId: string;
  alt: string;
}

/** The optional block types a post carries; post 0 carries all of them so any N shows every type. */
export interface BodyFeatures {
  code: boolean;
  video: boolean;
  tweet: boolean;
  faq: boolean;
  cta: boolean;
  takeaways: boolean;
}

export interface BodyPlan {
  writer: Writer;
  /** Words of bodyText to aim for; the tail (FAQ, conclusion, CTA) may overshoot it a little. */
  targetWords: number;
  howTo: boolean;
  features: BodyFeatures;
  /** Media the body's image blocks may show (never empty when images are wanted). */
  images: readonly ImageChoice[];
  /** A handle for tweet URLs. */
  handle: string;
}

// Words the closing blocks add on average, kept back from the sections so the total lands near the target.
const TAIL_WORDS = 180;

const CALLOUT_VARIANTS = ['info', 'warning', 'success', 'error'] as const;
const YOUTUBE_ID = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A realistic post body: intro, sections of headings, prose and media, then the closing blocks. */
export function composeBody(plan: BodyPlan): BlockWrite[] {
  const { writer: w, features } = plan;
  const r = w.rng;
  const blocks: BlockWrite[] = [];
  let words = 0;
  const add = (block: BlockWrite) => {
    blocks.push(block);
    words += wordCount(bodyText([block]));
  };
  const paragraph = () => add({ type: 'paragraph', text: w.paragraph() });
  const image = () => {
    if (plan.images.length === 0) return;
    const choice = r.pick(plan.images);
    add({
      type: 'image',
      mediaId: choice.mediaId,
      alt: choice.alt,
      ...(r.chance(0.6) ? { caption: w.caption() } : {}),
    });
  };
  const pending = { video: features.video, tweet: features.tweet, code: features.code };

  paragraph();
  if (r.chance(0.5)) paragraph();
  const takeawaysFirst = features.takeaways && r.chance(0.4);
  if (takeawaysFirst) add({ type: 'key_takeaways', items: w.takeaways() });
  if (r.chance(0.3)) image();

  let section = 0;
  while (section === 0 || words < plan.targetWords - TAIL_WORDS) {
    section += 1;
    add({ type: 'heading', level: 2, text: plan.howTo ? w.step(section) : w.heading(2) });
    paragraph();
    if (r.chance(0.6)) paragraph();
    const extras = r.int(1, 3);
    for (let e = 0; e < extras; e += 1) {
      const roll = r.next();
      if (roll < 0.22)
        add({ type: 'list', style: plan.howTo || r.chance(0.3) ? 'ordered' : 'bullet', items: w.listItems(3, 6) });
      else if (roll < 0.4) image();
      else if (roll < 0.5)
        add({
          type: 'quote',
          text: w.sentence(),
          attribution: `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}, ${r.pick(ROLES)}`,
        });
      else if (roll < 0.6) callout();
      else if (roll < 0.72 && features.code) code();
      else subsection();
    }
    if (pending.video && section >= 2) video();
    if (pending.tweet && section >= 3) tweet();
    if (pending.code && section >= 2) code();
    if (r.chance(0.5)) paragraph();
  }

  // Short bodies end before the late blocks got their turn; they still belong in the post.
  if (pending.video) video();
  if (pending.tweet) tweet();
  if (pending.code) code();

  add({ type: 'divider' });
  if (features.faq) {
    add({ type: 'heading', level: 2, text: 'Frequently asked questions' });
    add({ type: 'faq', items: w.faq() });
  }
  add({ type: 'heading', level: 2, text: w.conclusion() });
  paragraph();
  if (features.takeaways && !takeawaysFirst) add({ type: 'key_takeaways', items: w.takeaways() });
  if (features.cta) {
    const cta = r.pick(P.CTAS);
    add({
      type: 'cta',
      title: w.fill(cta.title),
      body: w.sentence(),
      linkUrl: cta.url,
      linkLabel: cta.label,
      variant: r.chance(0.7) ? 'default' : 'outlined',
    });
  }
  return blocks;

  function callout(): void {
    const variant = r.pick(CALLOUT_VARIANTS);
    const kind = P.CALLOUTS[variant];
    add({ type: 'callout', variant, title: r.pick(kind.titles), body: `${w.fill(kind.body)} ${w.sentence()}` });
  }

  function video(): void {
    pending.video = false;
    const id = Array.from({ length: 11 }, () => YOUTUBE_ID.charAt(r.int(0, YOUTUBE_ID.length - 1))).join('');
    add({
      type: 'video_embed',
      url: `https://www.youtube.com/watch?v=${id}`,
      ...(r.chance(0.8) ? { title: w.videoTitle() } : {}),
    });
  }

  function tweet(): void {
    pending.tweet = false;
    // Snowflake-sized ids, as real status URLs carry.
    const id = 1_600_000_000_000_000_000n + BigInt(r.uint32()) * 100_000_000n + BigInt(r.int(0, 99_999_999));
    add({ type: 'tweet_embed', url: `https://x.com/${plan.handle}/status/${id}` });
  }

  function code(): void {
    pending.code = false;
    add({ type: 'code', ...codeSample(r) });
  }

  function subsection(): void {
    add({ type: 'heading', level: 3, text: w.heading(3) });
    paragraph();
    if (r.chance(0.25)) {
      add({ type: 'heading', level: 4, text: w.heading(4) });
      paragraph();
    }
  }
}
