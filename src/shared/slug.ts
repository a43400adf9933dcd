import { kebabCase } from '@quire/blocks';

const UUID_SHAPE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SLUG_MAX_LENGTH = 200;

export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value);
}

/**
 * The row a path parameter names: a UUID by its id (lower-cased at validation, as every UUID a request
 * carries), anything else by its slug. Slugs can never be UUID-shaped (slugFrom), so the two never meet.
 */
export function idOrSlugKey(idOrSlug: string): { column: 'id' | 'slug'; value: string } {
  return isUuid(idOrSlug) ? { column: 'id', value: idOrSlug } : { column: 'slug', value: idOrSlug };
}

/** A slug derived from a name: kebab-case, cut to the limit on a word boundary, never UUID-shaped. */
export function slugFrom(text: string, fallback: string): string {
  let slug = kebabCase(text) || fallback;
  if (slug.length > SLUG_MAX_LENGTH - 4)
    slug = slug.slice(0, SLUG_MAX_LENGTH - 4).replace(/-[^-]*$/, '') || slug.slice(0, SLUG_MAX_LENGTH - 4);
  return isUuid(slug) ? `${slug}-x` : slug;
}

/** Candidates asked about at first; each batch after a full one is twice as large, up to the last size. */
const FIRST_BATCH = 20;
const LARGEST_BATCH = 1280;

/**
 * The first of `base`, `base-2`, `base-3` … that `isTaken` does not claim. The batches double, so a name used
 * a thousand times costs a few queries, not one per twenty uses.
 */
export async function firstFreeSlug(
  base: string,
  isTaken: (candidates: string[]) => Promise<Set<string>>,
): Promise<string> {
  for (let start = 1, size = FIRST_BATCH; ; start += size, size = Math.min(size * 2, LARGEST_BATCH)) {
    // A long base gives up characters to its suffix, so no candidate passes the length limit.
    const candidates = Array.from({ length: size }, (_, i) => {
      if (start + i === 1) return base;
      const suffix = `-${start + i}`;
      return `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    });
    const taken = await isTaken(candidates);
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (free) return free;
  }
}
