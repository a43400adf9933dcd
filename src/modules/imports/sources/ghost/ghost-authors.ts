import type { ImportAuthor } from '../../import-source.js';
import type { Row } from './ghost-json.js';
import { text } from './ghost-tables.js';
import { htmlText, storable } from './ghost-text.js';

/*
 * Ghost's staff users as authors: their public profile only. A user row also holds an email, a password hash and
 * settings; none of it leaves this file.
 */

/** A profile field of Ghost's as a URL: Ghost stores most as handles (`@ghost`, `ghost`), some as paths. */
const PROFILES: ReadonlyArray<readonly [column: string, url: (handle: string) => string]> = [
  ['facebook', (handle) => `https://www.facebook.com/${handle}`],
  ['twitter', (handle) => `https://x.com/${handle.replace(/^@/, '')}`],
  ['threads', (handle) => `https://www.threads.net/@${handle.replace(/^@/, '')}`],
  ['bluesky', (handle) => `https://bsky.app/profile/${handle.replace(/^@/, '')}`],
  ['mastodon', mastodon],
  ['tiktok', (handle) => `https://www.tiktok.com/@${handle.replace(/^@/, '')}`],
  [
    'youtube',
    (handle) =>
      `https://www.youtube.com/${/^(channel|c|user)\//.test(handle) ? handle : `@${handle.replace(/^@/, '')}`}`,
  ],
  ['instagram', (handle) => `https://www.instagram.com/${handle.replace(/^@/, '')}`],
  ['linkedin', (handle) => `https://www.linkedin.com/${/^(in|company)\//.test(handle) ? handle : `in/${handle}`}`],
];

/** `@user@instance.social` or `instance.social/@user` → the profile's URL. */
function mastodon(handle: string): string {
  const at = /^@?([^@/\s]+)@([^@/\s]+)$/.exec(handle);
  if (at !== null) return `https://${at[2]}/@${at[1]}`;
  return `https://${handle.replace(/^\/+/, '')}`;
}

function httpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The user's website and social profiles as URLs, each once. */
export function sameAsOf(user: Row): string[] {
  const urls: string[] = [];
  const website = text(user.website)?.trim();
  if (website) {
    const url = httpUrl(website);
    if (url !== null) urls.push(url);
  }
  for (const [column, toUrl] of PROFILES) {
    const value = text(user[column])?.trim();
    if (!value) continue;
    const url = httpUrl(value) ?? httpUrl(toUrl(value.replace(/^\/+/, '')));
    if (url !== null) urls.push(url);
  }
  return [...new Set(urls.map(storable))];
}

export function authorOf(user: Row): ImportAuthor | null {
  const id = text(user.id);
  if (id === null) return null;
  const slug = text(user.slug);
  const bio = text(user.bio);
  return {
    type: 'author',
    sourceId: id,
    ...(slug === null ? {} : { slug: storable(slug) }),
    displayName: storable(text(user.name) ?? slug ?? id),
    // Ghost's bio is plain text; older versions let HTML in.
    bio: bio === null || bio.trim() === '' ? null : htmlText(bio),
    sameAs: sameAsOf(user),
  };
}
