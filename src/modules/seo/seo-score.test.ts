import { describe, expect, it } from 'vitest';
import { bodyText, wordCount, type BlockWrite } from '@quire/blocks';
import { seoChecks, seoScore, type SeoInput } from './seo-score.js';

const MEDIA = '00000000-0000-4000-8000-000000000001';

function input(blocks: BlockWrite[], fields: Partial<SeoInput> = {}): SeoInput {
  const text = bodyText(blocks);
  return {
    title: 'Untitled',
    slug: 'untitled',
    excerpt: '',
    seo: null,
    featuredMediaId: null,
    blocks,
    bodyText: text,
    wordCount: wordCount(text),
    ...fields,
  };
}

// 189 words in bodyText; "sourdough starter" twice (paragraph and heading) = 4 of 189 words = 2.1 % density.
const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const perfectBlocks: BlockWrite[] = [
  {
    type: 'paragraph',
    text: `A sourdough starter needs flour and water. See [the basics](/guides/basics). ${filler(80)}`,
  },
  { type: 'heading', level: 2, text: 'Feeding a sourdough starter' },
  { type: 'paragraph', text: `${filler(90)} as [King Arthur explains](https://kingarthurbaking.com/x).` },
  { type: 'heading', level: 3, text: 'Temperature' },
  { type: 'image', mediaId: MEDIA, alt: 'A jar of starter' },
];

const perfect = input(perfectBlocks, {
  title: 'How to keep a sourdough starter alive for years',
  slug: 'keep-a-sourdough-starter-alive',
  excerpt: 'Feeding, temperature and timing.',
  featuredMediaId: MEDIA,
  seo: {
    focusKeyword: 'sourdough starter',
    description:
      'A sourdough starter is a living culture. Learn how to feed it, where to keep it, and how to revive one that has been neglected for weeks.',
  },
});

describe('seoScore', () => {
  it('weights sum to 100', () => {
    expect(seoChecks(perfect).reduce((sum, check) => sum + check.weight, 0)).toBe(100);
  });

  it('scores 100 when every check passes', () => {
    expect(perfect.wordCount).toBe(189);
    expect(seoChecks(perfect).filter((check) => !check.passed)).toEqual([]);
    expect(seoScore(perfect)).toBe(100);
  });

  it('scores an empty draft 5: only the vacuous alt-text check passes', () => {
    const empty = input([]);
    expect(
      seoChecks(empty)
        .filter((c) => c.passed)
        .map((c) => c.id),
    ).toEqual(['image-alt-texts']);
    expect(seoScore(empty)).toBe(5);
  });

  it('holds the exact length bands: title 30–60, description 120–160 characters', () => {
    const titled = (title: string) => seoChecks(input([], { title })).find((c) => c.id === 'title-length')!.passed;
    expect([29, 30, 60, 61].map((n) => titled('t'.repeat(n)))).toEqual([false, true, true, false]);
    const described = (description: string) =>
      seoChecks(input([], { seo: { description } })).find((c) => c.id === 'description-length')!.passed;
    expect([119, 120, 160, 161].map((n) => described('d'.repeat(n)))).toEqual([false, true, true, false]);
    // Without seo.description the excerpt stands in.
    expect(seoChecks(input([], { excerpt: 'e'.repeat(130) })).find((c) => c.id === 'description-length')!.passed).toBe(
      true,
    );
  });

  it('holds the keyword density band 0.5 %–2.5 % of words', () => {
    const dense = (hits: number) => {
      const text = `${Array.from({ length: hits }, () => 'kale').join(' ')} ${filler(200 - hits)}`;
      return seoChecks(input([{ type: 'paragraph', text }], { seo: { focusKeyword: 'kale' } })).find(
        (c) => c.id === 'keyword-density',
      )!.passed;
    };
    // 200 words: 1 hit = 0.5 %, 5 = 2.5 %, 6 = 3 %.
    expect([0, 1, 5, 6].map(dense)).toEqual([false, true, true, false]);
  });

  it('matches the keyword as whole words, case-insensitively', () => {
    const checks = seoChecks(
      input([{ type: 'paragraph', text: 'Kalevala is not KALE, but kale is.' }], {
        title: 'All about Kale',
        seo: { focusKeyword: 'kale' },
      }),
    );
    expect(checks.find((c) => c.id === 'keyword-in-title')!.passed).toBe(true);
    expect(checks.find((c) => c.id === 'keyword-in-first-paragraph')!.passed).toBe(true);
    const partial = seoChecks(
      input([{ type: 'paragraph', text: 'Kalevala only.' }], { seo: { focusKeyword: 'kale' } }),
    );
    expect(partial.find((c) => c.id === 'keyword-in-first-paragraph')!.passed).toBe(false);
  });

  it('checks the heading structure: first heading h2 and no level skipped on the way down', () => {
    const structure = (levels: Array<2 | 3 | 4>) =>
      seoChecks(input(levels.map((level) => ({ type: 'heading', level, text: 'h' })))).find(
        (c) => c.id === 'heading-structure',
      )!.passed;
    expect(structure([2, 3, 4, 2, 3])).toBe(true);
    expect(structure([2, 4])).toBe(false);
    expect(structure([3])).toBe(false);
    expect(structure([])).toBe(false);
  });

  it('tells internal from outbound links and wants alt text on every image', () => {
    const checks = seoChecks(
      input([
        { type: 'paragraph', text: 'Only [out](https://example.org).' },
        { type: 'image', mediaId: MEDIA },
      ]),
    );
    expect(checks.find((c) => c.id === 'outbound-link')!.passed).toBe(true);
    expect(checks.find((c) => c.id === 'internal-link')!.passed).toBe(false);
    expect(checks.find((c) => c.id === 'image-alt-texts')!.passed).toBe(false);
  });
});
