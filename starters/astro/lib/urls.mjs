// @ts-check

/**
 * Where each thing lives on the site: the site settings' URL patterns, so that the links Quire writes (feeds,
 * sitemaps, JSON-LD, canonical URLs) and the pages the site builds agree by construction. A kind without a pattern
 * takes the default below.
 */
export const DEFAULT_PATTERNS = {
  postUrlPattern: '/posts/{slug}',
  pageUrlPattern: '/{slug}',
  authorUrlPattern: '/authors/{slug}',
  categoryUrlPattern: '/categories/{path}',
};

export const TAG_PATTERN = '/tags/{slug}';

/** The preview route, as the site settings' preview URL pattern names it. */
export const PREVIEW_PATH = '/preview';
export const PREVIEW_PATTERN = `${PREVIEW_PATH}?type={type}&id={id}&token={token}`;

/** @typedef {keyof typeof DEFAULT_PATTERNS} PatternField */

/**
 * A path from a pattern: `{slug}` URL-encoded, `{path}` (a category's path of slugs) as it is.
 * @param {Record<string, any>} settings @param {PatternField} field @param {{ slug: string, path?: string }} values
 */
export function pathOf(settings, field, values) {
  const pattern = settings[field] ?? DEFAULT_PATTERNS[field];
  return pattern.replace('{slug}', encodeURIComponent(values.slug)).replace('{path}', values.path ?? values.slug);
}

/** A tag's path. @param {string} slug */
export const tagPath = (slug) => TAG_PATTERN.replace('{slug}', encodeURIComponent(slug));

/** Page n of a listing: the listing itself for the first. @param {string} base @param {number} n */
export const pagePath = (base, n) => (n <= 1 ? base : `${base === '/' ? '' : base}/page/${n}`);
