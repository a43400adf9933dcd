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
