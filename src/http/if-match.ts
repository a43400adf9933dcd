import { badRequest } from '../errors.js';
import type { VersionCondition } from '../writes/versions.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Reads `If-Match: "<updatedAt>"` (a list of them, or `*`). A tag that is no version is a 400 naming the
 * header: answering it with a conflict would send a client to reload for ever.
 */
export function parseIfMatch(header: string | string[] | undefined): VersionCondition {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return { any: true };
  const versions = text
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter(Boolean)
    .map((tag) => (tag.startsWith('"') && tag.endsWith('"') && tag.length >= 2 ? tag.slice(1, -1) : tag));
  if (versions.length === 0 || versions.some((version) => !ISO.test(version)))
    throw badRequest('If-Match must name the version you read: its updatedAt in quotes', {
      issues: [{ in: 'headers', path: '/if-match', message: 'must be "<updatedAt>" as last read, or *' }],
    });
  return { any: false, versions };
}
