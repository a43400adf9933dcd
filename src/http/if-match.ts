import { Type } from 'typebox';
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

/**
 * The `If-Match` header as a PATCH of a post or page declares it, so the OpenAPI document and the typed client
 * carry it; its form is checked by parseIfMatch, which names the header in its 400.
 */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'The `updatedAt` of the copy being edited, in quotes (`"2026-11-27T10:00:00.000Z"`), or `*`. When the ' +
        'resource was written since, the PATCH answers 409 CONFLICT with `details.reason` "stale" and ' +
        '`details.version`, its `updatedAt` now, and writes nothing. Without it, the PATCH applies as always.',
    }),
  ),
});
