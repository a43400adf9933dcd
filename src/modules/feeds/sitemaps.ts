/**
 * Sitemaps (sitemaps.org protocol 0.9, with Google's image extension): an index naming one sitemap per kind and
 * part, each part at most SITEMAP_URLS URLs. Written here with one escaper: the format is four elements deep.
 */
export const SITEMAP_URLS = 50_000;
export const SITEMAP_TYPE = 'application/xml; charset=utf-8';

export interface SitemapEntry {
  loc: string;
  lastmod: string;
  images: readonly string[];
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);

export function renderSitemapIndex(sitemaps: ReadonlyArray<{ loc: string; lastmod: string | null }>): string {
  const parts = sitemaps.map(
    ({ loc, lastmod }) =>
      `<sitemap><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</sitemap>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${parts.join('')}</sitemapindex>\n`
  );
}

export function renderSitemap(entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    ({ loc, lastmod, images }) =>
      `<url><loc>${escapeXml(loc)}</loc><lastmod>${escapeXml(lastmod)}</lastmod>` +
      images.map((image) => `<image:image><image:loc>${escapeXml(image)}</image:loc></image:image>`).join('') +
      '</url>',
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ' +
    `xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">${urls.join('')}</urlset>\n`
  );
}
