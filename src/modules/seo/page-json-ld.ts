import type { StoredBlock } from '../../blocks/blocks.schemas.js';
import { faqNode, graph, publisherNode } from './json-ld.js';
import type { Seo } from './seo.schemas.js';
import { siteUrlFor, type SiteSettings } from './site-settings.js';

export interface PageForLd {
  slug: string;
  title: string;
  pageType: string;
  seo: Seo | null;
  publishedAt: string | null;
  updatedAt: string;
  blocks: readonly StoredBlock[];
}

/** A page as its `pageType` node (AboutPage …), with an FAQPage beside it when the body has faq blocks. */
export function pageJsonLd(page: PageForLd, settings: SiteSettings, logoUrl: string | null): Record<string, unknown> {
  const url = page.seo?.canonicalUrl ?? siteUrlFor(settings, settings.pageUrlPattern, { slug: page.slug });
  const description = page.seo?.description;
  const publisher = publisherNode(settings, logoUrl);
  const main: Record<string, unknown> = { '@type': page.pageType, name: page.seo?.title ?? page.title };
  if (url) Object.assign(main, { '@id': url, url });
  if (description) main.description = description;
  if (page.publishedAt) main.datePublished = page.publishedAt;
  main.dateModified = page.updatedAt;
  if (publisher) main.publisher = publisher;
  return graph([main, page.pageType === 'FAQPage' ? null : faqNode(page.blocks)]);
}
