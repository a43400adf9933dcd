import type { ImportSeo, MediaRef } from '../../import-source.js';
import { serializedStrings } from './php-serialized.js';
import { expandSnippet, type SnippetValues } from './seo-variables.js';

/*
 * An entry's SEO from Yoast's and Rank Math's post meta: Yoast's where both are set (the plugin most sites ran
 * longest), Rank Math's filling the rest. Templates are expanded; texts are cut to Quire's limits.
 */

const TITLE_MAX = 300;
const DESCRIPTION_MAX = 1000;
const KEYWORD_MAX = 100;
const SECONDARY_MAX = 20;

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max).trimEnd() : text);

function keywordsOf(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((entry) =>
      typeof entry === 'object' && entry !== null && typeof (entry as { keyword?: unknown }).keyword === 'string'
        ? [(entry as { keyword: string }).keyword.trim()]
        : [],
    );
  } catch {
    return [];
  }
}

export function seoOf(
  meta: ReadonlyMap<string, string>,
  values: SnippetValues,
  locate: (src: string) => MediaRef | null,
): ImportSeo | undefined {
  const get = (...keys: string[]) => {
    for (const key of keys) {
      const found = meta.get(key)?.trim();
      if (found !== undefined && found !== '') return found;
    }
    return undefined;
  };
  const snippet = (max: number, ...keys: string[]) => {
    const template = get(...keys);
    if (template === undefined) return undefined;
    const text = cut(expandSnippet(template, values), max);
    return text === '' ? undefined : text;
  };
  const image = (...keys: string[]) => {
    const url = get(...keys);
    return url === undefined ? undefined : (locate(url) ?? undefined);
  };

  const seo: ImportSeo = {};
  const title = snippet(TITLE_MAX, '_yoast_wpseo_title', 'rank_math_title');
  if (title !== undefined) seo.title = title;
  const description = snippet(DESCRIPTION_MAX, '_yoast_wpseo_metadesc', 'rank_math_description');
  if (description !== undefined) seo.description = description;
  const canonical = get('_yoast_wpseo_canonical', 'rank_math_canonical_url');
  if (canonical !== undefined && /^https?:\/\//i.test(canonical) && canonical.length <= 2000)
    seo.canonicalUrl = canonical;

  const yoastKeyword = get('_yoast_wpseo_focuskw');
  const keywords = yoastKeyword
    ? [yoastKeyword, ...keywordsOf(get('_yoast_wpseo_focuskeywords') ?? '[]')]
    : (get('rank_math_focus_keyword') ?? '').split(',');
  const [focus, ...secondary] = keywords.map((keyword) => cut(keyword.trim(), KEYWORD_MAX)).filter(Boolean);
  if (focus !== undefined) seo.focusKeyword = focus;
  if (secondary.length > 0) seo.secondaryKeywords = secondary.slice(0, SECONDARY_MAX);

  const robots: NonNullable<ImportSeo['robots']> = {};
  const noindex = get('_yoast_wpseo_meta-robots-noindex');
  if (noindex === '1') robots.index = false;
  else if (noindex === '2') robots.index = true;
  if (get('_yoast_wpseo_meta-robots-nofollow') === '1') robots.follow = false;
  const rankMath = serializedStrings(get('rank_math_robots') ?? '');
  if (robots.index === undefined && rankMath.includes('noindex')) robots.index = false;
  else if (robots.index === undefined && rankMath.includes('index')) robots.index = true;
  if (robots.follow === undefined && rankMath.includes('nofollow')) robots.follow = false;
  if (Object.keys(robots).length > 0) seo.robots = robots;

  const og = {
    title: snippet(TITLE_MAX, '_yoast_wpseo_opengraph-title', 'rank_math_facebook_title'),
    description: snippet(DESCRIPTION_MAX, '_yoast_wpseo_opengraph-description', 'rank_math_facebook_description'),
    image: image('_yoast_wpseo_opengraph-image', 'rank_math_facebook_image'),
  };
  const twitter = {
    title: snippet(TITLE_MAX, '_yoast_wpseo_twitter-title', 'rank_math_twitter_title'),
    description: snippet(DESCRIPTION_MAX, '_yoast_wpseo_twitter-description', 'rank_math_twitter_description'),
    image: image('_yoast_wpseo_twitter-image', 'rank_math_twitter_image'),
  };
  const defined = <T extends object>(record: T): Partial<T> | undefined => {
    const kept = Object.fromEntries(Object.entries(record).filter(([, field]) => field !== undefined));
    return Object.keys(kept).length > 0 ? (kept as Partial<T>) : undefined;
  };
  const ogKept = defined(og);
  if (ogKept !== undefined) seo.og = ogKept;
  const twitterKept = defined(twitter);
  if (twitterKept !== undefined) seo.twitter = twitterKept;
  return Object.keys(seo).length > 0 ? seo : undefined;
}
