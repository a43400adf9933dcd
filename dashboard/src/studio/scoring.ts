// The server's own scoring, bundled into the editor (docs/decisions.md, issue 23): these modules are pure, so
// the score a writer watches while typing is the one the save will store.
import { bodyText, readingTimeMin, wordCount } from '@quire/blocks';
import { readabilityScore } from '../../../src/modules/seo/readability.js';
import { seoChecks, SEO_RULES, type SeoCheck } from '../../../src/modules/seo/seo-score.js';
import type { Block } from '../types';
import type { EditableFields } from './drafts';

export { SEO_RULES };

/** What each check asks of the writer, in words, when it does not pass (docs/seo.md has the formula). */
export const CHECK_WORDS: Record<string, { label: string; fix: string }> = {
  'title-length': {
    label: 'Title length',
    fix: `Make the SEO title (or the title) ${SEO_RULES.titleLength.min}–${SEO_RULES.titleLength.max} characters long.`,
  },
  'description-length': {
    label: 'Description length',
    fix: `Write an SEO description (or excerpt) of ${SEO_RULES.descriptionLength.min}–${SEO_RULES.descriptionLength.max} characters.`,
  },
  'keyword-in-title': { label: 'Focus keyword in the title', fix: 'Use the focus keyword in the title.' },
  'keyword-in-slug': { label: 'Focus keyword in the slug', fix: 'Put the focus keyword into the slug.' },
  'keyword-in-first-paragraph': {
    label: 'Focus keyword in the first paragraph',
    fix: 'Mention the focus keyword in the first paragraph.',
  },
  'keyword-in-subheading': { label: 'Focus keyword in a heading', fix: 'Use the focus keyword in a heading.' },
  'keyword-density': {
    label: 'Keyword density',
    fix: `Use the focus keyword for ${SEO_RULES.keywordDensity.min}–${SEO_RULES.keywordDensity.max}% of the words.`,
  },
  'featured-image': { label: 'Featured image', fix: 'Choose a featured image.' },
  'image-alt-texts': { label: 'Alt texts', fix: 'Give every image block an alt text.' },
  excerpt: { label: 'Excerpt', fix: 'Write an excerpt.' },
  'internal-link': { label: 'Internal link', fix: 'Link to another page of your site, e.g. [text](/path).' },
  'outbound-link': { label: 'Outbound link', fix: 'Link to a source elsewhere, e.g. [text](https://…).' },
  'heading-structure': {
    label: 'Heading structure',
    fix: 'Start with a level 2 heading and go down one level at a time.',
  },
};

export interface Scores {
  seoScore: number;
  readabilityScore: number;
  checks: SeoCheck[];
  /** The body's words and reading time, counted as the server counts them for `wordCount` and `readingTimeMin`. */
  words: number;
  readingMin: number;
}

export function scoresOf(fields: EditableFields, blocks: readonly Block[]): Scores {
  const text = bodyText(blocks);
  const words = wordCount(text);
  const checks = seoChecks({
    title: fields.title,
    slug: fields.slug,
    excerpt: fields.excerpt,
    seo: fields.seo as Parameters<typeof seoChecks>[0]['seo'],
    blocks,
    bodyText: text,
    wordCount: words,
    featuredMediaId: fields.featuredMediaId,
  });
  return {
    checks,
    seoScore: checks.reduce((sum, check) => sum + (check.passed ? check.weight : 0), 0),
    readabilityScore: readabilityScore(text),
    words,
    readingMin: readingTimeMin(words),
  };
}
