import { plainText, type StoredBlock } from '@quire/blocks';
import type { Person } from './seo.schemas.js';
import { siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';

/*
 * schema.org JSON-LD built on every read from a row, its embedded relations and the site settings
 * (docs/seo.md, "jsonLd"). A property whose source is missing is left out: nothing is invented, and an
 * absolute URL exists only when the site URL and the matching URL pattern are set. Text built from prose
 * (titles, excerpts, descriptions, bios, body text) is plain text; names of things (authors, categories,
 * tags, the publisher) are labels and stay as written.
 */

export type Node = Record<string, unknown>;
export const CONTEXT = 'https://schema.org';

/** Google cuts an Article headline after 110 characters. */
export const HEADLINE_MAX = 110;

export function compact(node: Node): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

export function graph(nodes: ReadonlyArray<Node | null>): Node {
  return { '@context': CONTEXT, '@graph': nodes.filter((n): n is Node => n !== null) };
}

/** `url#fragment`: a node's @id hangs off its page's URL, so there is none while the URL is unknown. */
export function idFor(url: string | null, fragment: string): string | undefined {
  return url ? `${url.split('#')[0]}#${fragment}` : undefined;
}

/** A reference to a node of the same graph, when that node has an @id to point at. */
export function refTo(node: Node | null): Node | undefined {
  return typeof node?.['@id'] === 'string' ? { '@id': node['@id'] } : undefined;
}

/** The first candidate that is not blank: an empty `seo.title` means "not set", as a missing one. */
export function firstText(...candidates: ReadonlyArray<string | null | undefined>): string | undefined {
  return candidates.find((text): text is string => typeof text === 'string' && text.trim() !== '');
}

/** The first candidate whose plain text is not blank, as plain text: prose fields hold inline Markdown. */
export function firstPlainText(...candidates: ReadonlyArray<string | null | undefined>): string | undefined {
  for (const candidate of candidates) {
    const text = typeof candidate === 'string' ? plainText(candidate) : undefined;
    if (firstText(text) !== undefined) return text;
  }
  return undefined;
}

/**
 * The first candidate that fits in 110 characters (code points) as plain text; when none does, the first
 * one cut at the last word boundary in its second half and ended with `…`, so no word is cut in two.
 */
export function headline(...candidates: ReadonlyArray<string | null | undefined>): string | undefined {
  const texts = candidates.flatMap((candidate) => firstPlainText(candidate) ?? []);
  const fitting = texts.find((text) => [...text].length <= HEADLINE_MAX);
  if (fitting !== undefined || texts.length === 0) return fitting;
  const chars = [...texts[0]!];
  const cut = chars.slice(0, HEADLINE_MAX - 1).join('');
  const space = cut.lastIndexOf(' ');
  const endsAWord = /\s/u.test(chars[HEADLINE_MAX - 1]!);
  const kept = endsAWord || space < cut.length / 2 ? cut : cut.slice(0, space);
  return `${kept.replace(/[\s,;:.\u2013\u2014-]+$/u, '')}…`;
}

export interface AuthorForLd {
  slug: string;
  displayName: string;
  bio: string | null;
  sameAs: string[];
  person: Person | null;
  avatarUrl: string | null;
}

export function personNode(author: AuthorForLd, settings: SiteSettings): Node {
  const person = author.person ?? {};
  const url = siteUrlFor(settings, settings.authorUrlPattern, { slug: author.slug });
  return compact({
    '@type': 'Person',
    '@id': idFor(url, 'person'),
    name: author.displayName,
    url,
    description: firstPlainText(author.bio),
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

/** The publisher: the publisher's name and URL, else the site's; none without a name (Google requires one). */
export function publisherNode(settings: SiteSettings, logoUrl: string | null): Node | null {
  const name = firstText(settings.publisherName, settings.siteName);
  if (!name) return null;
  const url = settings.publisherUrl ?? settings.siteUrl;
  return compact({
    '@type': 'Organization',
    '@id': idFor(url, 'organization'),
    name,
    url,
    logo: logoUrl ? { '@type': 'ImageObject', url: logoUrl } : undefined,
  });
}

export interface CategoryChainItem {
  slug: string;
  name: string;
  path: string;
  breadcrumbsTitle?: string | undefined;
}

export interface Crumb {
  name: string;
  url: string | null;
}

export function categoryCrumbs(chain: readonly CategoryChainItem[], settings: SiteSettings): Crumb[] {
  return chain.map((category) => ({
    name: firstPlainText(category.breadcrumbsTitle) ?? category.name,
    url: siteUrlFor(settings, settings.categoryUrlPattern, category),
  }));
}

/**
 * A BreadcrumbList, or null for fewer than two crumbs (Google wants a trail) and while a crumb before the
 * last has no URL: Google requires `item` on each of them and calls the whole trail invalid without, and
 * a trail that skipped the crumb would show a path the site does not have. The last crumb is the page
 * itself, which Google lets go without one.
 */
export function breadcrumbNode(crumbs: readonly Crumb[], pageUrl: string | null): Node | null {
  if (crumbs.length < 2 || crumbs.slice(0, -1).some((crumb) => crumb.url === null)) return null;
  return compact({
    '@type': 'BreadcrumbList',
    '@id': idFor(pageUrl, 'breadcrumb'),
    itemListElement: crumbs.map((crumb, index) =>
      compact({ '@type': 'ListItem', position: index + 1, name: crumb.name, item: crumb.url }),
    ),
  });
}

/** Every question of every faq block, in body order. */
export function faqQuestions(blocks: readonly StoredBlock[]): Node[] {
  return blocks
    .flatMap((block) => (block.type === 'faq' ? block.items : []))
    .map((item) => ({
      '@type': 'Question',
      name: plainText(item.question),
      acceptedAnswer: { '@type': 'Answer', text: plainText(item.answer) },
    }));
}

export function faqNode(blocks: readonly StoredBlock[], pageUrl: string | null): Node | null {
  const questions = faqQuestions(blocks);
  return questions.length === 0
    ? null
    : compact({ '@type': 'FAQPage', '@id': idFor(pageUrl, 'faq'), mainEntity: questions });
}
