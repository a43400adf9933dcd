import type { StoredBlock } from '@quire/blocks';
import { howToNode } from './how-to.js';
import {
  breadcrumbNode,
  categoryCrumbs,
  compact,
  faqNode,
  firstPlainText,
  firstText,
  graph,
  headline,
  idFor,
  personNode,
  publisherNode,
  refTo,
  type AuthorForLd,
  type CategoryChainItem,
  type Node,
} from './json-ld.js';
import type { Seo } from './seo.schemas.js';
import { siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';
import { mergeStructuredData } from './structured-data.js';

export interface PostForLd {
  slug: string;
  title: string;
  excerpt: string;
  seo: Seo | null;
  schemaType: string;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  wordCount: number;
  readingTimeMin: number;
  isHowTo: boolean;
  canonicalUrl: string | null;
  blocks: readonly StoredBlock[];
  structuredData: Record<string, unknown> | null;
  author: AuthorForLd | null;
  categoryChain: CategoryChainItem[];
  imageUrl: string | null;
  tagNames: string[];
}

/** The post's own URL: the canonical one it declares, else the site's post URL pattern. */
export function postUrl(post: Pick<PostForLd, 'slug' | 'canonicalUrl' | 'seo'>, settings: SiteSettings): string | null {
  return (
    firstText(post.canonicalUrl, post.seo?.canonicalUrl) ??
    siteUrlFor(settings, settings.postUrlPattern, { slug: post.slug })
  );
}

/**
 * The post as its `schemaType` (BlogPosting by default), with its BreadcrumbList, FAQPage and HowTo
 * beside it, and the client's structuredData merged in last.
 */
export function postJsonLd(post: PostForLd, settings: SiteSettings, logoUrl: string | null): Node {
  const url = postUrl(post, settings);
  const crumbName = firstPlainText(post.seo?.breadcrumbsTitle, post.title) ?? post.title;
  const breadcrumb =
    post.categoryChain.length > 0
      ? breadcrumbNode([...categoryCrumbs(post.categoryChain, settings), { name: crumbName, url }], url)
      : null;
  const description = firstPlainText(post.seo?.description, post.excerpt);
  const article = compact({
    '@type': post.schemaType,
    '@id': idFor(url, 'article'),
    headline: headline(post.seo?.title, post.title),
    description,
    url,
    datePublished: post.publishedAt,
    dateCreated: post.createdAt,
    dateModified: post.updatedAt,
    author: post.author ? personNode(post.author, settings) : undefined,
    publisher: publisherNode(settings, logoUrl),
    image: post.imageUrl,
    mainEntityOfPage: url ? compact({ '@type': 'WebPage', '@id': url, breadcrumb: refTo(breadcrumb) }) : undefined,
    wordCount: post.wordCount,
    timeRequired: `PT${post.readingTimeMin}M`,
    keywords: post.tagNames.join(', '),
    articleSection: post.categoryChain.at(-1)?.name,
  });
  const howTo = post.isHowTo
    ? howToNode(
        { name: firstPlainText(post.title) ?? post.title, description, imageUrl: post.imageUrl, blocks: post.blocks },
        url,
      )
    : null;
  const nodes = [article, breadcrumb, faqNode(post.blocks, url), howTo].filter((node): node is Node => node !== null);
  return graph(mergeStructuredData(nodes, post.structuredData));
}
