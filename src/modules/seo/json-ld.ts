import type { StoredBlock } from '../../blocks/blocks.schemas.js';
import type { Person } from '../authors/authors.schemas.js';
import type { Seo } from './seo.schemas.js';
import { siteUrlFor, type SiteSettings } from './site-settings.js';

/*
 * schema.org JSON-LD built on every read from a row, its embedded relations and the site settings.
 * A property whose source is missing is left out: nothing is invented.
 */

type Node = Record<string, unknown>;
const CONTEXT = 'https://schema.org';

function compact(node: Node): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

export interface AuthorForLd {
  slug: string;
  displayName: string;
  bio: string | null;
  sameAs: string[];
  person: Person | null;
  avatarUrl: string | null;
}

export interface CategoryChainItem {
  slug: string;
  name: string;
  path: string;
}

export function personNode(author: AuthorForLd, settings: SiteSettings): Node {
  const person = author.person ?? {};
  const url = siteUrlFor(settings, settings.authorUrlPattern, { slug: author.slug });
  return compact({
    '@type': 'Person',
    '@id': url ? `${url}#person` : undefined,
    name: author.displayName,
    url,
    description: author.bio,
    image: author.avatarUrl,
    sameAs: author.sameAs,
    jobTitle: person.jobTitle,
    worksFor: person.worksFor ? { '@type': 'Organization', name: person.worksFor } : undefined,
    alumniOf: person.alumniOf ? { '@type': 'EducationalOrganization', name: person.alumniOf } : undefined,
    award: person.award,
    honorificPrefix: person.honorificPrefix,
    honorificSuffix: person.honorificSuffix,
    knowsAbout: person.knowsAbout,
  });
}

export function publisherNode(settings: SiteSettings, logoUrl: string | null): Node | null {
  const name = settings.publisherName ?? settings.siteName;
  if (!name) return null;
  return compact({
    '@type': 'Organization',
    name,
    url: settings.publisherUrl ?? settings.siteUrl,
    logo: logoUrl ? { '@type': 'ImageObject', url: logoUrl } : undefined,
  });
}

/** A BreadcrumbList over a category chain (root first); items without a URL leave the list out. */
export function breadcrumbNode(chain: readonly CategoryChainItem[], settings: SiteSettings, last?: { name: string; url: string | null }): Node | null {
  const items = chain.map((category) => ({ name: category.name, url: siteUrlFor(settings, settings.categoryUrlPattern, category) }));
  if (last) items.push(last);
  if (items.length === 0 || items.some((item) => item.url === null)) return null;
  return {
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({ '@type': 'ListItem', position: index + 1, name: item.name, item: item.url })),
  };
}

export function faqNode(blocks: readonly StoredBlock[]): Node | null {
  const questions = blocks.flatMap((block) => (block.type === 'faq' ? block.items : []));
  if (questions.length === 0) return null;
  return {
    '@type': 'FAQPage',
    mainEntity: questions.map((item) => ({ '@type': 'Question', name: item.question, acceptedAnswer: { '@type': 'Answer', text: item.answer } })),
  };
}

/** Steps are the items of the first ordered list; without one, each heading and the text under it. */
export function howToSteps(blocks: readonly StoredBlock[]): Node[] {
  const ordered = blocks.find((block) => block.type === 'list' && block.style === 'ordered');
  if (ordered && ordered.type === 'list') return ordered.items.map((text, i) => ({ '@type': 'HowToStep', position: i + 1, text }));
  const steps: Node[] = [];
  let current: { name: string; text: string[] } | null = null;
  const flush = () => {
    if (current) steps.push(compact({ '@type': 'HowToStep', position: steps.length + 1, name: current.name, text: current.text.join('\n') || current.name }));
  };
  for (const block of blocks) {
    if (block.type === 'heading') {
      flush();
      current = { name: block.text, text: [] };
    } else if (current && block.type === 'paragraph') current.text.push(block.text);
  }
  flush();
  return steps;
}

/** `structuredData` joins the graph: its own `@graph` nodes, or itself as one node when typed. */
export function mergeStructuredData(graph: Node[], structuredData: Record<string, unknown> | null): Node[] {
  if (!structuredData) return graph;
  const extra = structuredData['@graph'];
  if (Array.isArray(extra)) return [...graph, ...extra.filter((n): n is Node => typeof n === 'object' && n !== null)];
  if (typeof structuredData['@type'] === 'string') {
    const { '@context': _context, ...node } = structuredData;
    return [...graph, node];
  }
  // An untyped object adds properties to the main node without replacing its identity.
  const [main, ...rest] = graph;
  const { '@type': _type, '@id': _id, '@context': _ctx, ...props } = structuredData;
  return main ? [{ ...props, ...main }, ...rest] : graph;
}

export function graph(nodes: Array<Node | null>): Node {
  return { '@context': CONTEXT, '@graph': nodes.filter((n): n is Node => n !== null) };
}

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

export function postJsonLd(post: PostForLd, settings: SiteSettings, logoUrl: string | null): Node {
  const url = post.canonicalUrl ?? siteUrlFor(settings, settings.postUrlPattern, { slug: post.slug });
  const category = post.categoryChain[post.categoryChain.length - 1];
  const main = compact({
    '@type': post.schemaType,
    '@id': url ? `${url}#article` : undefined,
    headline: post.seo?.title ?? post.title,
    description: post.seo?.description ?? post.excerpt,
    datePublished: post.publishedAt,
    dateCreated: post.createdAt,
    dateModified: post.updatedAt,
    author: post.author ? personNode(post.author, settings) : undefined,
    publisher: publisherNode(settings, logoUrl),
    image: post.imageUrl,
    mainEntityOfPage: url ? { '@type': 'WebPage', '@id': url } : undefined,
    url,
    wordCount: post.wordCount,
    timeRequired: `PT${post.readingTimeMin}M`,
    keywords: post.tagNames.length > 0 ? post.tagNames.join(', ') : undefined,
    articleSection: category?.name,
    inLanguage: undefined,
  });
  const howTo = post.isHowTo
    ? compact({ '@type': 'HowTo', name: post.title, description: post.excerpt, totalTime: `PT${post.readingTimeMin}M`, step: howToSteps(post.blocks) })
    : null;
  const nodes = [main, breadcrumbNode(post.categoryChain, settings, { name: post.title, url }), faqNode(post.blocks), howTo];
  return graph(mergeStructuredData(nodes.filter((n): n is Node => n !== null), post.structuredData));
}
