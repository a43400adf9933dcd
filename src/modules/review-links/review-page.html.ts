import crypto from 'node:crypto';
import { renderBlocks, renderInline, type Block } from '@quire/blocks';
import { REVIEW_PAGE_CSS, REVIEW_PAGE_CSS_SOURCE } from './review-page.css.js';
import type { ReviewOpening } from './review-links.service.js';

/** What the page needs besides the opening: where media and the site are, and the time it is read. */
export interface ReviewPageContext {
  publicUrl: string;
  now: number;
}

export interface HtmlAnswer {
  html: string;
  /** The page's Content-Security-Policy: what its HTML needs, nothing more. */
  csp: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const UNESCAPES = Object.fromEntries(Object.entries(ESCAPES).map(([char, entity]) => [entity, char]));

/** Text and attribute values of our own (the renderer escapes its own output). */
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The body's image placeholders paint through style attributes, each allowed by its hash; past this, none. */
const STYLE_HASHES_MAX = 64;

/** The renderer's style attributes (its image placeholders) as CSP sources; its text never holds a raw `"`. */
function styleAttributeSources(html: string): string[] {
  const values = new Set<string>();
  for (const match of html.matchAll(/ style="([^"]*)"/g))
    values.add(match[1]!.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPES[entity]!));
  if (values.size === 0 || values.size > STYLE_HASHES_MAX) return [];
  const hashes = [...values].map((value) => `'sha256-${crypto.createHash('sha256').update(value).digest('base64')}'`);
  return ["'unsafe-hashes'", ...hashes];
}

function policy(publicUrl: string, styleSources: string[] = []): string {
  return [
    "default-src 'none'",
    `img-src 'self' ${new URL(publicUrl).origin} https: data:`,
    `style-src ${[REVIEW_PAGE_CSS_SOURCE, ...styleSources].join(' ')}`,
    // The renderer writes links to players, which a site's script may turn into frames; this page runs none.
    'frame-src https:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function document(title: string, main: string, banner = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escape(title)}</title>
<link rel="icon" href="data:,">
<style>${REVIEW_PAGE_CSS}</style>
</head>
<body>
${banner}<main>
${main}
</main>
</body>
</html>
`;
}

const NOTICE_TITLE = 'This review link has expired or was withdrawn.';

/** The one answer to every link that reads nothing: it must not tell a guess from an expired or withdrawn link. */
export function unavailablePage(publicUrl: string): HtmlAnswer {
  const main = `<div class="notice">
<h1>${NOTICE_TITLE}</h1>
<p>Ask whoever shared it for a new one.</p>
</div>`;
  return { html: document('Review link unavailable', main), csp: policy(publicUrl) };
}

/** The page when the server could not read the link right now (the database away): try again, nothing else. */
export function troublePage(publicUrl: string): HtmlAnswer {
  const main = `<div class="notice">
<h1>This page cannot be shown right now.</h1>
<p>Try again in a moment.</p>
</div>`;
  return { html: document('Review page unavailable', main), csp: policy(publicUrl) };
}

const UTC_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "in 7 days", "in 3 hours", "in 1 minute": how long the reader has, in the unit a person would say. */
export function timeLeft(milliseconds: number): string {
  const hours = milliseconds / 3_600_000;
  const count = (n: number, unit: string) => `in ${n} ${unit}${n === 1 ? '' : 's'}`;
  if (hours >= 36) return count(Math.round(hours / 24), 'day');
  if (hours >= 1.5) return count(Math.round(hours), 'hour');
  return count(Math.max(1, Math.round(hours * 60)), 'minute');
}

/** The body's HTML; site-relative links resolve against the site when it has a URL the renderer takes. */
function bodyHtml(blocks: Block[], siteUrl: string | null): string {
  const sizes = '(min-width: 44rem) 42rem, 100vw';
  if (siteUrl !== null && /^https?:\/\//i.test(siteUrl)) {
    try {
      return renderBlocks(blocks, { sizes, linkBase: siteUrl });
    } catch {
      // A site URL the renderer does not take as a base leaves the links as they are.
    }
  }
  return renderBlocks(blocks, { sizes });
}

function featuredImage(resource: ReviewOpening['resource']): string {
  const media = 'featuredMedia' in resource ? resource.featuredMedia : null;
  if (!media || !media.mimeType.startsWith('image/') || !/^https?:\/\//i.test(media.url)) return '';
  const size = media.width && media.height ? ` width="${media.width}" height="${media.height}"` : '';
  return `<figure class="featured"><img src="${escape(media.url)}" alt="${escape(media.alt ?? '')}"${size}></figure>\n`;
}

/** What the copy is, in a reader's words. */
function statusLine({ resource, kind, pending }: ReviewOpening): string {
  if (pending === 'pending') return `Changes not yet published to a live ${kind}`;
  if (pending === 'refused') return `The live ${kind}: its new changes are being revised and cannot be shown yet`;
  if (resource.status === 'published') return `The live ${kind}, with no unpublished changes`;
  return resource.status === 'draft' ? 'Draft — not published' : `Not published (${resource.status})`;
}

/** The post or page as the link shows it: what it is (a draft, or changes to a live one), then the text. */
export function reviewPage(opening: ReviewOpening, context: ReviewPageContext): HtmlAnswer {
  const { resource } = opening;
  const status = statusLine(opening);
  const expiresAt = Date.parse(opening.expiresAt);
  const banner = `<header class="banner">
<div class="banner-inner">
<p class="status">${escape(status)}</p>
<p>A review copy: this link expires ${timeLeft(expiresAt - context.now)}, <time datetime="${escape(opening.expiresAt)}">${escape(
    UTC_DATE.format(expiresAt),
  )} UTC</time>. Please do not pass it on.</p>
</div>
</header>
`;
  const body = bodyHtml(resource.bodyJson as Block[], opening.siteUrl);
  const excerpt = 'excerpt' in resource && resource.excerpt.trim() !== '' ? resource.excerpt : null;
  const main = `<article>
<h1>${escape(resource.title)}</h1>
${excerpt === null ? '' : `<p class="excerpt">${renderInline(excerpt)}</p>\n`}${featuredImage(resource)}<div class="body">
${body}
</div>
</article>`;
  return {
    html: document(`${resource.title} (review copy)`, main, banner),
    csp: policy(context.publicUrl, styleAttributeSources(body)),
  };
}
