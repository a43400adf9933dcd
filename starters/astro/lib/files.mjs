// @ts-check

/**
 * The feeds and sitemaps, served at the site's own URLs. Quire writes them with links back to the content API
 * (their own addresses, and the sitemap index's entries, carry the content key); those links are turned into the
 * site's, so nothing the site serves names Quire or the key.
 *
 * @typedef {import('./store.mjs').Store} Store
 */

export const FEEDS = /** @type {const} */ (['rss.xml', 'atom.xml', 'feed.json']);

const CONTENT_LINK =
  /https?:\/\/[^\s"'<>]*?\/api\/v1\/content\/(feeds\/(?:rss\.xml|atom\.xml|feed\.json)|sitemap\.xml|sitemaps\/[A-Za-z0-9._-]+)\?key=[A-Za-z0-9_]+(?:(?:&amp;|&)[A-Za-z]+=[^\s"'<>&]*)*/g;

/**
 * The site's origin (and base path): the site settings' URL, else SITE_URL.
 * @param {Store['settings']} settings @param {string | undefined} fallback
 */
export function siteOrigin(settings, fallback) {
  const url = settings.siteUrl ?? fallback;
  if (!url)
    throw new Error(
      "The site's URL is unknown: set Site URL in Quire's Site settings (or SITE_URL in .env), so that feeds, " +
        'sitemaps and canonical links can name it',
    );
  return String(url).replace(/\/+$/, '');
}

/** @param {string} text @param {string} origin */
export function siteLinks(text, origin) {
  return text.replace(
    CONTENT_LINK,
    (_match, /** @type {string} */ path) => `${origin}/${path.replace(/^feeds\//, '')}`,
  );
}

/**
 * @param {import('@quire/client').QuireContent} content @param {Store} store @param {string | undefined} fallback
 * @returns {Promise<Record<string, string>>} site path → text
 */
export async function fetchFiles(content, store, fallback) {
  const origin = siteOrigin(store.settings, fallback);
  /** @type {Record<string, string>} */
  const files = {};
  const [index, ...feeds] = await Promise.all([
    content.sitemaps.index(),
    ...FEEDS.map((format) => content.feeds.get(format)),
  ]);
  FEEDS.forEach((format, i) => (files[`/${format}`] = siteLinks(feeds[i], origin)));
  const names = [...index.matchAll(/\/api\/v1\/content\/sitemaps\/([A-Za-z0-9._-]+)\?/g)].map((match) => match[1]);
  const sitemaps = await Promise.all(names.map((name) => content.sitemaps.get(name)));
  names.forEach((name, i) => (files[`/sitemaps/${name}`] = siteLinks(sitemaps[i], origin)));
  files['/sitemap.xml'] = siteLinks(index, origin);
  return files;
}
