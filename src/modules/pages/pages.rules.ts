import { checkNotScheduled, type PublicationRequest, type StoredPublication } from '../posts/posts.rules.js';

/**
 * Pages have a published status and a `publishedAt` too, and v1 schedules neither: the posts' rule
 * (posts.rules.ts) for a page; `stored` is null on create.
 */
export function checkPageNotScheduled(
  request: PublicationRequest,
  stored: StoredPublication | null,
  now: number,
): void {
  checkNotScheduled('page', request, stored, now);
}
