import fs from 'node:fs';
import path from 'node:path';
import { attribute, elements, parseHtml, srcsetUrls, where, type Element } from './html.js';

export interface PageSource {
  /** The URL path the page is served at (htmlFiles' `path`). */
  path: string;
  html: string;
}

export type Exists = (pathname: string) => boolean | Promise<boolean>;

export interface BrokenLink {
  page: string;
  code: 'broken-link' | 'broken-fragment';
  attribute: 'href' | 'src' | 'srcset';
  url: string;
  message: string;
  line: number;
  col: number;
}

/** Stands in for the site's origin when the caller gives none: then only relative URLs are internal. */
const NO_ORIGIN = 'https://site.invalid';

/** A URL path as the files on disk spell it: percent-escapes decoded, `…/index.html` as `…/`. */
export function normalPath(pathname: string): string {
  const decoded = pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
  return decoded.replace(/\/index\.html$/, '/');
}

/**
 * Whether a built site directory answers a URL path: a file, or a directory's index.html (a host redirects
 * `/a` to `/a/`, so a link without the trailing slash still reaches the page), or `/a` as a.html.
 */
export function distExists(dir: string): Exists {
  return (pathname) => {
    const relative = normalPath(pathname);
    const root = path.resolve(dir);
    const file = path.join(root, relative);
    if (file !== root && !file.startsWith(root + path.sep)) return false;
    const isFile = (candidate: string) => fs.statSync(candidate, { throwIfNoEntry: false })?.isFile() ?? false;
    if (relative.endsWith('/')) return isFile(path.join(file, 'index.html'));
    return isFile(file) || isFile(path.join(file, 'index.html')) || isFile(`${file}.html`);
  };
}

interface Link {
  attribute: BrokenLink['attribute'];
  url: string;
  line: number;
  col: number;
}

/** Every URL in an href, src or srcset of the page (a <base href> only moves where the others resolve from). */
function linksOf(element: Element): Link[] {
  const links: Link[] = [];
  const add = (name: Link['attribute'], urls: string[]) =>
    urls.forEach((url) => links.push({ attribute: name, url, ...where(element, name) }));
  const href = attribute(element, 'href');
  if (href !== undefined && element.tagName !== 'base') add('href', [href]);
  const src = attribute(element, 'src');
  if (src !== undefined) add('src', [src]);
  const srcset = attribute(element, 'srcset');
  if (srcset !== undefined) add('srcset', srcsetUrls(srcset));
  return links;
}

interface Scanned {
  ids: Set<string>;
  links: Link[];
  base: string | undefined;
}

function scan(html: string): Scanned {
  const scanned: Scanned = { ids: new Set(), links: [], base: undefined };
  for (const element of elements(parseHtml(html).document)) {
    const id = attribute(element, 'id');
    if (id) scanned.ids.add(id);
    // The HTML standard's "find a potential indicated element" also accepts an <a name>.
    const name = element.tagName === 'a' ? attribute(element, 'name') : undefined;
    if (name) scanned.ids.add(name);
    if (element.tagName === 'base') scanned.base ??= attribute(element, 'href');
    scanned.links.push(...linksOf(element));
  }
  return scanned;
}

/** Whether a fragment scrolls somewhere: an element with that id (raw or decoded), or the top of the page. */
function fragmentFound(fragment: string, ids: Set<string>): boolean {
  if (fragment.startsWith(':~:') || fragment.toLowerCase() === 'top') return true;
  let decoded = fragment;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    // A malformed escape matches only as it is written.
  }
  return ids.has(fragment) || ids.has(decoded);
}

/**
 * Every internal URL of the pages whose target is missing: relative ones, and absolute ones on `origin`. A
 * target is one of the pages, or whatever `exists` says the site serves (its files, its on-demand routes).
 * A fragment must name an id of the page it points to, when that page is one of these.
 */
export async function brokenInternalLinks(
  pages: PageSource[],
  options: { exists: Exists; origin?: string },
): Promise<BrokenLink[]> {
  const origin = new URL(options.origin ?? NO_ORIGIN).origin;
  const scanned = new Map(pages.map((page) => [normalPath(page.path), scan(page.html)]));
  const builtPage = (pathname: string) => {
    const normal = normalPath(pathname);
    return scanned.get(normal) ?? (normal.endsWith('/') ? undefined : scanned.get(`${normal}/`));
  };
  const known = new Map<string, boolean>();
  const exists = async (pathname: string) => {
    if (!known.has(pathname))
      known.set(pathname, builtPage(pathname) !== undefined || (await options.exists(pathname)));
    return known.get(pathname)!;
  };
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    const { links, base } = scanned.get(normalPath(page.path))!;
    const pageUrl = new URL(page.path, origin);
    const baseUrl = base === undefined ? pageUrl : new URL(base, pageUrl);
    const seen = new Set<string>();
    for (const link of links) {
      const key = `${link.attribute} ${link.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const report = (code: BrokenLink['code'], message: string) =>
        broken.push({ page: page.path, code, message, ...link });
      let target: URL;
      try {
        target = new URL(link.url.trim(), baseUrl);
      } catch {
        report('broken-link', `${link.attribute}="${link.url}" is not a URL`);
        continue;
      }
      if (target.origin !== origin) continue;
      if (!(await exists(target.pathname))) {
        report('broken-link', `${link.attribute}="${link.url}": nothing is served at ${target.pathname}`);
        continue;
      }
      const fragment = target.hash.slice(1);
      const ids = builtPage(target.pathname)?.ids;
      if (fragment && ids && !fragmentFound(fragment, ids))
        report('broken-fragment', `${link.attribute}="${link.url}": ${target.pathname} has no id "${fragment}"`);
    }
  }
  return broken;
}
