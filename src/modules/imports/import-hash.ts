import { createHash } from 'node:crypto';

/**
 * Bumped when the importers map the same source differently (a converter that keeps more): every item then reads as
 * changed, and a re-run brings the better conversion in.
 */
export const IMPORTER_VERSION = 1;

/** JSON with its object keys sorted: the same value, the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** What an item was, as the ledger remembers it: a re-run writes only what hashes differently. */
export function contentHash(value: unknown): string {
  return createHash('sha256')
    .update(`${IMPORTER_VERSION}\n${canonical(value)}`)
    .digest('hex');
}
