import { kebabCase, type BlockWrite, type StoredBlock } from '@quire/blocks';
import type { Seo } from './seo.schemas.js';

type AnyBlock = BlockWrite | StoredBlock;

/** What the SEO score reads: the post row alone, so a score never goes stale behind another row's back. */
export interface SeoInput {
  title: string;
  slug: string;
  excerpt: string;
  seo: Seo | null;
  blocks: readonly AnyBlock[];
  bodyText: string;
  wordCount: number;
  featuredMediaId: string | null;
}

export interface SeoCheck {
  id: string;
  weight: number;
  passed: boolean;
}

/** The documented thresholds (docs/seo.md). */
export const SEO_RULES = {
  titleLength: { min: 30, max: 60 },
  descriptionLength: { min: 120, max: 160 },
  keywordDensity: { min: 0.5, max: 2.5 },
} as const;

const MARKDOWN_LINK = /\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** Link targets of the inline Markdown fields of a body. */
export function linkTargets(blocks: readonly AnyBlock[]): string[] {
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'paragraph' || block.type === 'quote') texts.push(block.text);
    else if (block.type === 'list' || block.type === 'key_takeaways') texts.push(...block.items);
    else if (block.type === 'callout') texts.push(block.body);
  }
  return texts.flatMap((text) => [...text.matchAll(MARKDOWN_LINK)].map((match) => match[1]!));
}

const isOutbound = (target: string) => /^https?:\/\//i.test(target);

/** Occurrences of a phrase as whole words, case-insensitively. */
function occurrences(text: string, phrase: string): number {
  const words = phrase.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 0;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return (text.toLowerCase().match(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu')) ?? []).length;
}

function between(value: number, range: { min: number; max: number }): boolean {
  return value >= range.min && value <= range.max;
}

/** The weighted checklist; the weights sum to 100. Keyword checks fail when there is no focus keyword. */
export function seoChecks(input: SeoInput): SeoCheck[] {
  const title = input.seo?.title || input.title;
  const description = input.seo?.description || input.excerpt;
  const keyword = input.seo?.focusKeyword?.trim() ?? '';
  const has = (text: string) => keyword !== '' && occurrences(text, keyword) > 0;
  const firstParagraph = input.blocks.find((block) => block.type === 'paragraph');
  const headings = input.blocks.filter((block) => block.type === 'heading');
  const images = input.blocks.filter((block) => block.type === 'image');
  const targets = linkTargets(input.blocks);
  const density =
    keyword === '' || input.wordCount === 0
      ? 0
      : ((occurrences(input.bodyText, keyword) * keyword.split(/\s+/).length) / input.wordCount) * 100;
  const levels = headings.map((h) => (h.type === 'heading' ? h.level : 2));

  return [
    { id: 'title-length', weight: 10, passed: between([...title].length, SEO_RULES.titleLength) },
    { id: 'description-length', weight: 10, passed: between([...description].length, SEO_RULES.descriptionLength) },
    { id: 'keyword-in-title', weight: 10, passed: has(title) },
    {
      id: 'keyword-in-slug',
      weight: 5,
      passed: keyword !== '' && kebabCase(keyword) !== '' && input.slug.includes(kebabCase(keyword)),
    },
    {
      id: 'keyword-in-first-paragraph',
      weight: 10,
      passed: firstParagraph?.type === 'paragraph' && has(firstParagraph.text),
    },
    { id: 'keyword-in-subheading', weight: 5, passed: headings.some((h) => h.type === 'heading' && has(h.text)) },
    { id: 'keyword-density', weight: 10, passed: keyword !== '' && between(density, SEO_RULES.keywordDensity) },
    { id: 'featured-image', weight: 10, passed: input.featuredMediaId !== null },
    {
      id: 'image-alt-texts',
      weight: 5,
      passed: images.every((image) => image.type === 'image' && (image.alt ?? '').trim() !== ''),
    },
    { id: 'excerpt', weight: 5, passed: input.excerpt.trim() !== '' },
    { id: 'internal-link', weight: 5, passed: targets.some((t) => !isOutbound(t)) },
    { id: 'outbound-link', weight: 5, passed: targets.some(isOutbound) },
    {
      id: 'heading-structure',
      weight: 10,
      passed:
        levels.length > 0 && levels[0] === 2 && levels.every((level, i) => i === 0 || level <= levels[i - 1]! + 1),
    },
  ];
}

export function seoScore(input: SeoInput): number {
  return seoChecks(input).reduce((sum, check) => sum + (check.passed ? check.weight : 0), 0);
}
