import type { StoredBlock } from '@quire/blocks';
import {
  compact,
  faqNode,
  faqQuestions,
  firstPlainText,
  firstText,
  graph,
  publisherNode,
  type Node,
} from './json-ld.js';
import type { Seo } from './seo.schemas.js';
import { siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';

export interface PageForLd {
  slug: string;
  title: string;
  pageType: string;
  seo: Seo | null;
  publishedAt: string | null;
  updatedAt: string;
  blocks: readonly StoredBlock[];
}

/**
 * A page as its `pageType` node (AboutPage …). An FAQPage page carries the questions of its faq blocks as
 * its own `mainEntity`; any other page with faq blocks gets an FAQPage node beside it.
 */
export function pageJsonLd(page: PageForLd, settings: SiteSettings, logoUrl: string | null): Node {
  const url = firstText(page.seo?.canonicalUrl) ?? siteUrlFor(settings, settings.pageUrlPattern, { slug: page.slug });
  const isFaqPage = page.pageType === 'FAQPage';
  const main = compact({
    '@type': page.pageType,
    '@id': url,
    url,
    name: firstPlainText(page.seo?.title, page.title),
    description: firstPlainText(page.seo?.description),
    datePublished: page.publishedAt,
    dateModified: page.updatedAt,
    publisher: publisherNode(settings, logoUrl),
    mainEntity: isFaqPage ? faqQuestions(page.blocks) : undefined,
  });
  return graph([main, isFaqPage ? null : faqNode(page.blocks, url)]);
}
