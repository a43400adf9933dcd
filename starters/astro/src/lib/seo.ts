import type { Item } from '../../lib/store.mjs';
import type { Site } from './site';

/** The robots meta of a post's or page's SEO settings; null leaves the site's default. */
export function robotsOf(robots: Item | null | undefined): string | null {
  if (!robots) return null;
  const parts = [robots.index === false ? 'noindex' : 'index', robots.follow === false ? 'nofollow' : 'follow'];
  if (robots.archive === false) parts.push('noarchive');
  if (robots.imageIndex === false) parts.push('noimageindex');
  if (robots.snippet === false) parts.push('nosnippet');
  if (typeof robots.maxSnippet === 'number') parts.push(`max-snippet:${robots.maxSnippet}`);
  parts.push(`max-image-preview:${robots.maxImagePreview ?? 'large'}`);
  if (typeof robots.maxVideoPreview === 'number') parts.push(`max-video-preview:${robots.maxVideoPreview}`);
  return parts.join(', ');
}

const imageOf = (media: Item | undefined) =>
  media?.url ? { url: media.url, alt: media.alt, width: media.width, height: media.height } : null;

/** The head of a post's or page's own view, from what Quire holds about it. */
export function itemSeo(site: Site, item: Item, path: string, kind: 'post' | 'page') {
  const seo: Item = item.seo ?? {};
  const featured = site.media(item.featuredMediaId) ?? item.featuredMedia;
  const ogImage = site.media(seo.og?.imageMediaId) ?? featured;
  const twitterImage = site.media(seo.twitter?.imageMediaId);
  return {
    title: `${seo.title ?? item.title} · ${site.name}`,
    description: seo.description ?? item.excerpt ?? null,
    canonical: item.canonicalUrl ?? seo.canonicalUrl ?? site.absolute(path),
    robots: robotsOf(seo.robots),
    type: kind === 'post' ? 'article' : 'website',
    image: imageOf(twitterImage ?? ogImage),
    twitter: seo.twitter ?? null,
    jsonLd: item.jsonLd ?? null,
    published: kind === 'post' ? item.publishedAt : null,
    modified: kind === 'post' ? item.updatedAt : null,
  };
}

/** The site's own JSON-LD for pages Quire has none for (the home page, a tag). */
export function websiteLd(site: Site, extra: Item = {}) {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: site.name,
    ...(site.origin ? { url: `${site.origin}/` } : {}),
    ...(site.settings.publisherName
      ? {
          publisher: {
            '@type': 'Organization',
            name: site.settings.publisherName,
            url: site.settings.publisherUrl ?? undefined,
          },
        }
      : {}),
    ...extra,
  };
}
