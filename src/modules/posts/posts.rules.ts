import { invalid } from '../../errors.js';
import type { PostStatus } from '../../db/schema.js';
import { isUuid } from '../../shared/slug.js';
import { toIso } from '../../shared/time.js';

/** Status moves of contract §5; writing the current status again is a no-op. */
const MOVES: Record<PostStatus, readonly PostStatus[]> = {
  draft: ['published', 'archived'],
  published: ['draft', 'archived'],
  archived: ['draft'],
  scheduled: [],
};

export function checkStatusOnCreate(status: PostStatus): void {
  if (status === 'scheduled') throw invalid([{ in: 'body', path: '/status', message: 'scheduled is not supported in v1' }]);
  if (status !== 'draft' && status !== 'published') {
    throw invalid([{ in: 'body', path: '/status', message: `a post is created as draft or published, not ${status}` }]);
  }
}

export function checkStatusMove(from: PostStatus, to: PostStatus): void {
  if (to === 'scheduled') throw invalid([{ in: 'body', path: '/status', message: 'scheduled is not supported in v1' }]);
  if (from === to) return;
  if (!MOVES[from].includes(to)) throw invalid([{ in: 'body', path: '/status', message: `a post cannot move from ${from} to ${to}` }]);
}

/** A UUID-shaped slug would be read as an id by `{idOrSlug}`, so the post could never be found by it. */
export function checkSlug(slug: string | undefined): void {
  if (slug !== undefined && isUuid(slug)) throw invalid([{ in: 'body', path: '/slug', message: 'a slug cannot be shaped like a UUID' }]);
}

/**
 * The stored form of an accepted date-time. The schema's `date-time` admits instants a Date cannot
 * hold (a leap second) and years PostgreSQL refuses (year 0, or past 9999 after the offset); both
 * are the client's mistake, so a 400 here rather than a 500 from toIso or the database.
 */
export function storedTimestamp(value: string, path: string, part: 'body' | 'query' = 'body'): string {
  const ms = Date.parse(value);
  const iso = Number.isNaN(ms) ? null : toIso(value);
  if (iso === null || !/^\d{4}-/.test(iso) || iso.startsWith('0000-')) {
    throw invalid([{ in: part, path, message: 'must be a date-time between years 1 and 9999' }]);
  }
  return iso;
}

/** UUIDs compare case-insensitively; ids are stored lowercase, and SQLite compares text as it is. */
export function lowerId<T extends string | null | undefined>(id: T): T {
  return (typeof id === 'string' ? id.toLowerCase() : id) as T;
}
