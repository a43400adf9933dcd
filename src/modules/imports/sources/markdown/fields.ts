import type { FrontMatter } from './front-matter.js';
import { storable } from './text.js';

/*
 * The front matter keys of Hugo, Jekyll, Eleventy and Astro read into Quire's fields, each value accepted in the
 * shapes those generators allow (a list or a comma-separated string, an object with a name). docs/imports-markdown.md
 * has the table.
 */

export interface AuthorName {
  name: string;
  sameAs: string[];
}

export interface ImageField {
  src: string;
  alt?: string;
}

export interface Fields {
  title?: string;
  slug?: string;
  /** The first date key present, as written. */
  date?: unknown;
  draft: boolean;
  /** `type: page`, `layout: page`. */
  page: boolean;
  tags: string[];
  categories: string[];
  authors: AuthorName[];
  description?: string;
  image?: ImageField;
  canonicalUrl?: string;
  oldPaths: string[];
  /** Keys Quire has no field for, in the order written. */
  unknownKeys: string[];
}

const KNOWN = new Set([
  'title',
  'slug',
  'permalink',
  'url',
  'date',
  'pubDate',
  'publishDate',
  'draft',
  'published',
  'tags',
  'categories',
  'category',
  'description',
  'summary',
  'excerpt',
  'image',
  'images',
  'cover',
  'heroImage',
  'featured_image',
  'image_alt',
  'author',
  'authors',
  'canonical',
  'canonicalURL',
  'canonical_url',
  'aliases',
  'redirect_from',
  'layout',
  'type',
]);

/** A text value (a string, or a number or boolean written where text was meant), trimmed; else undefined. */
function text(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  const cleaned = storable(value).trim();
  return cleaned === '' ? undefined : cleaned;
}

/** A list of texts: a list, or one string of comma-separated items. */
function list(value: unknown): string[] {
  const items = Array.isArray(value) ? value.map(text) : (text(value)?.split(',') ?? []);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const trimmed = item?.trim();
    if (trimmed && !seen.has(trimmed)) {
      seen.add(trimmed);
      out.push(trimmed);
    }
  }
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const isWebUrl = (value: string | undefined): value is string => value !== undefined && /^https?:\/\/\S+$/i.test(value);

/** `author: Ada`, `authors: [Ada, Grace]`, `author: { name: Ada, url: … }`: names, with their profile links. */
function authors(value: unknown): AuthorName[] {
  const entries = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const out: AuthorName[] = [];
  for (const entry of entries) {
    if (isRecord(entry)) {
      const name = text(entry.name) ?? text(entry.display_name);
      if (name === undefined) continue;
      const links = ['url', 'website', 'homepage', 'link', 'twitter', 'github'].map((key) => text(entry[key]));
      out.push({ name, sameAs: links.filter(isWebUrl) });
    } else {
      // One string is one name: `Doe, Jane` is a person, not two.
      const name = text(entry);
      if (name !== undefined) out.push({ name, sameAs: [] });
    }
  }
  return out;
}

/** `image: x.png`, `image: { path|src|url: x.png, alt }`, `cover: { image, alt }`, `images: [x.png]`. */
function image(data: FrontMatter): ImageField | undefined {
  const candidates: unknown[] = [data.image, data.cover, data.heroImage, data.featured_image];
  if (Array.isArray(data.images)) candidates.push(data.images[0]);
  for (const candidate of candidates) {
    const src = isRecord(candidate)
      ? (text(candidate.image) ?? text(candidate.path) ?? text(candidate.src) ?? text(candidate.url))
      : text(candidate);
    if (src === undefined) continue;
    const alt = text(data.image_alt) ?? (isRecord(candidate) ? text(candidate.alt) : undefined);
    return { src, ...(alt === undefined ? {} : { alt }) };
  }
  return undefined;
}

/** An old path as a path of the old site: a full URL's path, a relative one from the site's root. */
function oldPath(value: string): string | undefined {
  // `/:year/:title/`: a pattern of the generator's, not a path.
  if (value.includes(':') && !/^https?:\/\//i.test(value)) return undefined;
  try {
    if (/^https?:\/\//i.test(value)) return new URL(value).pathname;
  } catch {
    return undefined;
  }
  return value.startsWith('/') ? value : `/${value}`;
}

const first = (data: FrontMatter, keys: readonly string[]) =>
  keys.map((key) => data[key]).find((value) => value !== undefined && value !== null && value !== '');

/** The last segment of a Jekyll permalink or Hugo url: `/blog/hello-world/` → `hello-world`. */
export function lastSegment(permalink: string | undefined): string | undefined {
  if (permalink === undefined || permalink.includes(':')) return undefined;
  const segment = permalink.split(/[?#]/)[0]!.split('/').filter(Boolean).at(-1);
  return segment?.replace(/\.html?$/i, '') || undefined;
}

export function readFields(data: FrontMatter): Fields {
  const permalink = text(data.permalink) ?? text(data.url);
  const paths = [...list(data.aliases), ...list(data.redirect_from), ...(permalink === undefined ? [] : [permalink])];
  const layout = text(data.layout)?.toLowerCase();
  const type = text(data.type)?.toLowerCase();
  const description = text(first(data, ['description', 'summary', 'excerpt']));
  const canonicalUrl = text(first(data, ['canonical', 'canonicalURL', 'canonical_url']));
  const slug = text(data.slug) ?? lastSegment(permalink);
  const title = text(data.title);
  const picture = image(data);
  const date = first(data, ['date', 'pubDate', 'publishDate']);
  return {
    ...(title === undefined ? {} : { title }),
    ...(slug === undefined ? {} : { slug }),
    ...(date === undefined ? {} : { date }),
    draft: data.draft === true || data.draft === 'true' || data.published === false || data.published === 'false',
    page: type === 'page' || layout === 'page',
    tags: list(data.tags),
    categories: [...list(data.categories), ...list(data.category)].filter((name, at, all) => all.indexOf(name) === at),
    authors: authors(data.authors ?? data.author),
    ...(description === undefined ? {} : { description }),
    ...(picture === undefined ? {} : { image: picture }),
    ...(canonicalUrl === undefined ? {} : { canonicalUrl }),
    oldPaths: paths.map(oldPath).filter((path): path is string => path !== undefined),
    unknownKeys: Object.keys(data).filter((key) => !KNOWN.has(key)),
  };
}
