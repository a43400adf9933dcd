import { Type } from 'typebox';
import { badRequest } from '../errors.js';
import { ENTITY_TAG } from '../shared/entity-tag.js';
import type { VersionCondition } from '../writes/versions.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const refusal = (message: string) =>
  badRequest(`If-Match must name the copy you read: ${message}`, {
    issues: [{ in: 'headers', path: '/if-match', message: 'must be the ETag or the "<updatedAt>" read, or *' }],
  });

/**
 * Reads `If-Match`: `*`, or a list of the `updatedAt`s (in quotes) or strong ETags of the copies read. A tag that
 * could never match is a 400 naming the header, since a conflict would send a client to reload for ever: one of
 * neither form, or a header of weak tags only (RFC 9110 compares If-Match strongly, so `W/` never matches; in a
 * list with a strong tag it is passed over).
 */
export function parseIfMatch(header: string | string[] | undefined): VersionCondition {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return { any: true };
  const candidates = text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  const versions: string[] = [];
  const tags: string[] = [];
  let weak = 0;
  for (const candidate of candidates) {
    const strong = candidate.replace(/^W\//, '');
    const quoted = strong.startsWith('"') && strong.endsWith('"') && strong.length >= 2;
    const version = quoted ? strong.slice(1, -1) : strong;
    if (!ISO.test(version) && !ENTITY_TAG.test(strong)) throw refusal('its ETag, or its updatedAt in quotes');
    if (strong !== candidate) weak += 1;
    else if (ISO.test(version)) versions.push(version);
    else tags.push(strong);
  }
  if (candidates.length === 0) throw refusal('its ETag, or its updatedAt in quotes');
  if (weak === candidates.length) throw refusal('a weak ETag (W/) never matches; send the ETag as the GET gave it');
  return { any: false, versions, tags };
}

/**
 * The `If-Match` header as a PATCH of a post or page declares it, so the OpenAPI document and the typed client
 * carry it; its form is checked by parseIfMatch, which names the header in its 400.
 */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'The copy being edited: the `ETag` a GET of it answered (without `?fields=`), or its `updatedAt` in ' +
        'quotes (`"2026-11-27T10:00:00.000Z"`); a comma-separated list of them; or `*`. The ETag is compared ' +
        'strongly (a weak `W/` tag never matches; a header of weak tags only is a 400) with the tag of the ' +
        "resource's whole answer now, so it also fails when something it embeds changed; the `updatedAt` names " +
        "the resource's own writes. When the copy is no longer current, the PATCH answers 409 CONFLICT with " +
        '`details.reason` "stale" and `details.version`, its `updatedAt` now, and writes nothing. Without the ' +
        'header, the PATCH applies as always.',
    }),
  ),
});
