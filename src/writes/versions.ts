import { conflict } from '../errors.js';

/**
 * A post's or page's version is its `updatedAt`. Every write of one moves it forward, strictly: two writes in
 * the same millisecond must not leave the same version, or the second would pass a check made against the first.
 * The GET's ETag cannot serve: it hashes the whole answer, which also changes when an embedded author or the
 * site settings do, so a writer would be refused for an edit of something else.
 */
export function nextVersion(previous: string, now: string): Version {
  if (now > previous) return now as Version;
  return new Date(Date.parse(previous) + 1).toISOString() as Version;
}

/**
 * An `updated_at` that moved forward from the row's: what a post's or page's patch must carry (PostPatch,
 * PagePatch), so a write cannot set a plain timestamp that may equal the version a reader holds.
 */
export type Version = string & { readonly __version: unique symbol };

/** What an `If-Match` header asks a PATCH to hold: any version (`*`), one of some versions, or nothing. */
export type VersionCondition = { any: true } | { any: false; versions: string[] } | undefined;

/** The 409 of a write based on an outdated read; `details.version` is the one to read again. */
export function checkVersion(current: string, condition: VersionCondition, what: 'Post' | 'Page'): void {
  if (condition === undefined || condition.any || condition.versions.includes(current)) return;
  throw conflict(`${what} changed since you read it`, { reason: 'stale', version: current });
}
