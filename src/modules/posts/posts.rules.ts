import { invalid } from '../../errors.js';
import type { PostStatus } from '../../db/schema.js';

/** Status moves of contract §5; writing the current status again is a no-op. */
const MOVES: Record<PostStatus, readonly PostStatus[]> = {
  draft: ['published', 'archived'],
  published: ['draft', 'archived'],
  archived: ['draft'],
  scheduled: [],
};

export function checkStatusOnCreate(status: PostStatus): void {
  if (status === 'scheduled')
    throw invalid([{ in: 'body', path: '/status', message: 'scheduled is not supported in v1' }]);
  if (status !== 'draft' && status !== 'published') {
    throw invalid([{ in: 'body', path: '/status', message: `a post is created as draft or published, not ${status}` }]);
  }
}

export function checkStatusMove(from: PostStatus, to: PostStatus): void {
  if (to === 'scheduled') throw invalid([{ in: 'body', path: '/status', message: 'scheduled is not supported in v1' }]);
  if (from === to) return;
  if (!MOVES[from].includes(to))
    throw invalid([{ in: 'body', path: '/status', message: `a post cannot move from ${from} to ${to}` }]);
}

/**
 * How far ahead of the server's clock a `publishedAt` may be and still count as now: a client that stamps
 * its own "now" on a post, with a clock a little fast, must not get an intermittent 400.
 */
export const CLOCK_SKEW_MS = 60_000;

export interface PublicationRequest {
  status?: string | undefined;
  publishedAt?: string | null | undefined;
}
export interface StoredPublication {
  status: string;
  published_at: string | null;
}

/**
 * v1 has no scheduling: a published row whose `publishedAt` is in the future would be live at once and
 * sort first among published posts. So a write that leaves a row published with a `publishedAt` later than
 * `now` (plus the skew above) is refused, naming `/publishedAt`. Only a request that sets `status` or
 * `publishedAt` is checked, with the stored value standing in for the one it leaves alone: rows written
 * before this rule stay as they are until one of the two is written. A draft may carry a future date.
 */
export function checkNotScheduled(
  kind: 'post' | 'page',
  request: PublicationRequest,
  stored: StoredPublication | null,
  now: number,
): void {
  if (request.status === undefined && request.publishedAt === undefined) return;
  const status = request.status ?? stored?.status ?? 'draft';
  const publishedAt = request.publishedAt === undefined ? (stored?.published_at ?? null) : request.publishedAt;
  if (status !== 'published' || publishedAt === null || Date.parse(publishedAt) <= now + CLOCK_SKEW_MS) return;
  throw invalid([
    {
      in: 'body',
      path: '/publishedAt',
      message: `v1 has no scheduling: a published ${kind} cannot have a publishedAt later than now (${new Date(now).toISOString()}); leave it out to publish now, or keep the ${kind} a draft`,
    },
  ]);
}

/** The rule above for a post: `stored` is null on create. */
export function checkPostNotScheduled(
  request: PublicationRequest,
  stored: StoredPublication | null,
  now: number,
): void {
  checkNotScheduled('post', request, stored, now);
}
