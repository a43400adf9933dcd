import { Feed, type Item } from 'feed';
import type { Post } from '../posts/posts.schemas.js';
import { plainText } from '@quire/blocks';
import { siteUrlFor, type SiteSettings } from '../workspaces/site-settings.js';

/** What one feed is drawn from: the latest published posts, the workspace's site and the feed's own URLs. */
export interface FeedSource {
  settings: SiteSettings;
  /** The feed's title when the site has no name (the workspace's name). */
  fallbackTitle: string;
  /** A narrower feed's subject ("Engines", a category's, tag's or author's name), added to the title. */
  subject?: string | undefined;
  posts: ReadonlyArray<{ post: Post; html: string }>;
  /** The three formats' own URLs, for the self links. */
  links: { rss: string; atom: string; json: string };
}

export type FeedFormat = 'rss' | 'atom' | 'json';

export const FEED_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

function postUrl(settings: SiteSettings, post: Post): string | null {
  return post.canonicalUrl ?? siteUrlFor(settings, settings.postUrlPattern, post);
}

/** A post's author as a feed names it: the name, and the author's page on the site when there is one. */
function authorOf(settings: SiteSettings, post: Post): { name: string; url: string | null } | null {
  return post.author
    ? { name: post.author.displayName, url: siteUrlFor(settings, settings.authorUrlPattern, post.author) }
    : null;
}

/** A post's summary as plain text: its SEO description, else its excerpt (both may hold inline Markdown). */
function summaryOf(post: Post): string | undefined {
  const text = post.seo?.description ?? post.excerpt;
  return text ? plainText(text) || undefined : undefined;
}

function titleOf(source: FeedSource): string {
  const site = source.settings.siteName ?? source.fallbackTitle;
  return source.subject ? `${site}: ${source.subject}` : site;
}

/** The newest change of any post in the feed, or the epoch for an empty one: stable for the same posts. */
function updatedOf(source: FeedSource): Date {
  const times = source.posts.map(({ post }) => Date.parse(post.updatedAt));
  return new Date(times.length === 0 ? 0 : Math.max(...times));
}

function itemOf(settings: SiteSettings, { post, html }: { post: Post; html: string }): Item {
  const link = postUrl(settings, post) ?? `urn:uuid:${post.id}`;
  const description = summaryOf(post);
  const author = authorOf(settings, post);
  return {
    title: post.title,
    id: link,
    guid: link,
    link,
    date: new Date(post.updatedAt),
    published: new Date(post.publishedAt ?? post.createdAt),
    ...(description ? { description } : {}),
    content: html,
    ...(author ? { author: [{ name: author.name, ...(author.url ? { link: author.url } : {}) }] } : {}),
    category: [
      ...(post.category ? [{ name: post.category.name, term: post.category.slug }] : []),
      ...post.tags.map((tag) => ({ name: tag.name, term: tag.slug })),
    ],
    ...(post.featuredMedia ? { image: post.featuredMedia.url } : {}),
  };
}

/**
 * RSS 2.0 (with the full text in `content:encoded`) and Atom 1.0 by the `feed` library; JSON Feed 1.1 built here, as
 * `feed` writes version 1.0 of it. The same posts, links and texts in all three.
 */
export function renderFeed(format: FeedFormat, source: FeedSource): string {
  const { settings } = source;
  const home = settings.siteUrl ?? undefined;
  if (format === 'json') return JSON.stringify(jsonFeed(source));
  // RSS requires the channel's link; without a site URL the feed's own address is the one page there is.
  const link = home ?? (format === 'rss' ? source.links.rss : undefined);
  const feed = new Feed({
    id: home ?? source.links.atom,
    title: titleOf(source),
    ...(link ? { link } : {}),
    description: titleOf(source),
    updated: updatedOf(source),
    generator: 'Quire',
    feedLinks: { rss: source.links.rss, atom: source.links.atom, json: source.links.json },
    copyright: settings.publisherName ?? titleOf(source),
  });
  for (const entry of source.posts) feed.addItem(itemOf(settings, entry));
  return format === 'rss' ? feed.rss2() : feed.atom1();
}

function jsonFeed(source: FeedSource) {
  const { settings } = source;
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: titleOf(source),
    ...(settings.siteUrl ? { home_page_url: settings.siteUrl } : {}),
    feed_url: source.links.json,
    items: source.posts.map(({ post, html }) => {
      const url = postUrl(settings, post);
      const summary = summaryOf(post);
      const author = authorOf(settings, post);
      return {
        id: url ?? `urn:uuid:${post.id}`,
        ...(url ? { url } : {}),
        title: post.title,
        content_html: html,
        ...(summary ? { summary } : {}),
        ...(post.featuredMedia ? { image: post.featuredMedia.url } : {}),
        date_published: post.publishedAt ?? post.createdAt,
        date_modified: post.updatedAt,
        ...(author ? { authors: [{ name: author.name, ...(author.url ? { url: author.url } : {}) }] } : {}),
        tags: [...(post.category ? [post.category.name] : []), ...post.tags.map((tag) => tag.name)],
      };
    }),
  };
}
