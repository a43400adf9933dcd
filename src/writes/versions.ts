import { conflict } from '../errors.js';
import { entityTag } from '../shared/entity-tag.js';

/**
 * A post's or page's version is its `updatedAt`. Every write of one moves it forward, strictly: two writes in
 * the same millisecond must not leave the same version, or the second would pass a check made against the first.
 * A GET's ETag is accepted as well (checkVersion), but it hashes the whole answer, which also changes when an
 * embedded author or tag does: the version names the resource's own writes alone.
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

/**
 * What an `If-Match` header asks a PATCH to hold: any version (`*`), one of some versions (`updatedAt`s) or
 * strong ETags of the answer a GET gave (with their quotes), or nothing.
 */
export type VersionCondition = { any: true } | { any: false; versions: string[]; tags: string[] } | undefined;

/**
 * The 409 of a write based on an outdated read; `details.version` is the one to read again. An ETag is
 * compared with the tag of the resource's whole answer as a GET gives it now (`answer`, built only then).
 */
export async function checkVersion(
  current: string,
  condition: VersionCondition,
  what: 'Post' | 'Page',
  answer: () => Promise<Buffer | string>,
): Promise<void> {
  if (condition === undefined || condition.any || condition.versions.includes(current)) return;
  if (condition.tags.length > 0 && condition.tags.includes(entityTag(await answer()))) return;
  throw conflict(`${what} changed since you read it`, { reason: 'stale', version: current });
}
