import { conflict, invalid } from '../errors.js';
import { firstFreeSlug, isUuid, slugFrom } from './slug.js';

/**
 * A UUID-shaped slug would be read as an id by `{idOrSlug}`, so the row could never be found by it.
 * Checked before any lookup: validation answers before 404 and 409 (contract §7).
 */
export function checkExplicitSlug(slug: string | undefined): void {
  if (slug !== undefined && isUuid(slug))
    throw invalid([{ in: 'body', path: '/slug', message: 'a slug cannot be shaped like a UUID' }]);
}

/**
 * The slug a write stores (contract §5): an explicit one must be free (else 409); an absent one is
 * derived from `name`, with `-2`, `-3` … appended until free. `takenSlugs` answers which candidates
 * other rows of the workspace hold.
 */
export async function claimSlug(
  takenSlugs: (candidates: string[]) => Promise<Set<string>>,
  explicit: string | undefined,
  name: string,
  what: string,
): Promise<string> {
  if (explicit === undefined) return firstFreeSlug(slugFrom(name, what), takenSlugs);
  if ((await takenSlugs([explicit])).has(explicit))
    throw conflict(`The slug "${explicit}" is taken by another ${what}`, { field: 'slug', slug: explicit });
  return explicit;
}
