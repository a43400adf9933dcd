import { api, ApiError, call, client, describeError, ws } from '../../api';
import { keys } from '../../queries';
import type { Review, ReviewNotifications, ReviewQueue, ReviewState } from '../../types';
import { inWords } from '../../validation-words';

/** Review (docs/team.md, "Review"): the routes the studio, the queue and the bell call, and their words. */

export type ReviewKind = 'post' | 'page';

export const STATE_WORDS: Record<ReviewState, string> = {
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  withdrawn: 'Withdrawn',
};
export const STATE_TONE: Record<ReviewState, 'good' | 'warn' | 'bad' | 'neutral'> = {
  in_review: 'warn',
  changes_requested: 'bad',
  approved: 'good',
  withdrawn: 'neutral',
};
export const studioPath = (workspaceId: string, kind: ReviewKind, id: string) =>
  `/w/${workspaceId}/${kind}s/${id}/edit`;

/**
 * Keys under `reviews`, so one invalidation of `keys.resource(workspaceId, 'reviews')` re-reads the queue, the
 * navigation's count and every open thread; apart from `posts`, which each autosave invalidates.
 */
export const reviewKeys = {
  all: (workspaceId: string) => keys.resource(workspaceId, 'reviews'),
  queue: (workspaceId: string, params: Record<string, unknown>) => keys.list(workspaceId, 'reviews', params),
  counts: (workspaceId: string) => [...keys.resource(workspaceId, 'reviews'), 'counts'] as const,
  thread: (workspaceId: string, kind: ReviewKind, id: string) => keys.item(workspaceId, 'reviews', kind, id),
  notifications: (workspaceId: string) => keys.resource(workspaceId, 'notifications'),
};

const reviewPath = (workspaceId: string, kind: ReviewKind, id: string, rest = '') =>
  ws(workspaceId, `/${kind}s/${encodeURIComponent(id)}/review${rest}`);

// One post's or page's review is reached by a path built for its kind (`api`); the workspace's queue and
// notifications through the typed client.

/** The draft's review, or null when it was never submitted (the server's 404). */
export async function readReview(workspaceId: string, kind: ReviewKind, id: string): Promise<Review | null> {
  try {
    return await api.get<Review>(reviewPath(workspaceId, kind, id));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export interface QueueParams {
  state: ReviewState;
  mine: boolean;
  before?: string;
  limit?: number;
}

export function readQueue(workspaceId: string, { state, mine, before, limit }: QueueParams): Promise<ReviewQueue> {
  return call(
    client.GET('/workspaces/{workspaceId}/reviews', {
      params: { path: { workspaceId }, query: { state, mine: mine || undefined, before, limit } },
    }),
  );
}

/** Leaves out a note left empty: the server refuses an empty comment, and none is what was meant. */
const note = (name: string, text: string | undefined) => (text && text.trim() ? { [name]: text } : {});

export type ReviewAct =
  | { act: 'submit'; comment?: string }
  | { act: 'comment'; body: string }
  | { act: 'request-changes'; comment: string }
  | { act: 'approve'; comment?: string; publish: boolean }
  | { act: 'withdraw'; comment?: string };

export function actOnReview(workspaceId: string, kind: ReviewKind, id: string, act: ReviewAct): Promise<Review> {
  switch (act.act) {
    case 'submit':
      return api.post<Review>(reviewPath(workspaceId, kind, id), note('comment', act.comment));
    case 'comment':
      return api.post<Review>(reviewPath(workspaceId, kind, id, '/comments'), { body: act.body });
    case 'request-changes':
      return api.post<Review>(reviewPath(workspaceId, kind, id, '/request-changes'), { comment: act.comment });
    case 'approve':
      return api.post<Review>(reviewPath(workspaceId, kind, id, '/approve'), {
        ...note('comment', act.comment),
        publish: act.publish,
      });
    case 'withdraw':
      return api.post<Review>(reviewPath(workspaceId, kind, id, '/withdraw'), note('comment', act.comment));
  }
}

/** A refused review write in words: the comment's own refusal goes under its field (`commentProblem`). */
export function refusalWords(error: unknown, noun: string): string {
  if (typeof error === 'string') return error;
  if (error instanceof ApiError && error.status === 409) {
    switch (error.details?.reason) {
      case 'not_draft':
        return `Only a draft goes through review, and this ${noun} is not a draft any more. Reload it to see it as it is.`;
      case 'review_open':
        return `This ${noun} is already waiting for review.`;
      case 'review_closed':
        return 'Someone closed this review meanwhile: the thread now shows what they did.';
    }
  }
  if (error instanceof ApiError && error.status === 404) return `This ${noun} has no review any more. Reload it.`;
  return describeError(error);
}

/** What the server said of the comment (`/comment` or `/body`), in words; null when it named no comment. */
export function commentProblem(error: unknown): string | null {
  if (!(error instanceof ApiError) || !Array.isArray(error.details?.issues)) return null;
  for (const issue of error.details.issues as Array<{ path?: string; message?: string }>) {
    if (issue.path !== '/comment' && issue.path !== '/body') continue;
    // The pattern is "holds a non-space": the one rule a person could break with spaces alone.
    if (/^must match pattern /.test(issue.message ?? '')) return 'Write a few words: spaces alone are no comment.';
    const words = inWords(issue.message ?? 'is not valid', 'comment');
    if (words) return words;
  }
  return null;
}

/** The signed-in member's notifications in the workspace, newest first, with how many are unread. */
export function readNotifications(workspaceId: string): Promise<ReviewNotifications> {
  return call(
    client.GET('/workspaces/{workspaceId}/notifications', { params: { path: { workspaceId }, query: { limit: 30 } } }),
  );
}

/** Marks these read, or every one of the member's in the workspace; answers how many are left unread. */
export function markRead(workspaceId: string, ids?: string[]): Promise<{ unread: number }> {
  return call(
    client.POST('/workspaces/{workspaceId}/notifications/read', {
      params: { path: { workspaceId } },
      body: ids ? { ids } : {},
    }),
  );
}
